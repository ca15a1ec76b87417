import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import pg from 'pg';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { migrate } from '../../core/db/migrate';
import { DATA_TABLES } from '../../core/db/tables';
import { createCore, type Core } from '../../core/index';
import { buildServer } from '../../core/http/server';
import { createDatabase } from '../helpers/postgres';
import { tableHashes } from '../helpers/table-hashes';
import { saveRun } from '../helpers/runs';

/** A column as both stores describe it: name, whether it may be null, and the kind of value it holds. */
type Column = [name: string, nullable: boolean, kind: string];

const SQLITE_KINDS: Record<string, string> = { INTEGER: 'whole number', REAL: 'number', TEXT: 'text', BLOB: 'bytes' };
const POSTGRES_KINDS: Record<string, string> = { integer: 'whole number', 'double precision': 'number', text: 'text', bytea: 'bytes' };

async function sqliteSchema(): Promise<Map<string, { columns: Column[]; unique: string[] }>> {
  const db = new Database(':memory:');
  try {
    await migrate(db);
    const tables = new Map<string, { columns: Column[]; unique: string[] }>();
    for (const table of [...DATA_TABLES, 'schema_migrations']) {
      const info = db
        .prepare<[string], { name: string; type: string; notnull: number; pk: number }>(
          'SELECT name, type, "notnull", pk FROM pragma_table_info(?) ORDER BY name',
        )
        .all(table);
      const keys = info.filter((c) => c.pk > 0).map((c) => c.name);
      const columns = info.map((c): Column => [c.name, c.notnull === 0 && c.pk === 0, SQLITE_KINDS[c.type] ?? c.type]);
      const indexes = db
        .prepare<[string], { name: string; unique: number; partial: number }>('SELECT name, "unique", partial FROM pragma_index_list(?)')
        .all(table);
      const unique = indexes
        .filter((i) => i.unique === 1)
        .map((i) =>
          db
            .prepare<[string], { name: string | null }>('SELECT name FROM pragma_index_info(?) ORDER BY seqno')
            .all(i.name)
            .map((c) => c.name ?? '(expression)')
            .join(','),
        );
      if (keys.length > 0) unique.push([...keys].sort().join(','));
      tables.set(table, { columns, unique: [...new Set(unique.map((u) => u.split(',').sort().join(',')))].sort() });
    }
    return tables;
  } finally {
    db.close();
  }
}

async function postgresSchema(url: string): Promise<Map<string, { columns: Column[]; unique: string[] }>> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const tables = new Map<string, { columns: Column[]; unique: string[] }>();
    for (const table of [...DATA_TABLES, 'schema_migrations']) {
      const { rows } = await client.query<{ column_name: string; is_nullable: string; data_type: string }>(
        'SELECT column_name, is_nullable, data_type FROM information_schema.columns WHERE table_name = $1 ORDER BY column_name',
        [table],
      );
      const columns = rows.map((c): Column => [c.column_name, c.is_nullable === 'YES', POSTGRES_KINDS[c.data_type] ?? c.data_type]);
      const indexes = await client.query<{ columns: string }>(
        `SELECT string_agg(COALESCE(a.attname, '(expression)'), ',' ORDER BY k.ord) AS columns
         FROM pg_index i JOIN pg_class t ON t.oid = i.indrelid
         CROSS JOIN LATERAL unnest(i.indkey) WITH ORDINALITY AS k(attnum, ord)
         LEFT JOIN pg_attribute a ON a.attrelid = t.oid AND a.attnum = k.attnum AND k.attnum > 0
         WHERE t.relname = $1 AND i.indisunique GROUP BY i.indexrelid`,
        [table],
      );
      tables.set(table, { columns, unique: [...new Set(indexes.rows.map((r) => r.columns.split(',').sort().join(',')))].sort() });
    }
    return tables;
  } finally {
    await client.end();
  }
}

describe('the two stores', () => {
  it('hold the same tables, columns, kinds of values, nullability and unique keys (the SQLite migrations and the PostgreSQL baseline agree)', async () => {
    const database = await createDatabase(inject('postgresAdminUrl'), inject('postgresTemplate'));
    try {
      const sqlite = await sqliteSchema();
      const postgres = await postgresSchema(database.url);
      expect(Object.fromEntries(postgres)).toEqual(Object.fromEntries(sqlite));
      // The comparison sees what it compares: every table has columns and a key.
      for (const [table, schema] of sqlite) {
        expect(schema.columns.length, table).toBeGreaterThan(1);
        expect(schema.unique.length, table).toBeGreaterThan(0);
      }
      // A row that forgets its department fails on both stores: no department_id has a default.
      const sqliteDb = new Database(':memory:');
      await migrate(sqliteDb);
      const sqliteDefaults = DATA_TABLES.filter(
        (table) =>
          sqliteDb.prepare<[string], { dflt_value: string | null }>("SELECT dflt_value FROM pragma_table_info(?) WHERE name = 'department_id'").get(table)
            ?.dflt_value != null,
      );
      sqliteDb.close();
      const client = new pg.Client({ connectionString: database.url });
      await client.connect();
      const postgresDefaults = await client.query<{ table_name: string }>(
        "SELECT table_name FROM information_schema.columns WHERE column_name = 'department_id' AND column_default IS NOT NULL",
      );
      await client.end();
      expect({ sqlite: sqliteDefaults, postgres: postgresDefaults.rows.map((r) => r.table_name) }).toEqual({ sqlite: [], postgres: [] });
    } finally {
      await database.drop();
    }
  });
});

