import type { Readable } from 'node:stream';
import yauzl from 'yauzl';
import { CoreError } from '../domain/errors';
import { EXCEL_CELL_CHARS, LIMITS, tooLarge } from '../domain/bounds';

/**
 * What Termwise reads of a workbook at most. An .xlsx is a zip of XML: a 23 KB file can claim
 * 16,384 columns on every row or inflate to gigabytes. The workbook is measured here, by
 * streaming its parts through a bounded inflate, before any spreadsheet library expands it.
 */
export const XLSX_LIMITS = {
  /** Parts in the zip (a workbook has a few dozen). */
  entries: 2_000,
  /** Bytes of all parts once inflated. */
  uncompressedBytes: 120 * 1024 * 1024,
  /** Rows over all sheets. */
  rows: LIMITS.records,
  /** The rightmost column a cell may be in (column GR). */
  columns: 200,
  /** Cells with content over all sheets. */
  cells: 1_000_000,
  /** Characters of text in one cell: Excel's own limit. */
  cellChars: EXCEL_CELL_CHARS,
} as const;

export interface WorkbookMeasure {
  entries: number;
  uncompressedBytes: number;
  rows: number;
  cells: number;
  widestColumn: number;
}

/** Column letters → 1-based number ("A" → 1, "XFD" → 16384). */
export function columnNumber(letters: string): number {
  let n = 0;
  for (let i = 0; i < letters.length; i++) n = n * 26 + (letters.charCodeAt(i) - 64);
  return n;
}

/** 1-based column number → letters (1 → "A", 16384 → "XFD"). */
export function columnLetters(column: number): string {
  let s = '';
  for (let n = column; n > 0; n = Math.floor((n - 1) / 26)) s = String.fromCharCode(65 + ((n - 1) % 26)) + s;
  return s;
}

const CELL_OPEN = /<c[\s>/]/g;
const ROW_OPEN = /<row[\s>/]/g;
// A cell reference in a cell's tag, e.g. <c r="XFD2500" …>. Bounded: at most 200 characters of attributes before r=.
const CELL_REF = /<c\s[^>]{0,200}?\br="([A-Z]{1,3})\d{1,7}"/g;

/**
 * Scans one XML part as it streams: counts rows and cells, finds the widest column, and the
 * longest run of text. A chunk boundary may split a tag: the last bytes are carried over.
 */
class PartScanner {
  rows = 0;
  cells = 0;
  widest = 0;
  private longestText = 0;
  private textRun = 0;
  private carry = '';

  constructor(
    private readonly filename: string,
    private readonly isSheet: boolean,
  ) {}

  feed(chunk: string): void {
    for (let i = 0; i < chunk.length; i++) {
      if (chunk.charCodeAt(i) === 0x3c /* < */) this.textRun = 0;
      else if (++this.textRun > this.longestText) this.longestText = this.textRun;
    }
    // Escaped characters (&amp;) take up to 6 bytes each; a run this long cannot be one legal cell.
    if (this.longestText > XLSX_LIMITS.cellChars * 6)
      throw tooLarge(this.filename, `a cell holds more than ${XLSX_LIMITS.cellChars.toLocaleString('en-US')} characters (Excel's own limit)`);
    if (!this.isSheet) return;
    // Count only in the new text; the carried tail is there so that tags split by the boundary are seen whole.
    const text = this.carry + chunk;
    const from = this.carry.length;
    this.rows += count(ROW_OPEN, text, from);
    this.cells += count(CELL_OPEN, text, from);
    CELL_REF.lastIndex = 0;
    for (let m = CELL_REF.exec(text); m; m = CELL_REF.exec(text)) {
      const column = columnNumber(m[1] ?? '');
      if (column > this.widest) this.widest = column;
    }
    this.carry = text.slice(-256);
  }
}

function count(pattern: RegExp, text: string, from: number): number {
  pattern.lastIndex = 0;
  let n = 0;
  for (let m = pattern.exec(text); m; m = pattern.exec(text)) if (m.index + m[0].length > from) n++;
  return n;
}

