import Papa from 'papaparse';
import { invalid } from '../domain/errors';
import { echo, LIMITS, tooLarge } from '../domain/bounds';
import { decodeText, type UploadedFile } from './files';
import { isBlankRow, type Table } from './table';

/**
 * What Termwise reads of a CSV file at most: measured in one linear pass before parsing, so that
 * 25 MB of newlines or of commas is refused in milliseconds instead of parsed into millions of rows.
 */
export const CSV_LIMITS = {
  /** Lines (rows, blank ones included). */
  lines: LIMITS.records,
  /** Fields on one line. */
  fieldsPerLine: 200,
  /** Fields over the whole file. */
  fields: 2_500_000,
} as const;

/** Characters papaparse may pick as the delimiter: counting all of them over-counts, never under-counts. */
const SEPARATORS = new Set([0x2c /* , */, 0x3b /* ; */, 0x09 /* tab */, 0x7c /* | */]);

function measureCsv(text: string, filename: string): void {
  let lines = 1;
  let fields = 1;
  let onLine = 1;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x0a) {
      if (++lines > CSV_LIMITS.lines) throw tooLarge(filename, `it has more than ${CSV_LIMITS.lines.toLocaleString('en-US')} lines`);
      onLine = 1;
      fields++;
    } else if (SEPARATORS.has(c)) {
      if (++onLine > CSV_LIMITS.fieldsPerLine)
        throw tooLarge(filename, `line ${lines.toLocaleString('en-US')} has more than ${CSV_LIMITS.fieldsPerLine} fields`);
      if (++fields > CSV_LIMITS.fields) throw tooLarge(filename, `it has more than ${CSV_LIMITS.fields.toLocaleString('en-US')} fields`);
    }
  }
}

/** Reads a CSV file (papaparse) within the limits: the first non-blank line is the header. */
export function readCsv(file: UploadedFile): Table {
  const text = decodeText(file.content);
  measureCsv(text, file.filename);
  const result = Papa.parse<string[]>(text, { header: false, skipEmptyLines: 'greedy' });
  const fatal = result.errors.find((e) => e.type === 'Quotes');
  if (fatal) throw invalid(`"${echo(file.filename)}" is not a readable CSV file: ${fatal.message} (row ${(fatal.row ?? 0) + 1})`);
  const [headers, ...data] = result.data;
  if (!headers) return { headers: [], rows: [] };
  return {
    headers,
    rows: data.map((values, i) => ({ where: `row ${i + 2}`, values })).filter((row) => !isBlankRow(row.values)),
  };
}
