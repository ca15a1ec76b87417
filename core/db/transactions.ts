import { PostgresAdapter, sql } from 'kysely';
import type { Db } from './store';

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

/** Runs `work` in a savepoint of the caller's transaction: its writes are undone alone if it throws. */
async function inSavepoint<T>(trx: Db, work: (trx: Db) => Promise<T>): Promise<T> {
  const name = sql.raw(`termwise_${++savepoints}`);
  await sql`SAVEPOINT ${name}`.execute(trx);
  let result: T;
  try {
    result = await work(trx);
  } catch (error) {
    await sql`ROLLBACK TO SAVEPOINT ${name}`.execute(trx);
    await sql`RELEASE SAVEPOINT ${name}`.execute(trx);
    throw error;
  }
  await sql`RELEASE SAVEPOINT ${name}`.execute(trx);
  return result;
}

/**
 * Runs `work` in one transaction: all of it is stored, or none. Inside another transaction it is a
 * savepoint of that one. On PostgreSQL a transaction refused by a serialization failure or a
 * deadlock is run again (up to TRANSACTION_ATTEMPTS times, after a short random pause), so `work`
 * must do nothing outside the store that it cannot do twice. A write transaction on SQLite takes
 * the write lock first (BEGIN IMMEDIATE).
 */
export async function inTransaction<T>(db: Db, work: (trx: Db) => Promise<T>, options: TransactionOptions = {}): Promise<T> {
  if (db.isTransaction) return inSavepoint(db, work);
  const postgres = isPostgres(db);
  for (let attempt = 1; ; attempt++) {
    try {
      let builder = db.transaction().setAccessMode(options.readOnly ? 'read only' : 'read write');
      if (postgres && options.readOnly) builder = builder.setIsolationLevel('repeatable read');
      return await builder.execute(work);
    } catch (error) {
      if (!postgres || attempt >= TRANSACTION_ATTEMPTS || !isRetriedFailure(error)) throw error;
      await pause(Math.random() * 5 * attempt);
    }
  }
}
