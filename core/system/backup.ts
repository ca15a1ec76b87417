import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import type { CoreContext } from '../context';
import { invalid } from '../errors';
import type { UploadedFile } from '../import/files';
import type { FileResult } from '../http/file-result';

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

/**
 * Replaces every table's rows with those of a backup made by this version of Termwise, in one
 * transaction: a backup from another schema version, or a file that is not one, changes nothing.
 */
export function restoreDatabase(ctx: CoreContext, file: UploadedFile): { status: 'restored'; tables: Record<string, number> } {
  const dir = mkdtempSync(join(tmpdir(), 'termwise-restore-'));
  const path = join(dir, 'restore.db');
  try {
    writeFileSync(path, file.content);
    let theirs: { version: number; checksum: string }[];
    try {
      const probe = new Database(path, { readonly: true, fileMustExist: true });
      try {
        theirs = probe.prepare<[], { version: number; checksum: string }>('SELECT version, checksum FROM schema_migrations ORDER BY version').all();
      } finally {
        probe.close();
      }
    } catch {
      throw invalid(`"${file.filename}" is not a Termwise database backup`);
    }
    const ours = ctx.db.prepare<[], { version: number; checksum: string }>('SELECT version, checksum FROM schema_migrations ORDER BY version').all();
    if (JSON.stringify(theirs) !== JSON.stringify(ours)) {
      throw invalid(`"${file.filename}" was made by a different version of Termwise (schema ${theirs.length} vs ${ours.length}); it cannot be restored here`);
    }
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
        for (const table of tables) counts[table] = ctx.db.prepare(`INSERT INTO main."${table}" SELECT * FROM backup."${table}"`).run().changes;
      })();
    } finally {
      ctx.db.prepare('DETACH DATABASE backup').run();
    }
    return { status: 'restored', tables: counts };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
