import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openSqliteFile as openDatabase, type SqliteHandle as Db } from '../../core/db/sqlite-store';
import { loadMigrations, migrate, MigrationError, type Migration } from '../../core/db/migrate';
import { createCore } from '../../core/index';
import { loadApiToken, tokensMatch } from '../../core/http/token';
import { defaultDataDir } from '../../core/config';

let dir: string;
let db: Db;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'termwise-migrate-'));
  db = openDatabase(join(dir, 'test.db'));
});
afterEach(() => {
  db.close();
  rmSync(dir, { recursive: true, force: true });
});

const m = (version: number, sql: string): Migration => ({ version, name: `${String(version).padStart(4, '0')}_test.sql`, sql, checksum: `sum-${sql}` });

describe('database', () => {
  it('opens with WAL, foreign keys and a busy timeout', () => {
    expect(db.pragma('journal_mode', { simple: true })).toBe('wal');
    expect(db.pragma('foreign_keys', { simple: true })).toBe(1);
    expect(db.pragma('busy_timeout', { simple: true })).toBe(5000);
  });

  it('applies the shipped migrations in order, once', async () => {
    const shipped = loadMigrations();
    expect(shipped.map((x) => x.version)).toEqual([...shipped.map((x) => x.version)].sort((a, b) => a - b));
    expect(await migrate(db)).toEqual(shipped.map((x) => x.version));
    expect(await migrate(db)).toEqual([]);
    const tables = db.prepare("SELECT name FROM sqlite_master WHERE type = 'table'").all() as { name: string }[];
    expect(tables.map((t) => t.name)).toEqual(expect.arrayContaining(['courses', 'offerings', 'doctors', 'schema_migrations']));
  });

  it('refuses an applied migration that was edited, naming it', async () => {
    await migrate(db, [m(1, 'CREATE TABLE a (x INTEGER);')]);
    await expect(migrate(db, [m(1, 'CREATE TABLE a (x TEXT);')])).rejects.toThrowError(MigrationError);
    await expect(migrate(db, [m(1, 'CREATE TABLE a (x TEXT);')])).rejects.toThrowError(/0001_test\.sql was changed after it was applied/);
  });

  it('rolls a failing migration back whole and keeps the earlier ones', async () => {
    await expect(migrate(db, [m(1, 'CREATE TABLE a (x INTEGER);'), m(2, 'CREATE TABLE b (y INTEGER); INSERT INTO missing VALUES (1);')])).rejects.toThrow();
    const tables = (db.prepare("SELECT name FROM sqlite_master WHERE type = 'table'").all() as { name: string }[]).map((t) => t.name);
    expect(tables).toContain('a');
    expect(tables).not.toContain('b');
    expect(db.prepare('SELECT version FROM schema_migrations').all()).toEqual([{ version: 1 }]);
  });

  it('createCore refuses to open a database whose applied migration was edited', async () => {
    const coreDir = join(dir, 'core');
    await (await createCore({ dataDir: coreDir })).close();
    const raw = openDatabase(join(coreDir, 'termwise.db'));
    raw.prepare("UPDATE schema_migrations SET checksum = 'tampered' WHERE version = 1").run();
    raw.close();
    await expect(createCore({ dataDir: coreDir })).rejects.toThrowError(/was changed after it was applied/);
  });
});

describe('API token and data folder', () => {
  it('generates a 32-byte hex token on first start, keeps it with mode 0600, and reuses it', () => {
    const first = loadApiToken(dir, {});
    expect(first.token).toMatch(/^[0-9a-f]{64}$/);
    expect(first.source).toBe(join(dir, 'api-token'));
    expect(statSync(join(dir, 'api-token')).mode & 0o777).toBe(0o600);
    expect(loadApiToken(dir, {}).token).toBe(first.token);
  });

  it('prefers TERMWISE_API_TOKEN', () => {
    const fromEnv = 'from-env-0123456789abcdef0123456789';
    expect(loadApiToken(dir, { TERMWISE_API_TOKEN: fromEnv })).toEqual({ token: fromEnv, source: expect.stringContaining('TERMWISE_API_TOKEN') as string });
  });

  it('compares tokens exactly', () => {
    expect(tokensMatch('abc', 'abc')).toBe(true);
    expect(tokensMatch('abc', 'abd')).toBe(false);
    expect(tokensMatch('abc', 'abcd')).toBe(false);
  });

  it('uses TERMWISE_DATA_DIR, else the platform application-data folder', () => {
    expect(defaultDataDir({ TERMWISE_DATA_DIR: '/x/y' }, 'linux')).toBe('/x/y');
    expect(defaultDataDir({ XDG_CONFIG_HOME: '/cfg' }, 'linux')).toBe('/cfg/Termwise');
    expect(defaultDataDir({ APPDATA: 'C:\\Users\\a\\AppData\\Roaming' }, 'win32')).toMatch(/Roaming.Termwise$/);
    expect(defaultDataDir({}, 'darwin')).toMatch(/Library\/Application Support\/Termwise$/);
  });
});

