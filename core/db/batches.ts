/**
 * Rows written per statement: a multi-row INSERT saves a round trip to a database server per row,
 * and stays well inside both stores' limit on parameters (SQLite 32,766, PostgreSQL 65,535) for
 * tables of up to 30 columns.
 */
export const ROWS_PER_STATEMENT = 500;

/** Runs `write` on each slice of at most `size` items, in order. */
export async function inBatches<T>(items: readonly T[], write: (batch: T[]) => Promise<unknown>, size = ROWS_PER_STATEMENT): Promise<void> {
  for (let start = 0; start < items.length; start += size) await write(items.slice(start, start + size));
}

/** Values bound in one `IN (…)` list at most; longer lists are read in slices. */
export const IDS_PER_STATEMENT = 5_000;

/** Reads the rows for a long list of keys in slices, in order. */
export async function readInBatches<K, R>(keys: readonly K[], read: (batch: K[]) => Promise<R[]>, size = IDS_PER_STATEMENT): Promise<R[]> {
  const rows: R[] = [];
  for (let start = 0; start < keys.length; start += size) rows.push(...(await read(keys.slice(start, start + size))));
  return rows;
}

/** The largest id a row can have in either store (PostgreSQL's INTEGER): a larger one names no row. */
export const MAX_ROW_ID = 2_147_483_647;

/** Whether a number can be a stored row's id; any other names no row (and is never sent to the store). */
export function isRowId(id: number): boolean {
  return Number.isSafeInteger(id) && id >= 1 && id <= MAX_ROW_ID;
}

// eslint-disable-next-line no-control-regex -- the NUL character is what is dropped
const NUL = /\u0000/g;

/**
 * A value as both stores keep it: text never holds the NUL character (PostgreSQL cannot store it,
 * and it means nothing in a course, a name or a room), so both drop it alike.
 */
export function storable(value: unknown): unknown {
  return typeof value === 'string' && value.includes('\u0000') ? value.replace(NUL, '') : value;
}
