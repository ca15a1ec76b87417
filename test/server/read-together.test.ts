import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'kysely';
import { afterAll, describe, expect, inject, it } from 'vitest';
import { createCore, type Core } from '../../core/index';
import { knownRead, mapRead, readAlone, readTogether, type PendingRead } from '../../core/db/read-together';
import { settingsRead, writeSetting } from '../../core/db/settings';
import type { Db } from '../../core/db/store';
import { createDatabase } from '../helpers/postgres';

/**
 * readTogether (core/db/read-together.ts) answers exactly what each read answers alone, on both
 * stores: PostgreSQL sends them as one statement of JSON lists, SQLite runs them one by one.
 */
const opened: (() => Promise<void>)[] = [];
afterAll(async () => {
  for (const close of opened) await close();
});

async function openCore(kind: 'SQLite' | 'PostgreSQL'): Promise<Core> {
  const dataDir = mkdtempSync(join(tmpdir(), 'termwise-read-together-'));
  const database = kind === 'PostgreSQL' ? await createDatabase(inject('postgresAdminUrl'), inject('postgresTemplate')) : null;
  const core = await createCore({ dataDir, databaseUrl: database?.url });
  opened.push(async () => {
    await core.close();
    await database?.drop();
    rmSync(dataDir, { recursive: true, force: true });
  });
  return core;
}

const rowsOf = <R>(db: Db, query: ReturnType<typeof sql<R>>): PendingRead<R[]> => ({ query: query.compile(db), answer: (rows) => rows as R[] });

function reads(db: Db) {
  return {
    // After a read with values: the literal's text must keep its own "$1" while the values are numbered on.
    settings: settingsRead(db, 1, ['termwise.test.a', 'termwise.test.b', 'termwise.test.missing']),
    // Text that looks like a placeholder, quotes, and values of every kind a read returns.
    literal: rowsOf(
      db,
      sql<{
        text: string;
        given: string;
        whole: number;
        fraction: number;
        none: null;
      }>`SELECT 'it''s $1 and "$2"' AS text, ${"§ ünï $3 'q'"} AS given, CAST(${7} AS INTEGER) AS whole, CAST(${2.5} AS REAL) AS fraction, NULL AS none`,
    ),
    nothing: rowsOf(db, sql<{ id: number }>`SELECT id FROM departments WHERE id < ${0}`),
    mapped: mapRead(rowsOf(db, sql<{ id: number; code: string }>`SELECT id, code FROM departments WHERE id = ${1} ORDER BY id`), (rows) =>
      rows.map((r) => r.code),
    ),
    known: knownRead(['no query']),
  };
}

describe('reads sent together', () => {
  for (const kind of ['SQLite', 'PostgreSQL'] as const) {
    it(`answer on ${kind} what each answers alone, placeholders in quoted text and every kind of value included`, async () => {
      const core = await openCore(kind);
      const db = core.context.db;
      await writeSetting(db, 1, 'termwise.test.a', { term: { year: 2031, semester: 'Fall' }, note: "O'Neil's $1 § ü" });
      await writeSetting(db, 1, 'termwise.test.b', [1.25, null, true, 'x']);
      const alone = Object.fromEntries(
        await Promise.all(Object.entries(reads(db)).map(async ([name, read]) => [name, await readAlone<unknown>(db, read)] as const)),
      );
      const together = await readTogether(db, reads(db));
      expect(together).toEqual(alone);
      expect(together.literal).toEqual([{ text: 'it\'s $1 and "$2"', given: "§ ünï $3 'q'", whole: 7, fraction: 2.5, none: null }]);
      expect(together.settings).toEqual(
        new Map<string, unknown>([
          ['termwise.test.a', { term: { year: 2031, semester: 'Fall' }, note: "O'Neil's $1 § ü" }],
          ['termwise.test.b', [1.25, null, true, 'x']],
        ]),
      );
      expect(together.nothing).toEqual([]);
      expect(together.mapped).toHaveLength(1);
      expect(together.known).toEqual(['no query']);
    });
  }
});
