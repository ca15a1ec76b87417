import { copyFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { inject } from 'vitest';
import { DATABASE_FILE } from '../../core/db/files';
import { openStore } from '../../core/db/store';
import { createDatabase } from './postgres';
import { pooledDatabase } from './postgres-pool';

/** The store this test run exercises: TERMWISE_TEST_STORE=postgres (the PostgreSQL project), else SQLite. */
export const TEST_STORE: 'sqlite' | 'postgres' = process.env.TERMWISE_TEST_STORE === 'postgres' ? 'postgres' : 'sqlite';

/**
 * Where a test core keeps its data: SQLite in its data folder (databaseUrl undefined), or a
 * database of its own on the run's PostgreSQL server, as the template made it (on the run's
 * throwaway server, one an earlier test gave back emptied: test/helpers/postgres-pool.ts). `drop`
 * gives it back. Given the test's empty data folder, SQLite's file is put there migrated already
 * (see sqliteTemplate), as PostgreSQL's come from a migrated template.
 */
export async function testDatabase(dataDir?: string): Promise<{ databaseUrl: string | undefined; drop: () => Promise<void> }> {
  if (TEST_STORE === 'sqlite') {
    if (dataDir !== undefined) copySqliteTemplate(await sqliteTemplate(), join(dataDir, DATABASE_FILE));
    return { databaseUrl: undefined, drop: async () => {} };
  }
  const [adminUrl, template] = [inject('postgresAdminUrl'), inject('postgresTemplate')];
  const database = inject('postgresThrowaway') ? await pooledDatabase(adminUrl, template) : await createDatabase(adminUrl, template);
  return { databaseUrl: database.url, drop: database.drop };
}

let template: Promise<string> | null = null;

/**
 * An empty SQLite database with every migration applied, made once per test process: a copy of it
 * opens in a millisecond where migrating a new file took about 28 ms of each test's start.
 */
function sqliteTemplate(): Promise<string> {
  template ??= (async () => {
    const dir = mkdtempSync(join(tmpdir(), 'termwise-sqlite-template-'));
    process.once('exit', () => rmSync(dir, { recursive: true, force: true }));
    const file = join(dir, DATABASE_FILE);
    await (await openStore({ kind: 'sqlite', file }, { migrate: true })).close();
    // Every page written back from the log into the file, so the file alone is the whole database.
    const db = new Database(file);
    try {
      db.pragma('wal_checkpoint(TRUNCATE)');
    } finally {
      db.close();
    }
    return file;
  })();
  return template;
}

/** The template copied to `file`, with a store identity of its own (each store names itself to the laptops that sync with it). */
function copySqliteTemplate(from: string, file: string): void {
  copyFileSync(from, file);
  const db = new Database(file);
  try {
    db.prepare('UPDATE store_identity SET store_id = lower(hex(randomblob(16)))').run();
  } finally {
    db.close();
  }
}
