import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import pg from 'pg';
import { afterEach, describe, expect, it } from 'vitest';
import { loadMigrations } from '../../core/db/migrate';
import { createCore, type Core } from '../../core/index';
import { tableHashes } from '../helpers/table-hashes';
import { TEST_STORE, testDatabase } from '../helpers/test-store';

/**
 * A database Termwise migrated before Kysely's Migrator kept its own record (kysely_migration): its
 * schema and rows as the earlier runner left them (every migration in schema_migrations, no Migrator
 * tables). Opened by this version, it loses nothing and applies nothing again.
 */
describe(`a database migrated before Kysely's Migrator (${TEST_STORE})`, () => {
  const cleanUps: (() => Promise<void>)[] = [];
  afterEach(async () => {
    for (const cleanUp of cleanUps.splice(0).reverse()) await cleanUp();
  });

  async function openCore(dataDir: string, databaseUrl: string | undefined): Promise<Core> {
    const core = await createCore({ dataDir, databaseUrl });
    cleanUps.push(() => core.close());
    return core;
  }

  /** Runs SQL on the store as it lies, outside Termwise. */
  async function onStore(dataDir: string, databaseUrl: string | undefined, statements: string): Promise<void> {
    if (databaseUrl) {
      const client = new pg.Client({ connectionString: databaseUrl });
      await client.connect();
      await client.query(statements).finally(() => client.end());
      return;
    }
    const db = new Database(join(dataDir, 'termwise.db'));
    db.exec(statements);
    db.close();
  }

  it('keeps every row, records each migration once in the Migrator, and runs none again', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'termwise-existing-'));
    const database = await testDatabase();
    cleanUps.push(async () => {
      await database.drop();
      rmSync(dataDir, { recursive: true, force: true });
    });
    const first = await openCore(dataDir, database.databaseUrl);
    await first.run('schedule-parts-save', { year: 2026, semester: 'Fall', code: 'A', name: 'First half', start_date: '2026-09-01', end_date: '2026-10-20' });
    for (const [section, day, start] of [
      ['1', 'MWF', '09:00'],
      ['2', 'TR', '11:00'],
    ] as const)
      await first.run('schedule-create', {
        year: 2026,
        semester: 'Fall',
        course_code: 'CSC201',
        section_name: section,
        doctor_id: 0,
        day,
        start_time: start,
        duration_mins: 60,
        room: 'J-1',
      });
    const entries = await first.run('schedule-list', { year: 2026, semester: 'Fall' });
    const before = await tableHashes(first.context.db);
    await first.close();
    cleanUps.pop();
    // As the earlier runner left it: no Migrator tables.
    await onStore(dataDir, database.databaseUrl, 'DROP TABLE kysely_migration; DROP TABLE kysely_migration_lock;');

    const second = await openCore(dataDir, database.databaseUrl);
    expect(await tableHashes(second.context.db)).toEqual(before);
    expect(await second.run('schedule-list', { year: 2026, semester: 'Fall' })).toEqual(entries);
    const recorded = await second.context.db.selectFrom('kysely_migration').select('name').orderBy('name').execute();
    expect(recorded.map((row) => row.name)).toEqual(loadMigrations().map((m) => m.name.replace(/\.sql$/, '')));
    // Writes go on as before.
    await second.run('schedule-create', {
      year: 2026,
      semester: 'Fall',
      course_code: 'CSC202',
      section_name: '1',
      doctor_id: 0,
      day: 'M',
      start_time: '14:00',
      duration_mins: 60,
      room: 'J-1',
    });
    await second.close();
    cleanUps.pop();

    const third = await openCore(dataDir, database.databaseUrl);
    expect(await third.context.db.selectFrom('schema_migrations').select('version').execute()).toHaveLength(loadMigrations().length);
    expect(await third.context.db.selectFrom('kysely_migration').select('name').execute()).toHaveLength(loadMigrations().length);
    expect((await third.run('schedule-list', { year: 2026, semester: 'Fall' })).map((e) => e.course_code)).toEqual(['CSC201', 'CSC201', 'CSC202']);
  });
});