async function drain(stream: Readable, onChunk: (text: string) => void): Promise<void> {
  const decoder = new TextDecoder('utf-8');
  for await (const chunk of stream) onChunk(decoder.decode(chunk as Uint8Array, { stream: true }));
}

/**
 * Measures a workbook without expanding it in memory, refusing (413, naming the limit) one that
 * is over any limit. A part that inflates beyond the size its zip header states is refused too
 * (yauzl checks each part's real size against its header as it streams).
 */
export async function measureWorkbook(content: Uint8Array, filename: string): Promise<WorkbookMeasure> {
  let zip: yauzl.ZipFile;
  try {
    zip = await yauzl.fromBufferPromise(Buffer.from(content.buffer, content.byteOffset, content.byteLength), {
      lazyEntries: true,
      validateEntrySizes: true,
      strictFileNames: false,
    });
  } catch (error) {
    throw new CoreError(
      'invalid',
      `"${filename}" is not a readable Excel workbook (${error instanceof Error ? error.message.slice(0, 200) : 'not a zip file'})`,
    );
  }
  const measure: WorkbookMeasure = { entries: 0, uncompressedBytes: 0, rows: 0, cells: 0, widestColumn: 0 };
  try {
    if (zip.entryCount > XLSX_LIMITS.entries)
      throw tooLarge(filename, `it has ${zip.entryCount.toLocaleString('en-US')} parts (at most ${XLSX_LIMITS.entries.toLocaleString('en-US')})`);
    const entries: yauzl.Entry[] = [];
    await new Promise<void>((resolve, reject) => {
      zip.on('entry', (entry: yauzl.Entry) => {
        entries.push(entry);
        zip.readEntry();
      });
      zip.on('end', () => resolve());
      zip.on('error', reject);
      zip.readEntry();
    });
    const declared = entries.reduce((sum, e) => sum + e.uncompressedSize, 0);
    const mb = (bytes: number): string => `${Math.round(bytes / (1024 * 1024)).toLocaleString('en-US')} MB`;
    if (declared > XLSX_LIMITS.uncompressedBytes) throw tooLarge(filename, `it expands to ${mb(declared)} (at most ${mb(XLSX_LIMITS.uncompressedBytes)})`);
    for (const entry of entries) {
      measure.entries++;
      if (entry.fileName.endsWith('/')) continue;
      const isXml = /\.(xml|rels|vml)$/i.test(entry.fileName);
      const scanner = new PartScanner(filename, /^xl\/worksheets\/[^/]+\.xml$/i.test(entry.fileName));
      const stream = await zip.openReadStreamPromise(entry);
      if (isXml) await drain(stream, (text) => scanner.feed(text));
      else for await (const _chunk of stream) void _chunk; // inflate to check its real size, keep nothing
      measure.uncompressedBytes += entry.uncompressedSize;
      measure.rows += scanner.rows;
      measure.cells += scanner.cells;
      measure.widestColumn = Math.max(measure.widestColumn, scanner.widest);
      if (measure.rows > XLSX_LIMITS.rows) throw tooLarge(filename, `it has more than ${XLSX_LIMITS.rows.toLocaleString('en-US')} rows`);
      if (measure.cells > XLSX_LIMITS.cells) throw tooLarge(filename, `it has more than ${XLSX_LIMITS.cells.toLocaleString('en-US')} filled cells`);
      if (measure.widestColumn > XLSX_LIMITS.columns) {
        throw tooLarge(
          filename,
          `a sheet uses column ${columnLetters(measure.widestColumn)} (column ${measure.widestColumn.toLocaleString('en-US')}); Termwise reads columns A to ${columnLetters(XLSX_LIMITS.columns)} only`,
        );
      }
    }
  } catch (error) {
    if (error instanceof CoreError) throw error;
    throw new CoreError('invalid', `"${filename}" is not a readable Excel workbook (${error instanceof Error ? error.message.slice(0, 200) : 'damaged'})`);
  } finally {
    zip.close();
  }
  return measure;
}
