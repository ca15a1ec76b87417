import { sql } from 'kysely';
import type { Db } from './store';
import { isPostgres } from './transactions';

/** Tables whose ids the store numbers, whose rows a batch write may number ahead. */
export type NumberedTable = 'schedule_entries';

/**
 * `count` new ids for rows of `table`, to insert many rows in one statement and still know each
 * row's id. On PostgreSQL they come from the table's sequence (no other writer gets them); on
 * SQLite they follow the largest id, which no one else can take while this write transaction holds
 * the write lock. Call inside the transaction that inserts the rows.
 */
export async function reserveIds(trx: Db, table: NumberedTable, count: number): Promise<number[]> {
  if (count === 0) return [];
  if (isPostgres(trx)) {
    const { rows } = await sql<{ id: number }>`SELECT nextval(pg_get_serial_sequence(${table}, 'id'))::integer AS id FROM generate_series(1, ${count})`.execute(
      trx,
    );
    return rows.map((row) => row.id);
  }
  const { rows } = await sql<{ last: number | null }>`SELECT MAX(id) AS last FROM ${sql.table(table)}`.execute(trx);
  const first = (rows[0]?.last ?? 0) + 1;
  return Array.from({ length: count }, (_, i) => first + i);
}