describe('a backup taken on one store restores on the other', () => {
  const TOKEN = 'stores-test-token-0123456789abcdef0123456789ab';
  const made: { core: Core; close: () => Promise<void> }[] = [];

  async function server(databaseUrl?: string): Promise<{ core: Core; url: string }> {
    const dataDir = mkdtempSync(join(tmpdir(), 'termwise-stores-'));
    const database = databaseUrl === undefined ? null : await createDatabase(inject('postgresAdminUrl'), inject('postgresTemplate'));
    const core = await createCore({ dataDir, databaseUrl: database?.url });
    const app = await buildServer({ core, token: TOKEN });
    await app.listen({ host: '127.0.0.1', port: 0 });
    const address = app.server.address();
    made.push({
      core,
      close: async () => {
        await app.close();
        await core.close();
        await database?.drop();
        rmSync(dataDir, { recursive: true, force: true });
      },
    });
    return { core, url: `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}` };
  }

  const bearer = { authorization: `Bearer ${TOKEN}` };

  async function backup(url: string): Promise<Uint8Array> {
    const response = await fetch(`${url}/data/backup`, { headers: bearer });
    expect(response.status).toBe(200);
    return new Uint8Array(await response.arrayBuffer());
  }

  async function restore(url: string, bytes: Uint8Array): Promise<void> {
    const form = new FormData();
    form.append('file', new Blob([Buffer.from(bytes)]), 'backup.db');
    const response = await fetch(`${url}/data/restore`, { method: 'POST', headers: bearer, body: form });
    expect(response.status, await response.clone().text()).toBe(200);
  }

  /** Every data table's rows, in any order (the migrations' own record aside). */
  async function rows(core: Core): Promise<Record<string, string>> {
    const hashes = await tableHashes(core.context.db);
    return Object.fromEntries(DATA_TABLES.map((t) => [t, hashes[t] ?? '']));
  }

  let laptop: { core: Core; url: string };
  let campus: { core: Core; url: string };

  beforeAll(async () => {
    laptop = await server();
    campus = await server('postgres');
    await laptop.core.run('sample-load', {});
    await laptop.core.run('predict-train', {});
    await laptop.core.run('predict-bulk', { run_name: 'Spring plan', target_year: 2025, target_semester: 'Spring', target_campus: 'Beirut' });
    await saveRun(laptop.core.context.db, 'Byblos', [{ code: 'CSC201', enrollment: 45, sections: 2 }]);
    await laptop.core.run('schedule-parts-save', {
      year: 2025,
      semester: 'Summer',
      code: 'S1',
      name: 'Summer I',
      start_date: '2025-06-02',
      end_date: '2025-07-04',
    });
    const doctor = (await laptop.core.run('doctors-list', {}))[0];
    await laptop.core.run('schedule-create', {
      year: 2025,
      semester: 'Summer',
      course_code: 'CSC201',
      section_name: '1',
      doctors: doctor ? [{ id: doctor.id }] : [],
      day: 'MW',
      start_time: '09:00',
      duration_mins: 90,
      room: 'Hall 1',
      part_of_term: 'S1',
    });
    await laptop.core.run('predict-term-note-add', { year: 2025, semester: 'Fall', kind: 'course_new', course_code: 'CSC201', reason: 'Approved in May' });
  }, 120_000);

  afterAll(async () => {
    for (const m of made.splice(0)) await m.close();
  });

  it('laptop (SQLite) → campus server (PostgreSQL) → a new laptop: every row, every id, the models and the answers the same', async () => {
    const original = await rows(laptop.core);
    await restore(campus.url, await backup(laptop.url));
    expect(await rows(campus.core)).toEqual(original);
    // The server goes on numbering after the restored rows, and the restored models score.
    const entry = await campus.core.run('schedule-create', {
      year: 2025,
      semester: 'Summer',
      course_code: 'CSC202',
      section_name: '1',
      day: 'TR',
      start_time: '09:00',
      duration_mins: 60,
      room: 'Hall 2',
    });
    const maxBefore =
      (await sql<{ id: number }>`SELECT MAX(id) AS id FROM schedule_entries WHERE course_code = 'CSC201'`.execute(laptop.core.context.db)).rows[0]?.id ?? 0;
    expect(entry.id).toBeGreaterThan(maxBefore);
    const run = await campus.core.run('predict-bulk', { run_name: 'on the server', target_year: 2025, target_semester: 'Spring', target_campus: 'Beirut' });
    const onLaptop = await laptop.core.run('predict-bulk', {
      run_name: 'on the laptop',
      target_year: 2025,
      target_semester: 'Spring',
      target_campus: 'Beirut',
    });
    expect(run.model_version).toBe(onLaptop.model_version);
    expect(run.entries.map((e) => [e.course_code, e.offer, e.confidence])).toEqual(onLaptop.entries.map((e) => [e.course_code, e.offer, e.confidence]));

    const again = await server();
    await restore(again.url, await backup(campus.url));
    expect(await rows(again.core)).toEqual(await rows(campus.core));
    expect(await again.core.run('schedule-list', { year: 2025, semester: 'Summer' })).toEqual(
      await campus.core.run('schedule-list', { year: 2025, semester: 'Summer' }),
    );
  }, 120_000);
});
