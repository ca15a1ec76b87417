import { sql } from 'kysely';
import type { Db } from './store';
import { isPostgres } from './transactions';
import type { DataTable } from './tables';

/**
 * A stamp that changes whenever anyone commits a write to the store, for results kept until the
 * data changes. SQLite: this connection's changes and SQLite's count of other connections' commits
 * (an import writes from its own thread). PostgreSQL: the position the server's write-ahead log has
 * reached, which every commit moves on (other work moves it too: a result is only worked out again).
 */
export async function dataVersion(db: Db): Promise<string> {
  if (isPostgres(db)) {
    const { rows } = await sql<{ position: string }>`SELECT pg_current_wal_insert_lsn()::text AS position`.execute(db);
    return rows[0]?.position ?? '';
  }
  const { rows } = await sql<{ others: number; own: number }>`SELECT (SELECT data_version FROM pragma_data_version) AS others, total_changes() AS own`.execute(
    db,
  );
  return `${rows[0]?.others ?? 0}:${rows[0]?.own ?? 0}`;
}

/**
 * After a write of many rows (an import, a restore), the planner's statistics of the tables it
 * filled are brought up to date at once (PostgreSQL's ANALYZE), rather than when autovacuum next
 * passes: a query planned on the old counts may scan a whole term. SQLite plans without them.
 */
export async function refreshStatistics(db: Db, tables: readonly DataTable[]): Promise<void> {
  if (!isPostgres(db) || tables.length === 0) return;
  await sql`ANALYZE ${sql.join(tables.map((t) => sql.table(t)))}`.execute(db);
}