describe('timetables from before terms (migration 0005)', () => {
  it('keeps every entry, puts it in the current term with its doctor and campus, and the old contract still answers', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'termwise-v4-'));
    try {
      const old = openDatabase(join(dataDir, 'termwise.db'));
      await migrate(
        old,
        loadMigrations().filter((x) => x.version <= 4),
      );
      old.exec(`
        INSERT INTO doctors (id, name, name_key, allowed_courses) VALUES (7, 'Dr. Old', 'dr. old', '["CSC201"]');
        INSERT INTO rooms (name, name_key, capacity, campus) VALUES ('J-1', 'j-1', 30, 'Byblos');
        INSERT INTO offerings (year, semester, campus, course_code, total_enrolled, passed_count, failed_count, is_offered, created_at)
          VALUES (2024, 'Fall', 'Beirut', 'CSC201', 30, 25, 5, 1, '2024-01-01');
        INSERT INTO schedule_entries (course_code, section_name, doctor_id, day, start_time, start_min, duration_mins, room, room_key, created_at) VALUES
          ('CSC201', '1', 7, 'MWF', '09:00', 540, 60, 'J-1', 'j-1', '2024-01-01'),
          ('CSC201', '2', NULL, 'TR', '11:00', 660, 90, 'TBD', NULL, '2024-01-01');`);
      old.close();

      const core = await createCore({ dataDir });
      try {
        const entries = await core.run('schedule-list', {});
        expect(entries.map((e) => [e.section_name, e.year, e.semester, e.doctor_id, e.doctor_ids, e.campus, e.part_of_term, e.joint_group])).toEqual([
          ['1', 2025, 'Spring', 7, [7], 'Byblos', '1', null],
          ['2', 2025, 'Spring', null, [], 'Beirut', '1', null],
        ]);
        expect(entries[0]).toMatchObject({
          course_code: 'CSC201',
          day: 'MWF',
          start_time: '09:00',
          duration_mins: 60,
          room: 'J-1',
          doctor: { id: 7, name: 'Dr. Old' },
        });
        // The term they joined stays the current one.
        expect(await core.run('schedule-settings', {})).toMatchObject({ current_term: { year: 2025, semester: 'Spring' }, current_term_chosen: true });
        // The old rules still hold on the migrated entries.
        await expect(
          core.run('schedule-create', {
            course_code: 'CSC202',
            section_name: '1',
            doctor_id: 7,
            day: 'M',
            start_time: '09:30',
            duration_mins: 60,
            room: 'TBD',
          }),
        ).rejects.toMatchObject({ code: 'conflict' });
        // Deleting the doctor unassigns the meeting, as before.
        await core.context.db.deleteFrom('doctors').where('id', '=', 7).execute();
        expect((await core.run('schedule-list', {}))[0]).toMatchObject({ doctor_id: null, doctor: null, doctor_ids: [] });
      } finally {
        await core.close();
      }
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});

describe('a row that forgets its department (migration 0021)', () => {
  it('is refused after the rebuild, and the rows that point at the rebuilt tables are all kept', async () => {
    await migrate(
      db,
      loadMigrations().filter((x) => x.version <= 20),
    );
    db.exec(`
      INSERT INTO doctors (id, name, name_key) VALUES (7, 'Dr. Kept', 'dr. kept');
      INSERT INTO schedule_entries (id, year, semester, course_code, section_name, day, start_time, start_min, duration_mins, created_at, department_id)
        VALUES (1, 2025, 'Spring', 'CSC201', '1', 'MWF', '09:00', 540, 60, '2025-01-01', 1);
      INSERT INTO schedule_entry_doctors (entry_id, doctor_id, position) VALUES (1, 7, 0);
      INSERT INTO schedule_entry_locks (entry_id, locked_at) VALUES (1, '2025-01-02');
      INSERT INTO prediction_runs (id, run_name, target_year, target_semester, target_campus, model_version, created_at, parameters, department_id)
        VALUES (3, 'Plan', 2025, 'Fall', 'Main', 'v1', '2025-01-01', '{}', 1);
      INSERT INTO prediction_entries (run_id, position, course_code, course_name, prefix, types, confidence, offer_score, offer,
        predicted_enrollment, latent_demand, bottleneck_score, projected_sections, reasons)
        VALUES (3, 0, 'CSC201', 'Intro', 'CSC', '[]', 0.9, 0.9, 1, 30, 0, 0, 1, '[]');`);
    expect((await migrate(db)).length).toBeGreaterThan(0);
    const count = (table: string): number => (db.prepare(`SELECT COUNT(*) AS n FROM ${table}`).get() as { n: number }).n;
    expect([count('schedule_entry_doctors'), count('schedule_entry_locks'), count('prediction_entries')]).toEqual([1, 1, 1]);
    expect(db.pragma('foreign_keys', { simple: true })).toBe(1);
    expect(() =>
      db
        .prepare(
          "INSERT INTO schedule_entries (year, semester, course_code, section_name, day, start_time, start_min, duration_mins, created_at) VALUES (2025, 'Spring', 'X1', '1', 'M', '09:00', 540, 60, '2025-01-01')",
        )
        .run(),
    ).toThrowError(/NOT NULL constraint failed: schedule_entries\.department_id/);
    expect(() => db.prepare("INSERT INTO settings (key, value) VALUES ('k', 'v')").run()).toThrowError(/NOT NULL constraint failed: settings\.department_id/);
  });

  it('a migration that leaves a row pointing at nothing is refused whole', async () => {
    await expect(
      migrate(db, [m(1, 'CREATE TABLE p (id INTEGER PRIMARY KEY); CREATE TABLE c (p_id INTEGER REFERENCES p (id)); INSERT INTO c VALUES (9);')]),
    ).rejects.toThrowError(/0001_test\.sql leaves 1 row\(s\) of c pointing at no p row/);
    expect(db.prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND name IN ('p', 'c')").all()).toEqual([]);
  });
});
