import Database from 'better-sqlite3';
import type { Db } from '../db/connection';

/** The whole-database reads and writes of backup and restore: schema, migrations and every table's rows. */

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
export function openUntrusted(path: string): Database.Database {
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
export function quickCheck(db: Database.Database): string {
  return String(db.pragma('quick_check', { simple: true }));
}

/** A database's tables, views, indexes and triggers (SQLite's own left out), in a stable order. */
export function schemaObjects(db: Database.Database): SchemaObject[] {
  return db.prepare<[], SchemaObject>("SELECT type, name, tbl_name, sql FROM sqlite_master WHERE name NOT LIKE 'sqlite_%' ORDER BY type, name").all();
}

export function appliedMigrations(db: Database.Database): Migration[] {
  return db.prepare<[], Migration>('SELECT version, checksum FROM schema_migrations ORDER BY version').all();
}

/** The first row whose column holds something other than a JSON array, if any. */
export function firstNonListRow(db: Database.Database, table: string, column: string): number | undefined {
  return db.prepare<[], number>(`SELECT rowid FROM "${table}" WHERE "${column}" IS NOT NULL AND (json_valid("${column}") = 0 OR json_type("${column}") != 'array') LIMIT 1`).pluck().get();
}

export function tableNames(db: Database.Database): string[] {
  return db.prepare<[], string>("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'").pluck().all();
}

export function tableColumns(db: Database.Database, table: string): { name: string; type: string }[] {
  return db.prepare<[string], { name: string; type: string }>('SELECT name, type FROM pragma_table_info(?) ORDER BY cid').all(table);
}

/** The first row whose column holds a storage class outside `classes` (text in a number column), with the class it holds. */
export function firstWrongStorage(db: Database.Database, table: string, column: string, classes: readonly string[]): { rowid: number; kind: string } | undefined {
  return db
    .prepare<[], { rowid: number; kind: string }>(`SELECT rowid AS rowid, typeof("${column}") AS kind FROM "${table}" WHERE "${column}" IS NOT NULL AND typeof("${column}") NOT IN (${classes.map((c) => `'${c}'`).join(', ')}) LIMIT 1`)
    .get();
}

/** The first row whose column breaks a rule given as an SQL expression over the row. */
export function firstRowBreaking(db: Database.Database, table: string, column: string, holds: string): number | undefined {
  return db.prepare<[], number>(`SELECT rowid FROM "${table}" WHERE "${column}" IS NOT NULL AND NOT coalesce(${holds}, 0) LIMIT 1`).pluck().get();
}

/**
 * Replaces every table's rows (the migrations' record left alone) with those of the database file
 * at `path`, in one transaction with foreign keys checked at the end. `refuse` is called with the
 * first table whose rows point at rows that are not there, and must throw.
 */
export function replaceAllRows(db: Db, path: string, refuse: (table: string) => never): Record<string, number> {
  const tables = db.prepare<[], string>("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' AND name != 'schema_migrations' ORDER BY rowid").pluck().all();
  const counts: Record<string, number> = {};
  db.prepare('ATTACH DATABASE ? AS backup').run(path);
  try {
    db.transaction(() => {
      db.pragma('defer_foreign_keys = ON');
      for (const table of [...tables].reverse()) db.prepare(`DELETE FROM main."${table}"`).run();
      for (const table of tables) {
        const columns = tableColumns(db, table)
          .map((c) => `"${c.name}"`)
          .join(', ');
        counts[table] = db.prepare(`INSERT INTO main."${table}" (${columns}) SELECT ${columns} FROM backup."${table}"`).run().changes;
      }
      const broken = db.prepare<[], string>('SELECT "table" FROM pragma_foreign_key_check LIMIT 1').pluck().get();
      if (broken !== undefined) refuse(broken);
    })();
  } finally {
    db.prepare('DETACH DATABASE backup').run();
  }
  return counts;
}
