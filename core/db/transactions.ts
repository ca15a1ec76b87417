import { ControlledTransaction, PostgresAdapter } from 'kysely';
import type { Db } from './store';
import type { Tables } from './tables';

/** Whether a query builder talks to PostgreSQL (else SQLite): for the few dialect differences core/db hides. */
export function isPostgres(db: Db): boolean {
  return db.getExecutor().adapter instanceof PostgresAdapter;
}

export interface TransactionOptions {
  /**
   * A transaction that only reads, on one consistent snapshot (PostgreSQL: repeatable read; SQLite:
   * a deferred transaction, which holds no write lock).
   */
  readOnly?: boolean;
}

/** PostgreSQL's refusals a transaction is run again for: a serialization failure, a deadlock broken by the server. */
const RETRIED_STATES = new Set(['40001', '40P01']);
/** Attempts before a write still refused that way answers busy. */
export const TRANSACTION_ATTEMPTS = 8;

/** The SQLSTATE (PostgreSQL) or error code (SQLite) of a store error, if any. */
export function storeErrorCode(error: unknown): string | undefined {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' ? code : undefined;
}

export function isRetriedFailure(error: unknown): boolean {
  return RETRIED_STATES.has(storeErrorCode(error) ?? '');
}

const pause = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

let savepoints = 0;

/** Runs `work` in a savepoint of the caller's transaction (Kysely's): its writes are undone alone if it throws. */
async function inSavepoint<T>(trx: ControlledTransaction<Tables>, work: (trx: Db) => Promise<T>): Promise<T> {
  const name = `termwise_${++savepoints}`;
  const point = await trx.savepoint(name).execute();
  let result: T;
  try {
    result = await work(point);
  } catch (error) {
    await point.rollbackToSavepoint(name).execute();
    await point.releaseSavepoint(name).execute();
    throw error;
  }
  await point.releaseSavepoint(name).execute();
  return result;
}

/** Runs `work` in a transaction of its own (Kysely's controlled one, so that work inside it can take savepoints). */
async function inNewTransaction<T>(db: Db, work: (trx: Db) => Promise<T>, options: TransactionOptions): Promise<T> {
  let builder = db.startTransaction().setAccessMode(options.readOnly ? 'read only' : 'read write');
  if (options.readOnly && isPostgres(db)) builder = builder.setIsolationLevel('repeatable read');
  const trx = await builder.execute();
  try {
    const result = await work(trx);
    await trx.commit().execute();
    return result;
  } catch (error) {
    if (!trx.isCommitted) await trx.rollback().execute();
    throw error;
  }
}

/**
 * Runs `work` in one transaction: all of it is stored, or none. Inside another transaction it is a
 * savepoint of that one. On PostgreSQL a transaction refused by a serialization failure or a
 * deadlock is run again (up to TRANSACTION_ATTEMPTS times, after a short random pause), so `work`
 * must do nothing outside the store that it cannot do twice. A write transaction on SQLite takes
 * the write lock first (BEGIN IMMEDIATE).
 */
export async function inTransaction<T>(db: Db, work: (trx: Db) => Promise<T>, options: TransactionOptions = {}): Promise<T> {
  if (db instanceof ControlledTransaction) return inSavepoint(db as ControlledTransaction<Tables>, work);
  if (db.isTransaction) throw new Error('inTransaction nests only in a transaction it began');
  const postgres = isPostgres(db);
  for (let attempt = 1; ; attempt++) {
    try {
      return await inNewTransaction(db, work, options);
    } catch (error) {
      if (!postgres || attempt >= TRANSACTION_ATTEMPTS || !isRetriedFailure(error)) throw error;
      await pause(Math.random() * 5 * attempt);
    }
  }
}
