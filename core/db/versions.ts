import { sql } from 'kysely';
import type { Db } from './store';
import { isPostgres } from './transactions';

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
  const { rows } = await sql<{ others: number; own: number }>`SELECT (SELECT data_version FROM pragma_data_version) AS others, total_changes() AS own`.execute(db);
  return `${rows[0]?.others ?? 0}:${rows[0]?.own ?? 0}`;
}
