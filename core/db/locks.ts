import { createHash } from 'node:crypto';
import { sql } from 'kysely';
import type { Db } from './store';
import { isPostgres } from './transactions';

/**
 * A lock a write holds until its transaction ends: `shared` with other shared holders of the key,
 * `exclusive` alone. Keys are words ("term 2025 Fall", "room 2025 Fall b-201"); their meaning
 * belongs to the feature that takes them.
 */
export interface LockRequest {
  key: string;
  mode: 'shared' | 'exclusive';
}

/**
 * Takes the locks in the caller's transaction, in one agreed order (by key) so that two writers
 * never wait for each other; a key asked twice is taken in its strongest mode. On PostgreSQL these
 * are transaction-scoped advisory locks, so the rule a write checks holds across every server
 * process on the database; SQLite has one writer at a time already (BEGIN IMMEDIATE) and needs none.
 */
export async function takeLocks(trx: Db, requests: readonly LockRequest[]): Promise<void> {
  if (!trx.isTransaction) throw new Error('Locks are taken inside a transaction');
  if (!isPostgres(trx) || requests.length === 0) return;
  const modes = new Map<string, LockRequest['mode']>();
  for (const { key, mode } of requests) if (modes.get(key) !== 'exclusive') modes.set(key, mode);
  const calls = [...modes]
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([key, mode]) => `${mode === 'shared' ? 'pg_advisory_xact_lock_shared' : 'pg_advisory_xact_lock'}('${lockId(key)}'::bigint)`);
  // The target list is evaluated left to right: the locks are taken in key order. The ids are
  // numbers of our own, written in the text: a statement without values goes with the
  // transaction's opening in one round trip (see postgres-store.ts).
  await sql.raw(`SELECT ${calls.join(', ')}`).execute(trx);
}

/** A key's 64-bit lock id (PostgreSQL's advisory locks are numbered); any text may be a key. */
function lockId(key: string): string {
  return createHash('sha256').update(key).digest().readBigInt64BE(0).toString();
}
