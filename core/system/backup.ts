import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import type { CoreContext } from '../context';
import { CoreError, invalid } from '../domain/errors';
import type { UploadedFile } from '../import/files';
import type { FileResult } from '../domain/file-result';
import { forgetLoadedModels } from '../predict/service';
import { checkStoredModels } from '../predict/model-check';
import { echo } from '../domain/bounds';

/** A consistent copy of the live database (SQLite online backup). */
export async function backupDatabase(ctx: CoreContext): Promise<FileResult> {
  const dir = mkdtempSync(join(tmpdir(), 'termwise-backup-'));
  try {
    const file = join(dir, 'backup.db');
    await ctx.db.backup(file);
    const stamp = ctx.now().toISOString().slice(0, 10);
    return { filename: `termwise-backup-${stamp}.db`, contentType: 'application/vnd.sqlite3', content: new Uint8Array(readFileSync(file)) };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

interface SchemaObject {
  type: string;
  name: string;
  tbl_name: string;
  sql: string | null;
}

type Migration = { version: number; checksum: string };

/** Columns that hold JSON-array text, checked in a backup before it replaces anything. */
const JSON_LIST_COLUMNS: readonly [table: string, column: string][] = [
  ['courses', 'prerequisites'],
  ['doctors', 'allowed_courses'],
  ['models', 'features'],
  ['prediction_entries', 'types'],
  ['prediction_entries', 'reasons'],
];

const SCHEMA_SQL = "SELECT type, name, tbl_name, sql FROM sqlite_master WHERE name NOT LIKE 'sqlite_%' ORDER BY type, name";
const MIGRATIONS_SQL = 'SELECT version, checksum FROM schema_migrations ORDER BY version';

function schemaKey(objects: readonly SchemaObject[]): string {
  return JSON.stringify(objects.map((o) => [o.type, o.name, o.tbl_name, o.sql]));
}

/** Opens the uploaded file read-only and checks it is a backup of this very schema, with sound contents. */
async function inspectBackup(ctx: CoreContext, path: string, filename: string): Promise<void> {
  const name = `"${echo(filename)}"`;
  let probe: Database.Database;
  try {
    probe = new Database(path, { readonly: true, fileMustExist: true });
  } catch {
    throw invalid(`${name} is not a Termwise database backup`);
  }
  try {
    // Nothing in the uploaded file may run code of its own: no functions in its schema are trusted.
    probe.pragma('trusted_schema = OFF');
    let theirs: SchemaObject[];
    let migrations: Migration[];
    try {
      theirs = probe.prepare<[], SchemaObject>(SCHEMA_SQL).all();
      migrations = probe.prepare<[], Migration>(MIGRATIONS_SQL).all();
    } catch {
      throw invalid(`${name} is not a Termwise database backup`);
    }
    const ours = ctx.db.prepare<[], SchemaObject>(SCHEMA_SQL).all();
    const ourMigrations = ctx.db.prepare<[], Migration>(MIGRATIONS_SQL).all();
    if (JSON.stringify(migrations) !== JSON.stringify(ourMigrations)) {
      throw invalid(`${name} was made by a different version of Termwise (schema ${migrations.length} vs ${ourMigrations.length}); it cannot be restored here`);
    }
    const extra = theirs.filter((o) => o.type === 'view' || o.type === 'trigger');
    if (extra.length > 0) throw invalid(`${name} is not a plain Termwise backup: it contains a ${extra[0]?.type} ("${echo(extra[0]?.name ?? '', 60)}")`);
    if (schemaKey(theirs) !== schemaKey(ours)) throw invalid(`${name} does not have Termwise's tables exactly (a table or column is missing, added or changed); it cannot be restored`);
    const check = probe.pragma('quick_check', { simple: true });
    if (check !== 'ok') throw invalid(`${name} is damaged (${echo(String(check), 100)})`);
    for (const [table, column] of JSON_LIST_COLUMNS) {
      const bad = probe.prepare<[], { rowid: number }>(`SELECT rowid AS rowid FROM "${table}" WHERE "${column}" IS NOT NULL AND (json_valid("${column}") = 0 OR json_type("${column}") != 'array') LIMIT 1`).get();
      if (bad) throw invalid(`${name} has unreadable data: ${table}.${column} of row ${bad.rowid} is not a list`);
    }
  } finally {
    probe.close();
  }
  const damaged = await checkStoredModels(path, filename);
  if (damaged.length > 0) throw invalid(`${name} has a damaged trained model (${damaged.map((m) => `${m.campus} ${m.model_version}`.slice(0, 80)).join(', ')}); it cannot be restored`);
}

function columnsOf(ctx: CoreContext, table: string): string {
  return ctx.db
    .prepare<[string], string>('SELECT name FROM pragma_table_info(?) ORDER BY cid')
    .pluck()
    .all(table)
    .map((c) => `"${c}"`)
    .join(', ');
}

/**
 * Replaces every table's rows with those of a backup made by this version of Termwise, in one
 * transaction. Only a file with exactly Termwise's schema (no views or triggers) and sound
 * contents is accepted; one that breaks a constraint changes nothing.
 */
export async function restoreDatabase(ctx: CoreContext, file: UploadedFile): Promise<{ status: 'restored'; tables: Record<string, number> }> {
  const dir = mkdtempSync(join(tmpdir(), 'termwise-restore-'));
  const path = join(dir, 'restore.db');
  try {
    writeFileSync(path, file.content, { mode: 0o600 });
    await inspectBackup(ctx, path, file.filename);
    const tables = ctx.db
      .prepare<[], string>("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' AND name != 'schema_migrations' ORDER BY rowid")
      .pluck()
      .all();
    const counts: Record<string, number> = {};
    ctx.db.prepare('ATTACH DATABASE ? AS backup').run(path);
    try {
      ctx.db.transaction(() => {
        ctx.db.pragma('defer_foreign_keys = ON');
        for (const table of [...tables].reverse()) ctx.db.prepare(`DELETE FROM main."${table}"`).run();
        for (const table of tables) {
          const columns = columnsOf(ctx, table);
          counts[table] = ctx.db.prepare(`INSERT INTO main."${table}" (${columns}) SELECT ${columns} FROM backup."${table}"`).run().changes;
        }
        const broken = ctx.db.prepare<[], { table: string }>('SELECT "table" FROM pragma_foreign_key_check LIMIT 1').get();
        if (broken) throw invalid(`"${echo(file.filename)}" refers to rows that are not in it (table ${broken.table}); it cannot be restored`);
      })();
    } catch (error) {
      if (error instanceof CoreError) throw error;
      const code = (error as { code?: unknown }).code;
      if (typeof code === 'string' && code.startsWith('SQLITE_CONSTRAINT')) {
        throw invalid(`"${echo(file.filename)}" breaks a rule of Termwise's data (${echo(error instanceof Error ? error.message : code, 120)}); nothing was restored`);
      }
      throw error;
    } finally {
      ctx.db.prepare('DETACH DATABASE backup').run();
    }
    forgetLoadedModels(ctx.db);
    return { status: 'restored', tables: counts };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
