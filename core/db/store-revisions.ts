import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import type { Db } from './store';
import { isPostgres } from './transactions';

/**
 * What a restore must bring in line besides the rows it restores: each term's revision counter
 * (term_revisions, one counter on every store) never below the highest change recorded for the
 * term, and the store's own id, which every laptop's sync base names and a restore renews.
 */

/** The statement that raises each term's counter to the highest change recorded for it (`highest`: the dialect's two-argument max). */
const alignText = (highest: 'GREATEST' | 'MAX'): string =>
  `INSERT INTO term_revisions (department_id, year, semester, revision)
   SELECT department_id, year, semester, MAX(revision) FROM schedule_changes WHERE true GROUP BY department_id, year, semester
   ON CONFLICT (department_id, year, semester) DO UPDATE SET revision = ${highest}(term_revisions.revision, excluded.revision)`;

/** SQLite's form, for a restore that runs on the raw connection. */
export const ALIGN_REVISIONS_SQLITE = alignText('MAX');
/** SQLite's form of renewing the store's id (one parameter: the new id). */
export const RENEW_STORE_ID_SQLITE =
  'INSERT INTO store_identity (singleton, store_id) VALUES (1, ?) ON CONFLICT (singleton) DO UPDATE SET store_id = excluded.store_id';

/** Brings every term's counter in line with the history the store holds. */
export async function alignTermRevisions(db: Db): Promise<void> {
  await sql.raw(alignText(isPostgres(db) ? 'GREATEST' : 'MAX')).execute(db);
}

/** A new id for a store. */
export const newStoreId = (): string => randomUUID().replaceAll('-', '');

/**
 * This store's own id (made on first need). On PostgreSQL the database's own number is part of it:
 * a database copied from another (a template, a dump loaded elsewhere) is another store.
 */
export async function storeId(db: Db): Promise<string> {
  let row = await db.selectFrom('store_identity').select('store_id').executeTakeFirst();
  if (!row) {
    await db
      .insertInto('store_identity')
      .values({ singleton: 1, store_id: newStoreId() })
      .onConflict((oc) => oc.column('singleton').doNothing())
      .execute();
    row = await db.selectFrom('store_identity').select('store_id').executeTakeFirstOrThrow();
  }
  if (!isPostgres(db)) return row.store_id;
  const { rows } = await sql<{ oid: string }>`SELECT oid::text AS oid FROM pg_database WHERE datname = current_database()`.execute(db);
  return `${row.store_id}-${rows[0]?.oid ?? '0'}`;
}

/** Gives the store a new id: after a restore it is no longer the store any laptop was based on. */
export async function renewStoreId(db: Db): Promise<void> {
  const id = newStoreId();
  await db
    .insertInto('store_identity')
    .values({ singleton: 1, store_id: id })
    .onConflict((oc) => oc.column('singleton').doUpdateSet({ store_id: id }))
    .execute();
}
