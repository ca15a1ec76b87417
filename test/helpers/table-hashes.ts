import { createHash } from 'node:crypto';
import { sql } from 'kysely';
import type { Db } from '../../core/db/store';
import { isPostgres } from '../../core/db/transactions';
import { DATA_TABLES, STATE_TABLES } from '../../core/db/tables';

/** Every table a test may see written: the data tables, the server's running state and the migrations' record. */
const TABLES = [...DATA_TABLES, ...STATE_TABLES, 'schema_migrations'] as const;

const valueText = (value: unknown): string =>
  value instanceof Uint8Array
    ? `b${createHash('sha256').update(value).digest('hex')}`
    : typeof value === 'string'
      ? `s${value}`
      : `${typeof value}${String(value)}`;

/**
 * A digest of every table's rows (in any order), the same on both stores for the same rows: equal before and after
 * means nothing was written, and equal on a laptop and a campus means they hold the same. Reads every row into the
 * test; `tablesMark` answers "was anything written?" for one store faster.
 */
export async function tableHashes(db: Db): Promise<Record<string, string>> {
  const hashes: Record<string, string> = {};
  for (const table of [...TABLES].sort()) {
    const { rows } = await sql<Record<string, unknown>>`SELECT * FROM ${sql.table(table)}`.execute(db);
    const lines = rows
      .map((row) =>
        Object.keys(row)
          .sort()
          .map((key) => `${key}=${valueText(row[key])}`)
          .join('\u0000'),
      )
      .sort();
    hashes[table] = createHash('sha256').update(lines.join('\n')).digest('hex');
  }
  return hashes;
}

/** Each database's last mark, and what says whether it still holds: SQLite's write counters, PostgreSQL's snapshot. */
const lastMark = new WeakMap<Db, { unchangedWhile: string; marks: Record<string, string> }>();

/** SQLite: the connection's own writes so far (total_changes) and other connections' commits (data_version); both move on any write. */
async function sqliteWriteCounters(db: Db): Promise<string> {
  const own = await sql<{ c: number }>`SELECT total_changes() AS c`.execute(db);
  const others = await sql<{ data_version: number }>`PRAGMA data_version`.execute(db);
  return `${own.rows[0]?.c}/${others.rows[0]?.data_version}`;
}

/**
 * PostgreSQL: the snapshot a statement would read by (oldest running transaction, next to start, those running). Two
 * statements with the same snapshot see the same committed rows, since every write has its own transaction id.
 */
async function postgresSnapshot(db: Db): Promise<string> {
  const { rows } = await sql<{ snapshot: string }>`SELECT pg_current_snapshot()::text AS snapshot`.execute(db);
  return rows[0]?.snapshot ?? '';
}

/** Each table's rows digested by PostgreSQL itself (each row's text, sorted) in one statement, with the snapshot it read by. */
async function postgresTableDigests(db: Db): Promise<{ snapshot: string; marks: Record<string, string> }> {
  const digests = [...TABLES]
    .sort()
    .map(
      (table) =>
        sql`(SELECT md5(coalesce(string_agg(r, E'\n' ORDER BY r), '')) FROM (SELECT t::text AS r FROM ${sql.table(table)} t) digested) AS ${sql.ref(table)}`,
    );
  const { rows } = await sql<Record<string, string>>`SELECT pg_current_snapshot()::text AS "(snapshot)", ${sql.join(digests)}`.execute(db);
  const { '(snapshot)': snapshot = '', ...marks } = rows[0] ?? {};
  return { snapshot, marks };
}

/**
 * A mark of every table's rows in one store, per table: equal before and after means nothing was written. Not
 * comparable across stores (tableHashes is). While nothing can have been written since the last mark (SQLite's write
 * counters, PostgreSQL's snapshot unchanged), that mark still holds; otherwise PostgreSQL digests its rows itself, and
 * SQLite's are read and digested here.
 */
export async function tablesMark(db: Db): Promise<Record<string, string>> {
  const last = lastMark.get(db);
  const postgres = isPostgres(db);
  const unchangedWhile = postgres ? await postgresSnapshot(db) : await sqliteWriteCounters(db);
  if (last?.unchangedWhile === unchangedWhile) return last.marks;
  const { snapshot, marks } = postgres ? await postgresTableDigests(db) : { snapshot: unchangedWhile, marks: await tableHashes(db) };
  lastMark.set(db, { unchangedWhile: snapshot, marks });
  return marks;
}
