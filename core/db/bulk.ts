import { sql } from 'kysely';
import type { Db } from './store';
import { inBatches } from './batches';
import { isPostgres } from './transactions';
import type { DataTable, Tables } from './tables';

/** A column a bulk insert writes, with the SQL type PostgreSQL reads its list of values as. */
export interface BulkColumn<T extends DataTable> {
  name: keyof Tables[T] & string;
  type: 'integer' | 'text' | 'double precision';
}

/**
 * Inserts many rows of one table. PostgreSQL receives one list per column and unnests them (one
 * statement whatever the count, without thousands of parameters to parse); SQLite takes multi-row
 * inserts of ROWS_PER_STATEMENT rows.
 */
export async function bulkInsert<T extends DataTable>(
  db: Db,
  table: T,
  columns: readonly BulkColumn<T>[],
  rows: readonly Record<string, unknown>[],
): Promise<void> {
  if (rows.length === 0) return;
  if (isPostgres(db)) {
    const lists = columns.map((c) => sql`${rows.map((row) => row[c.name] ?? null)}::${sql.raw(c.type)}[]`);
    await sql`INSERT INTO ${sql.table(table)} (${sql.join(columns.map((c) => sql.ref(c.name)))}) SELECT * FROM unnest(${sql.join(lists)})`.execute(db);
    return;
  }
  await inBatches(rows, (batch) =>
    sql`INSERT INTO ${sql.table(table)} (${sql.join(columns.map((c) => sql.ref(c.name)))}) VALUES ${sql.join(batch.map((row) => sql`(${sql.join(columns.map((c) => row[c.name] ?? null))})`))}`.execute(
      db,
    ),
  );
}
