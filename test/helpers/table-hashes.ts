import { createHash } from 'node:crypto';
import { sql } from 'kysely';
import type { Db } from '../../core/db/store';
import { DATA_TABLES, STATE_TABLES } from '../../core/db/tables';

/** Every table a test may see written: the data tables, the server's running state and the migrations' record. */
const TABLES = [...DATA_TABLES, ...STATE_TABLES, 'schema_migrations'] as const;

const valueText = (value: unknown): string =>
  value instanceof Uint8Array
    ? `b${createHash('sha256').update(value).digest('hex')}`
    : typeof value === 'string'
      ? `s${value}`
      : `${typeof value}${String(value)}`;

/** A digest of every table's rows (in any order): equal before and after means nothing was written. Either store. */
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
