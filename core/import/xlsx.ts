import ExcelJS from 'exceljs';
import { invalid } from '../errors';
import type { UploadedFile } from './files';
import { cellText, headerScore, isBlankRow, matchColumns, type ColumnAliases, type Table } from './table';

/** How far down a sheet the header row of an institutional report may be. */
const HEADER_SEARCH_ROWS = 30;
/** A header row must name at least this many known columns. */
const MIN_HEADER_SCORE = 2;
const TOTALS_ROW = /^(grand\s*)?(sub\s*-?\s*)?totals?\b/i;

export interface ReportOptions<F extends string> {
  aliases: ColumnAliases<F>;
  /** Grouping columns whose blank cells repeat the value above (merged or repeated cells). */
  carryDown?: readonly F[];
}

async function loadWorkbook(file: UploadedFile): Promise<ExcelJS.Workbook> {
  const workbook = new ExcelJS.Workbook();
  try {
    await workbook.xlsx.load(Buffer.from(file.content.buffer, file.content.byteOffset, file.content.byteLength) as never);
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    throw invalid(`"${file.filename}" is not a readable Excel workbook (${reason})`);
  }
  return workbook;
}

function sheetRows(sheet: ExcelJS.Worksheet): unknown[][] {
  const rows: unknown[][] = [];
  sheet.eachRow({ includeEmpty: true }, (row, rowNumber) => {
    const values: unknown[] = [];
    row.eachCell({ includeEmpty: true }, (cell, col) => {
      values[col - 1] = cell.isMerged && cell.master !== cell ? cell.master.value : cell.value;
    });
    rows[rowNumber - 1] = values;
  });
  return Array.from(rows, (r) => r ?? []);
}

function isTotalsRow(values: readonly unknown[]): boolean {
  return values.some((v) => TOTALS_ROW.test(cellText(v)));
}

/**
 * Reads a workbook as an institutional report: on every sheet, finds the header row among the
 * first rows (below titles and blank lines), then reads the rows under it, skipping blank and
 * totals rows and carrying grouping values down. Without any such header, reads the first
 * sheet plainly with its first row as header.
 */
export async function readReport<F extends string>(file: UploadedFile, options: ReportOptions<F>): Promise<Table[]> {
  const workbook = await loadWorkbook(file);
  const tables: Table[] = [];
  for (const sheet of workbook.worksheets) {
    const rows = sheetRows(sheet);
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
    const label = workbook.worksheets.length > 1 ? `sheet '${sheet.name}', ` : '';
    for (let i = headerIndex + 1; i < rows.length; i++) {
      const values = [...(rows[i] ?? [])];
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
  return [plainFirstSheet(workbook)];
}

function plainFirstSheet(workbook: ExcelJS.Workbook): Table {
  const sheet = workbook.worksheets[0];
  if (!sheet) return { headers: [], rows: [] };
  const [headerRow = [], ...rest] = sheetRows(sheet);
  return {
    headers: headerRow.map(cellText),
    rows: rest.map((values, i) => ({ where: `row ${i + 2}`, values })).filter((r) => !isBlankRow(r.values)),
  };
}
