import { echo } from '../text/bounded';
import Papa from 'papaparse';
import { invalid } from '../errors';
import { decodeText, type UploadedFile } from './files';
import { isBlankRow, type Table } from './table';

/** Reads a CSV file (papaparse): the first non-blank line is the header. */
export function readCsv(file: UploadedFile): Table {
  const text = decodeText(file.content);
  const result = Papa.parse<string[]>(text, { header: false, skipEmptyLines: 'greedy' });
  const fatal = result.errors.find((e) => e.type === 'Quotes');
  if (fatal) throw invalid(`"${echo(file.filename)}" is not a readable CSV file: ${fatal.message} (row ${(fatal.row ?? 0) + 1})`);
  const [headers, ...data] = result.data;
  if (!headers) return { headers: [], rows: [] };
  return {
    headers,
    rows: data
      .map((values, i) => ({ where: `row ${i + 2}`, values }))
      .filter((row) => !isBlankRow(row.values)),
  };
}
