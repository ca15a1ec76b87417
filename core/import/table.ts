import { capCell } from '../domain/bounds';

/** A table read from a CSV or a spreadsheet: header names and rows, each with where it came from. */
export interface TableRow {
  /** Where the row is, in words: "row 12" or "sheet 'Fall 2023', row 12". */
  where: string;
  values: unknown[];
}

export interface Table {
  headers: string[];
  rows: TableRow[];
}

/** Column aliases of one upload: field → accepted header spellings. */
export type ColumnAliases<F extends string> = Record<F, readonly string[]>;

/** Header comparison ignores case, spaces, underscores, dashes, dots and a leading BOM. */
export function normaliseHeader(header: unknown): string {
  return cellText(header)
    .replace(/^\uFEFF/, '')
    .toLowerCase()
    .replace(/[\s_\-.#]+/g, '');
}

/** Finds each field's column; the first alias that matches wins, in alias order. */
export function matchColumns<F extends string>(headers: readonly unknown[], aliases: ColumnAliases<F>): Partial<Record<F, number>> {
  const normalised = headers.map(normaliseHeader);
  const found: Partial<Record<F, number>> = {};
  const taken = new Set<number>();
  for (const field of Object.keys(aliases) as F[]) {
    for (const alias of aliases[field]) {
      const index = normalised.findIndex((h, i) => h === normaliseHeader(alias) && !taken.has(i));
      if (index >= 0) {
        found[field] = index;
        taken.add(index);
        break;
      }
    }
  }
  return found;
}

/** How many cells of a row are recognised headers: used to find the header row of a report. */
export function headerScore<F extends string>(cells: readonly unknown[], aliases: ColumnAliases<F>): number {
  return Object.keys(matchColumns(cells, aliases)).length;
}

/** Text of a cell value, whatever the reader gave (string, number, Date, rich text, formula), cut to the cell limit. */
export function cellText(value: unknown): string {
  if (value === null || value === undefined) return '';
  // A NUL character is no part of any name or code (and PostgreSQL cannot store one): dropped.
  if (typeof value === 'string') return capCell(value).replaceAll('\u0000', '').trim();
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  if (value instanceof Date) return value.toISOString();
  if (typeof value === 'object') {
    const v = value as { richText?: { text: string }[]; text?: unknown; result?: unknown; error?: unknown };
    if (Array.isArray(v.richText)) return capCell(v.richText.map((r) => r.text).join('')).trim();
    if ('result' in v) return cellText(v.result);
    if ('text' in v) return cellText(v.text);
  }
  return '';
}

export function isBlankRow(values: readonly unknown[]): boolean {
  return values.every((v) => cellText(v) === '');
}

/** The first of `keys` an object has a value for (JSON records read with a table's aliases). */
export function firstField(fields: Readonly<Record<string, unknown>>, keys: readonly string[]): unknown {
  for (const key of keys) if (fields[key] !== undefined) return fields[key];
  return undefined;
}
