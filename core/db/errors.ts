import { CoreError } from '../domain/errors';
import { echo } from '../domain/bounds';
import { storeErrorCode } from './transactions';

const BUSY = 'Termwise is busy with another change to the data (an import or a restore); nothing was changed: try again in a moment';
const CONTENDED = 'Termwise is busy with other changes to the same data right now; nothing was changed: try again in a moment';
const UNREACHABLE = 'The database server is not answering; nothing was changed: try again in a moment';

/** A unique key or a reference broken by a write racing another: PostgreSQL's states and SQLite's codes. */
const RACED = new Set(['23505', '23503', 'SQLITE_CONSTRAINT_UNIQUE', 'SQLITE_CONSTRAINT_PRIMARYKEY', 'SQLITE_CONSTRAINT_FOREIGNKEY']);

/** Network failures of the connection to a database server. */
const CONNECTION_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'ENOTFOUND', 'EHOSTUNREACH']);

/**
 * What a store's own refusal means to the caller, in words: busy (503) while another write holds
 * what this one needs past the wait, or while the database server cannot be reached; a value or a
 * rule the stored data cannot take (400). Null for anything else (a fault of Termwise). Both stores
 * answer alike.
 */
export function storeRefusal(error: unknown): CoreError | null {
  if (error instanceof CoreError) return null;
  const code = storeErrorCode(error);
  const message = error instanceof Error ? error.message : '';
  if (code === undefined) {
    return /^Connection terminated|timeout exceeded when trying to connect/i.test(message) ? new CoreError('busy', UNREACHABLE) : null;
  }
  if (code === 'SQLITE_BUSY' || code === 'SQLITE_LOCKED' || code === '55P03') return new CoreError('busy', BUSY);
  if (code === '40001' || code === '40P01') return new CoreError('busy', CONTENDED);
  if (code === '57014') return new CoreError('busy', 'A request to the database took too long and was stopped; nothing was changed: try again in a moment');
  if (CONNECTION_CODES.has(code) || code.startsWith('08') || code === '53300' || code === '57P01' || code === '57P02' || code === '57P03')
    return new CoreError('busy', UNREACHABLE);
  if (code.startsWith('22')) return new CoreError('invalid', `A value cannot be stored (${echo(message, 160)}); nothing was changed`);
  // Two writes at one moment adding the same thing, or one removing what the other refers to.
  if (RACED.has(code)) return new CoreError('conflict', `Another change got there first (${echo(message, 160)}); nothing was changed: look again and retry`);
  return null;
}
