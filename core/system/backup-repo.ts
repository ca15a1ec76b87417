import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { sql } from 'kysely';
import type { Db, Store } from '../db/store';
import { isPostgres, inTransaction } from '../db/transactions';
import { openSqliteFile, type SqliteHandle } from '../db/sqlite-store';
import { loadMigrations, migrate } from '../db/migrate';
import { DATA_TABLES, type DataTable } from '../db/tables';
import { ALIGN_REVISIONS_SQLITE, alignTermRevisions, newStoreId, RENEW_STORE_ID_SQLITE, renewStoreId } from '../db/store-revisions';
import { inBatches } from '../db/batches';

/**
 * The whole-database reads and writes of backup and restore. A backup is always a SQLite file of
 * Termwise's schema, whichever store holds the data, so a backup taken on a laptop restores on a
 * campus server and the other way round.
 */

export interface SchemaObject {
  type: string;
  name: string;
  tbl_name: string;
  sql: string | null;
}

export type Migration = { version: number; checksum: string };

/**
 * Opens an uploaded database file read-only, trusting nothing in its schema (no function it names
 * runs). Throws where the file is not an SQLite database.
 */
export function openUntrusted(path: string): SqliteHandle {
  const probe = new Database(path, { readonly: true, fileMustExist: true });
  try {
    probe.pragma('trusted_schema = OFF');
  } catch (error) {
    probe.close();
    throw error;
  }
  return probe;
}

/** SQLite's quick integrity check: 'ok', or the first problem it found. */
export function quickCheck(db: SqliteHandle): string {
  return String(db.pragma('quick_check', { simple: true }));
}

/** A database's tables, views, indexes and triggers (SQLite's own left out), in a stable order. */
export function schemaObjects(db: SqliteHandle): SchemaObject[] {
  // Kysely's Migrator's own record (kysely_migration, kysely_migration_lock) is not Termwise's schema:
  // a backup from before the Migrator came has the same schema without it.
  return db
    .prepare<[], SchemaObject>(
      "SELECT type, name, tbl_name, sql FROM sqlite_master WHERE name NOT LIKE 'sqlite_%' AND tbl_name NOT LIKE 'kysely\\_%' ESCAPE '\\' ORDER BY type, name",
    )
    .all();
}

export function appliedMigrations(db: SqliteHandle): Migration[] {
  return db.prepare<[], Migration>('SELECT version, checksum FROM schema_migrations ORDER BY version').all();
}

let reference: { schema: SchemaObject[]; migrations: Migration[] } | null = null;

/** Termwise's own schema and migrations as SQLite holds them: what a backup must match exactly. */
export async function referenceSchema(): Promise<{ schema: SchemaObject[]; migrations: Migration[] }> {
  if (!reference) {
    const db = new Database(':memory:');
    try {
      await migrate(db);
      reference = { schema: schemaObjects(db), migrations: appliedMigrations(db) };
    } finally {
      db.close();
    }
  }
  return reference;
}

/** The migrations this version of Termwise applies, as a backup records them. */
export function currentMigrations(): Migration[] {
  return loadMigrations().map((m) => ({ version: m.version, checksum: m.checksum }));
}

/** The first row whose column holds something other than a JSON array, if any. */
export function firstNonListRow(db: SqliteHandle, table: string, column: string): number | undefined {
  return db
    .prepare<[], number>(
      `SELECT rowid FROM "${table}" WHERE "${column}" IS NOT NULL AND (json_valid("${column}") = 0 OR json_type("${column}") != 'array') LIMIT 1`,
    )
    .pluck()
    .get();
}

export function tableNames(db: SqliteHandle): string[] {
  return db.prepare<[], string>("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'").pluck().all();
}

export function tableColumns(db: SqliteHandle, table: string): { name: string; type: string }[] {
  return db.prepare<[string], { name: string; type: string }>('SELECT name, type FROM pragma_table_info(?) ORDER BY cid').all(table);
}

/** The first row whose column holds a storage class outside `classes` (text in a number column), with the class it holds. */
export function firstWrongStorage(db: SqliteHandle, table: string, column: string, classes: readonly string[]): { rowid: number; kind: string } | undefined {
  return db
    .prepare<[], { rowid: number; kind: string }>(
      `SELECT rowid AS rowid, typeof("${column}") AS kind FROM "${table}" WHERE "${column}" IS NOT NULL AND typeof("${column}") NOT IN (${classes.map((c) => `'${c}'`).join(', ')}) LIMIT 1`,
    )
    .get();
}

/** The first row whose column breaks a rule given as an SQL expression over the row. */
export function firstRowBreaking(db: SqliteHandle, table: string, column: string, holds: string): number | undefined {
  return db.prepare<[], number>(`SELECT rowid FROM "${table}" WHERE "${column}" IS NOT NULL AND NOT coalesce(${holds}, 0) LIMIT 1`).pluck().get();
}

/** The columns of a data table, in the schema's order. */
function columnsOf(handle: SqliteHandle, table: DataTable): string[] {
  return tableColumns(handle, table).map((c) => c.name);
}

/**
 * A SQLite backup of the store, as bytes. SQLite copies itself with its online backup; PostgreSQL's
 * rows are read on one snapshot into a new SQLite file of the same schema.
 */
