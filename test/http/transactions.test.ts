import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { CoreError } from '../../core/domain/errors';
import { eachInSavepoint } from '../../core/db/savepoints';
import { openStore, type Db, type Store } from '../../core/db/store';
import { inTransaction } from '../../core/db/transactions';
import { TEST_STORE, testDatabase } from '../helpers/test-store';

/**
 * The store's transactions, on the store this run exercises: all of a transaction or none, and work
 * nested in one (an import's row, a replayed change) undone alone when it fails, in Kysely's savepoints.
 */
describe(`transactions and savepoints (${TEST_STORE})`, () => {
  let store: Store;
  let cleanUp: () => Promise<void>;

  beforeEach(async () => {
    const database = await testDatabase();
    const dir = mkdtempSync(join(tmpdir(), 'termwise-transactions-'));
    store = await openStore(database.databaseUrl ? { kind: 'postgres', url: database.databaseUrl } : { kind: 'sqlite', file: join(dir, 'termwise.db') }, {
      poolSize: 2,
    });
    cleanUp = async () => {
      await store.close();
      await database.drop();
      rmSync(dir, { recursive: true, force: true });
    };
  });
  afterEach(async () => cleanUp());

  const addCourse = (db: Db, code: string) =>
    db
      .insertInto('courses')
      .values({
        department_id: 1,
        code,
        name: code,
        prefix: code.slice(0, 3),
        number: code.slice(3),
        type: null,
        study_plan: null,
        prerequisites: null,
        course_level: 1,
      })
      .execute();
  const codes = async (): Promise<string[]> =>
    (await store.db.selectFrom('courses').select('code').where('code', 'like', 'TXN%').orderBy('code').execute()).map((row) => row.code);

  it('stores all of a transaction, or none of it when it throws', async () => {
    await inTransaction(store.db, async (trx) => {
      await addCourse(trx, 'TXN100');
      await addCourse(trx, 'TXN101');
    });
    await expect(
      inTransaction(store.db, async (trx) => {
        await addCourse(trx, 'TXN200');
        throw new Error('refused halfway');
      }),
    ).rejects.toThrow('refused halfway');
    expect(await codes()).toEqual(['TXN100', 'TXN101']);
  });

  it('undoes a nested transaction that fails alone, after a failed statement too, and keeps the rest', async () => {
    await inTransaction(store.db, async (trx) => {
      await addCourse(trx, 'TXN100');
      // A duplicate key: the statement fails inside the savepoint (on PostgreSQL, the transaction
      // would be unusable without one), and the savepoint's other write goes with it.
      await expect(
        inTransaction(trx, async (inner) => {
          await addCourse(inner, 'TXN101');
          await addCourse(inner, 'TXN100');
        }),
      ).rejects.toThrow();
      await inTransaction(trx, async (inner) => {
        await addCourse(inner, 'TXN102');
        await inTransaction(inner, (innermost) => addCourse(innermost, 'TXN103'));
      });
    });
    expect(await codes()).toEqual(['TXN100', 'TXN102', 'TXN103']);
  });

  it('undoes nested work that succeeded when the transaction around it fails', async () => {
    await expect(
      inTransaction(store.db, async (trx) => {
        await inTransaction(trx, (inner) => addCourse(inner, 'TXN100'));
        throw new Error('the outer work fails');
      }),
    ).rejects.toThrow('the outer work fails');
    expect(await codes()).toEqual([]);
  });

  it('writes each item in a savepoint of its own: a refused one is reported and the others stored', async () => {
    const results = await inTransaction(store.db, (trx) =>
      eachInSavepoint(trx, ['TXN100', 'TXN101', 'TXN102'], async (code) => {
        await addCourse(trx, code);
        if (code === 'TXN101') throw new CoreError('validation', `${code} is refused`);
        return code;
      }),
    );
    expect(results.written).toEqual(['TXN100', 'TXN102']);
    expect(results.refused.map((r) => [r.item, r.error.message])).toEqual([['TXN101', 'TXN101 is refused']]);
    expect(await codes()).toEqual(['TXN100', 'TXN102']);
  });
});
