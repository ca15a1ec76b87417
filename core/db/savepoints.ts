import { CoreError } from '../domain/errors';
import type { Db } from './store';
import { inTransaction } from './transactions';

/** What became of each item written in a savepoint of its own. */
export interface SavepointResults<T, R> {
  written: R[];
  refused: { item: T; error: CoreError }[];
}

/**
 * Writes each item in a savepoint of its own inside the caller's transaction: an item whose write is
 * refused (a CoreError other than internal) is rolled back alone and reported with its refusal,
 * and the others stay. Any other error ends the whole transaction.
 */
export async function eachInSavepoint<T, R>(trx: Db, items: Iterable<T>, write: (item: T) => Promise<R>): Promise<SavepointResults<T, R>> {
  if (!trx.isTransaction) throw new Error('eachInSavepoint runs inside a transaction');
  const results: SavepointResults<T, R> = { written: [], refused: [] };
  for (const item of items) {
    try {
      results.written.push(await inTransaction(trx, () => write(item)));
    } catch (error) {
      if (!(error instanceof CoreError) || error.code === 'internal') throw error;
      results.refused.push({ item, error });
    }
  }
  return results;
}