export async function backupBytes(store: Store): Promise<Uint8Array> {
  const dir = mkdtempSync(join(tmpdir(), 'termwise-backup-'));
  try {
    const file = join(dir, 'backup.db');
    if (store.sqlite) await store.sqlite.backup(file);
    else await copyIntoSqlite(store.db, file);
    return new Uint8Array(readFileSync(file));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

async function copyIntoSqlite(db: Db, file: string): Promise<void> {
  const target = openSqliteFile(file);
  try {
    await migrate(target);
    target.pragma('journal_mode = DELETE');
    // The migrations seed rows (the first department): the copy holds exactly the store's rows.
    target.transaction(() => {
      for (const table of [...DATA_TABLES].reverse()) target.prepare(`DELETE FROM "${table}"`).run();
    })();
    await inTransaction(
      db,
      async (trx) => {
        for (const table of DATA_TABLES) {
          const columns = columnsOf(target, table);
          const insert = target.prepare(`INSERT INTO "${table}" (${columns.map((c) => `"${c}"`).join(', ')}) VALUES (${columns.map(() => '?').join(', ')})`);
          const { rows } = await sql<Record<string, unknown>>`SELECT ${sql.join(columns.map((c) => sql.ref(c)))} FROM ${sql.table(table)}`.execute(trx);
          target.transaction(() => {
            for (const row of rows) insert.run(...columns.map((c) => row[c]));
          })();
        }
      },
      { readOnly: true },
    );
  } finally {
    target.close();
  }
}

/**
 * Replaces every table's rows (the migrations' record left alone) with those of the backup file
 * at `path`, in one transaction that no other write can interleave with. `refuse` is called with
 * the first table whose rows point at rows that are not there, and must throw.
 */
export async function replaceAllRows(store: Store, path: string, refuse: (table: string) => never): Promise<Record<string, number>> {
  if (store.sqlite) {
    const handle = store.sqlite;
    // The store's one connection, held for the whole restore: no other query runs on it meanwhile.
    return store.db.connection().execute(() => Promise.resolve().then(() => replaceSqliteRows(handle, path, refuse)));
  }
  return replacePostgresRows(store.db, path, refuse);
}

function replaceSqliteRows(db: SqliteHandle, path: string, refuse: (table: string) => never): Record<string, number> {
  const counts: Record<string, number> = {};
  db.prepare('ATTACH DATABASE ? AS backup').run(path);
  try {
    db.transaction(() => {
      db.pragma('defer_foreign_keys = ON');
      for (const table of [...DATA_TABLES].reverse()) db.prepare(`DELETE FROM main."${table}"`).run();
      for (const table of DATA_TABLES) {
        const columns = columnsOf(db, table)
          .map((c) => `"${c}"`)
          .join(', ');
        counts[table] = db.prepare(`INSERT INTO main."${table}" (${columns}) SELECT ${columns} FROM backup."${table}"`).run().changes;
      }
      const broken = db.prepare<[], string>('SELECT "table" FROM pragma_foreign_key_check LIMIT 1').pluck().get();
      if (broken !== undefined) refuse(broken);
      db.prepare(ALIGN_REVISIONS_SQLITE).run();
      db.prepare(RENEW_STORE_ID_SQLITE).run(newStoreId());
    }).immediate();
  } finally {
    db.prepare('DETACH DATABASE backup').run();
  }
  return counts;
}

/** Tables whose ids the store numbers: after a restore, new rows are numbered after the restored ones. */
const NUMBERED_TABLES = [
  'departments',
  'offerings',
  'doctors',
  'models',
  'prediction_runs',
  'term_parts',
  'schedule_entries',
  'rooms',
  'term_notes',
  'people',
  'api_tokens',
  'schedule_changes',
] as const satisfies readonly DataTable[];

async function replacePostgresRows(db: Db, path: string, refuse: (table: string) => never): Promise<Record<string, number>> {
  if (!isPostgres(db)) throw new Error('replacePostgresRows needs a PostgreSQL store');
  const source = openUntrusted(path);
  try {
    return await inTransaction(db, async (trx) => {
      // Every other reader and writer waits until the restore is done (and sees all of it, or none).
      await sql`LOCK TABLE ${sql.join(DATA_TABLES.map((t) => sql.table(t)))} IN ACCESS EXCLUSIVE MODE`.execute(trx);
      for (const table of [...DATA_TABLES].reverse()) await sql`DELETE FROM ${sql.table(table)}`.execute(trx);
      const counts: Record<string, number> = {};
      for (const table of DATA_TABLES) {
        const columns = columnsOf(source, table);
        const rows = source.prepare<[], Record<string, unknown>>(`SELECT ${columns.map((c) => `"${c}"`).join(', ')} FROM "${table}" ORDER BY rowid`).all();
        try {
          await inBatches(rows, (batch) =>
            sql`INSERT INTO ${sql.table(table)} (${sql.join(columns.map((c) => sql.ref(c)))}) VALUES ${sql.join(batch.map((row) => sql`(${sql.join(columns.map((c) => row[c]))})`))}`.execute(
              trx,
            ),
          );
        } catch (error) {
          // A row pointing at a row that is not in the backup.
          if ((error as { code?: unknown }).code === '23503') refuse(table);
          throw error;
        }
        counts[table] = rows.length;
      }
      for (const table of NUMBERED_TABLES) {
        await sql`SELECT setval(pg_get_serial_sequence(${table}, 'id'), COALESCE((SELECT MAX(id) FROM ${sql.table(table)}), 0) + 1, false)`.execute(trx);
      }
      await alignTermRevisions(trx);
      await renewStoreId(trx);
      return counts;
    });
  } finally {
    source.close();
  }
}
