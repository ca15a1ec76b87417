import type { UploadedFile } from './files';
import { extensionOf, parseJsonFile } from './files';
import { readCsv } from './csv';
import { readReport } from './xlsx';
import { cellText, matchColumns, type ColumnAliases, type Table } from './table';

/** What an import will read, before it runs: the columns found, what each maps to, and the first rows. */
export interface ImportPreview {
  columns: { header: string; field: string | null }[];
  rows: string[][];
  total_rows: number;
  missing: string[];
}

export const PREVIEW_ROWS = 5;

export async function previewTable<F extends string>(
  file: UploadedFile,
  aliases: ColumnAliases<F>,
  required: (found: Partial<Record<F, number>>, table: Table) => string[],
  carryDown?: readonly F[],
): Promise<ImportPreview> {
  const ext = extensionOf(file.filename);
  const tables = ext === 'xlsx' ? await readReport(file, { aliases, carryDown }) : [readCsv(file)];
  const table = tables[0] ?? { headers: [], rows: [] };
  const found = matchColumns(table.headers, aliases);
  const fieldOf = new Map(Object.entries(found).map(([field, index]) => [index as number, field]));
  return {
    columns: table.headers.map((header, i) => ({ header: cellText(header), field: fieldOf.get(i) ?? null })),
    rows: table.rows.slice(0, PREVIEW_ROWS).map((r) => table.headers.map((_, i) => cellText(r.values[i]))),
    total_rows: tables.reduce((sum, t) => sum + t.rows.length, 0),
    missing: required(found, table),
  };
}

/** JSON files: the fields of the first records. */
export function previewJson(file: UploadedFile, known: readonly string[]): ImportPreview {
  const document = parseJsonFile(file);
  let records: unknown[] = [];
  if (Array.isArray(document)) records = document as unknown[];
  else if (document && typeof document === 'object') {
    const values = Object.values(document as Record<string, unknown>);
    const list = values.find((v) => Array.isArray(v));
    records = Array.isArray(list)
      ? (list as unknown[])
      : Object.entries(document as Record<string, unknown>).map(([key, v]) => (v && typeof v === 'object' ? { key, ...v } : { key }));
  }
  const objects = records.filter((r): r is Record<string, unknown> => r !== null && typeof r === 'object');
  const headers = [...new Set(objects.slice(0, 50).flatMap((o) => Object.keys(o)))];
  return {
    columns: headers.map((header) => ({ header, field: known.includes(header) ? header : header === 'key' ? 'code / name (object key)' : null })),
    rows: objects.slice(0, PREVIEW_ROWS).map((o) => headers.map((h) => (typeof o[h] === 'object' ? JSON.stringify(o[h]) : cellText(o[h])))),
    total_rows: objects.length,
    missing: [],
  };
}
