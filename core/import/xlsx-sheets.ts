import { excel } from '../excel';
import { invalid } from '../domain/errors';
import { capCell, echo, wellFormed } from '../domain/bounds';
import { cellText } from './table';
import { measureWorkbook } from './xlsx-limits';

/** One cell as it leaves the reader: a plain value, text cut to the cell limit. */
export type SheetCell = string | number | boolean | Date | null;

export interface Sheet {
  name: string;
  /** Rows by position (row 1 first); an empty row is []. */
  rows: SheetCell[][];
}

function plainValue(value: unknown): SheetCell {
  if (value === null || value === undefined) return null;
  if (typeof value === 'string') return wellFormed(capCell(value));
  if (typeof value === 'number') return Number.isFinite(value) ? value : null;
  if (typeof value === 'boolean' || value instanceof Date) return value;
  if (typeof value === 'object' && 'result' in value) return plainValue((value as { result?: unknown }).result);
  return wellFormed(capCell(cellText(value)));
}

/**
 * Reads every sheet of a workbook through its real cells only (never walking empty cells up to
 * the last column), after measuring it against the limits. Merged cells take their master's value.
 */
export async function readSheets(content: Uint8Array, filename: string): Promise<Sheet[]> {
  await measureWorkbook(content, filename);
  const workbook = new (await excel()).Workbook();
  try {
    await workbook.xlsx.load(Buffer.from(content.buffer, content.byteOffset, content.byteLength) as never);
  } catch (error) {
    throw invalid(`"${echo(filename)}" is not a readable Excel workbook (${echo(error instanceof Error ? error.message : String(error))})`);
  }
  return workbook.worksheets.map((sheet) => {
    const rows: SheetCell[][] = [];
    sheet.eachRow({ includeEmpty: false }, (row, rowNumber) => {
      const values: SheetCell[] = [];
      row.eachCell({ includeEmpty: false }, (cell, col) => {
        values[col - 1] = plainValue(cell.isMerged && cell.master !== cell ? cell.master.value : cell.value);
      });
      rows[rowNumber - 1] = Array.from(values, (v) => v ?? null);
    });
    return { name: sheet.name.slice(0, 100), rows: Array.from(rows, (r) => r ?? []) };
  });
}
