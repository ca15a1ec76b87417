import { tooLarge } from '../domain/bounds';
import { runWorker, siblingModule, WorkerLimitError } from '../workers';
import type { UploadedFile } from './files';
import type { Sheet } from './xlsx-sheets';
import { cellText, headerScore, isBlankRow, matchColumns, type ColumnAliases, type Table } from './table';

/** How far down a sheet the header row of an institutional report may be. */
const HEADER_SEARCH_ROWS = 30;
/** A header row must name at least this many known columns. */
const MIN_HEADER_SCORE = 2;
const TOTALS_ROW = /^(grand ?)?(sub ?-? ?)?totals?\b/i;

export interface ReportOptions<F extends string> {
  aliases: ColumnAliases<F>;
  /** Grouping columns whose blank cells repeat the value above (merged or repeated cells). */
  carryDown?: readonly F[];
}

/** A workbook is read in its own thread with these bounds (see XLSX_LIMITS for what it may hold). */
export const XLSX_READ_BOUNDS = { timeoutMs: 30_000, maxHeapMb: 768 } as const;

/** Every sheet of a workbook, read in a bounded worker thread; over any limit → 413, unreadable → 400. */
export async function loadSheets(file: UploadedFile): Promise<Sheet[]> {
  try {
    return await runWorker<Sheet[]>(
      siblingModule(import.meta.url, 'xlsx-worker'),
      { filename: file.filename, content: file.content },
      { bounds: XLSX_READ_BOUNDS },
    );
  } catch (error) {
    if (!(error instanceof WorkerLimitError)) throw error;
    throw tooLarge(
      file.filename,
      error.limit === 'time'
        ? `reading it took longer than ${XLSX_READ_BOUNDS.timeoutMs / 1000} s`
        : `reading it needs more than ${XLSX_READ_BOUNDS.maxHeapMb} MB of memory`,
    );
  }
}

function isTotalsRow(values: readonly unknown[]): boolean {
  // Spaces folded and the text cut first: the pattern then runs in bounded time on any cell.
  return values.some((v) => TOTALS_ROW.test(cellText(v).slice(0, 40).replace(/\s+/g, ' ')));
}

/**
 * Reads a workbook as an institutional report: on every sheet, finds the header row among the
 * first rows (below titles and blank lines), then reads the rows under it, skipping blank and
 * totals rows and carrying grouping values down. Without any such header, reads the first
 * sheet plainly with its first row as header.
 */
export async function readReport<F extends string>(file: UploadedFile, options: ReportOptions<F>): Promise<Table[]> {
  const sheets = await loadSheets(file);
  const tables: Table[] = [];
  for (const sheet of sheets) {
    const rows = sheet.rows;
    let headerIndex = -1;
    let best = MIN_HEADER_SCORE - 1;
    rows.slice(0, HEADER_SEARCH_ROWS).forEach((cells, i) => {
      const score = headerScore(cells, options.aliases);
      if (score > best) {
        best = score;
        headerIndex = i;
      }
    });
    if (headerIndex < 0) continue;
    const headers = (rows[headerIndex] ?? []).map(cellText);
    const columns = matchColumns(headers, options.aliases);
    const carried = (options.carryDown ?? []).map((f) => columns[f]).filter((c): c is number => c !== undefined);
    const last = new Map<number, unknown>();
    const table: Table = { headers, rows: [] };
    const label = sheets.length > 1 ? `sheet '${sheet.name}', ` : '';
    for (let i = headerIndex + 1; i < rows.length; i++) {
      const values: unknown[] = [...(rows[i] ?? [])];
      if (isBlankRow(values) || isTotalsRow(values)) continue;
      for (const col of carried) {
        if (cellText(values[col]) === '') values[col] = last.get(col);
        else last.set(col, values[col]);
      }
      table.rows.push({ where: `${label}row ${i + 1}`, values });
    }
    tables.push(table);
  }
  if (tables.length > 0) return tables;
  return [plainFirstSheet(sheets)];
}

function plainFirstSheet(sheets: readonly Sheet[]): Table {
  const sheet = sheets[0];
  if (!sheet) return { headers: [], rows: [] };
  const [headerRow = [], ...rest] = sheet.rows;
  return {
    headers: headerRow.map(cellText),
    rows: rest.map((values, i) => ({ where: `row ${i + 2}`, values })).filter((r) => !isBlankRow(r.values)),
  };
}
