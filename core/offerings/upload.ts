import { invalid } from '../domain/errors';
import { echo, LIMITS } from '../domain/bounds';
import { normaliseCourseCode } from '../domain/codes';
import { cellText, matchColumns, type Table } from '../import/table';
import type { ImportLog } from '../import/result';
import { isYear, readTermText, type Semester } from '../domain/terms';
import type { Campus, CampusList } from '../domain/campuses';
import { OFFERING_COLUMNS, type OfferingColumn } from './columns';
import type { OfferingRecord } from './schema';

export interface OfferingDefaults {
  semester: Semester;
  campus: Campus;
  /** The configured campuses, which a row's campus cell must name. */
  campuses: CampusList;
}

type Columns = Partial<Record<OfferingColumn, number>>;

/**
 * The required columns a table lacks, in a word each (with `explained`, as the refusal names them):
 * a course code (or prefix and number), and a year — which a term column may carry instead ("Fall 2024").
 */
export function missingOfferingColumns(columns: Columns, explained = false): string[] {
  const missing: string[] = [];
  if (columns.year === undefined && columns.semester === undefined) missing.push(explained ? 'year (or "yr", or a term column such as "Fall 2024")' : 'year');
  if (columns.course_code === undefined && (columns.prefix === undefined || columns.number === undefined)) {
    missing.push(explained ? 'course code ("course_code", "course code", "course", or a prefix/subject column with a number column)' : 'course code');
  }
  return missing;
}

/**
 * What a preview must say is missing beyond the columns: without a year column, the terms of the
 * semester column must name their year ("Fall 2024"); when none of the first rows does, every row
 * would be refused at import.
 */
export function missingOfferingYears(columns: Columns, table: Table): string[] {
  if (columns.year !== undefined || columns.semester === undefined) return [];
  const index = columns.semester;
  const rows = table.rows.slice(0, 200);
  if (rows.length === 0 || rows.some((row) => readTermText(cellText(row.values[index])).year !== undefined)) return [];
  return ['year (the semester column names no year: add a year column, or write terms such as "Fall 2024")'];
}

/** Checks a table has the required columns; the error names what is missing. */
export function offeringColumnsOf(table: Table, filename: string): Columns {
  const columns = matchColumns(table.headers, OFFERING_COLUMNS);
  const missing = missingOfferingColumns(columns, true);
  if (missing.length > 0) {
    const seen = table.headers.filter((h) => h !== '').join(', ') || 'none';
    throw invalid(`"${filename}" is missing the required column ${missing.join(' and the column ')}. Columns found: ${echo(seen)}`);
  }
  return columns;
}

const TRUE_WORDS = new Set(['true', 'yes', 'y', '1', 't', 'offered']);
const FALSE_WORDS = new Set(['false', 'no', 'n', '0', 'f', 'not offered']);

function readCount(value: unknown): number | null | 'bad' {
  const text = cellText(value).replace(/,/g, '');
  if (text === '') return null;
  const n = Number(text);
  return Number.isInteger(n) && n >= 0 && n <= LIMITS.maxEnrollment ? n : 'bad';
}

/** Each spelling a report repeats on every row, read once: course codes, term cells and campus names. */
interface RowReaders {
  courseCode: (text: string) => string | null;
  termOf: (text: string) => ReturnType<typeof readTermText>;
  campusOf: (text: string) => string | null;
}

/** One row's term: its year (from its year cell, else its term cell) and semester, or why it has none. */
function rowTerm(cell: (column: OfferingColumn) => unknown, readers: RowReaders, defaults: OfferingDefaults): { year: number; semester: Semester } | string {
  const yearText = cellText(cell('year'));
  const semesterText = cellText(cell('semester'));
  const term = readers.termOf(semesterText);
  const yearMatch = /^(\d{4})(?:\.0+)?$/.exec(yearText) ?? /\b(\d{4})\b/.exec(yearText);
  const year = yearMatch ? Number(yearMatch[1]) : yearText === '' ? (term.year ?? NaN) : NaN;
  if (!isYear(year))
    return yearText !== '' ? `year "${yearText}" is not a year` : semesterText !== '' ? `no year (the term "${semesterText}" names none)` : 'no year';
  const semester = semesterText === '' ? defaults.semester : (term.semester ?? null);
  if (!semester) return `semester "${semesterText}" is not Fall, Spring or Summer`;
  return { year, semester };
}

/** One row's enrollment counts (the missing one derived from the others) and whether it ran, or why they cannot be read. */
function rowCounts(cell: (column: OfferingColumn) => unknown): { total: number; passed: number; failed: number; offered: boolean } | string {
  const counts = { total: readCount(cell('total_enrolled')), passed: readCount(cell('passed_count')), failed: readCount(cell('failed_count')) };
  const bad = Object.entries(counts).find(([, n]) => n === 'bad');
  if (bad) return `${bad[0]} count is not a whole number from 0 to ${LIMITS.maxEnrollment.toLocaleString('en-US')}`;
  const derived = deriveCounts(counts.total as number | null, counts.passed as number | null, counts.failed as number | null);
  if (typeof derived === 'string') return derived;
  const offeredText = cellText(cell('is_offered')).toLowerCase();
  let offered: boolean;
  if (offeredText === '') offered = derived.known ? derived.total > 0 : true;
  else if (TRUE_WORDS.has(offeredText)) offered = true;
  else if (FALSE_WORDS.has(offeredText)) offered = false;
  else return `is_offered "${offeredText}" is not true/false/yes/no/1/0`;
  return { total: derived.total, passed: derived.passed, failed: derived.failed, offered };
}

/** One row as an offering record, or why it is skipped. */
function offeringOfRow(cell: (column: OfferingColumn) => unknown, hasCode: boolean, readers: RowReaders, defaults: OfferingDefaults): OfferingRecord | string {
  const rawCode = hasCode ? cellText(cell('course_code')) : `${cellText(cell('prefix'))}${cellText(cell('number'))}`;
  const code = readers.courseCode(rawCode);
  if (!code) return rawCode === '' ? 'no course code' : `"${rawCode}" is not a course code`;
  const term = rowTerm(cell, readers, defaults);
  if (typeof term === 'string') return term;
  const campusText = cellText(cell('campus'));
  const campus = campusText === '' ? defaults.campus : readers.campusOf(campusText);
  if (!campus) return `campus "${campusText}" is not ${defaults.campuses.describe()}`;
  const counts = rowCounts(cell);
  if (typeof counts === 'string') return counts;
  return {
    course_code: code,
    ...term,
    campus,
    total_enrolled: counts.total,
    passed_count: counts.passed,
    failed_count: counts.failed,
    is_offered: counts.offered,
  };
}

/**
 * Reads offering rows, summing rows of the same course, year, semester and campus (one row per
 * section) into one record. Unusable rows are skipped and named in the log.
 */
export function offeringsFromTables(tables: { table: Table; columns: Columns }[], defaults: OfferingDefaults, log: ImportLog): OfferingRecord[] {
  const records = new Map<string, OfferingRecord>();
  // Reports repeat the same few spellings on every row: normalise each once.
  const readers: RowReaders = {
    courseCode: memoise(normaliseCourseCode),
    // A term cell gives its semester ("FA", "Fall 2024", "202410"), and its year when the row has none.
    termOf: memoise(readTermText),
    campusOf: memoise((text: string) => defaults.campuses.normalise(text)),
  };
  for (const { table, columns } of tables) {
    for (const row of table.rows) {
      const cell = (column: OfferingColumn): unknown => {
        const index = columns[column];
        return index === undefined ? undefined : row.values[index];
      };
      const record = offeringOfRow(cell, columns.course_code !== undefined, readers, defaults);
      if (typeof record === 'string') {
        log.skip(row.where, record);
        continue;
      }
      const key = `${record.course_code}|${record.year}|${record.semester}|${record.campus}`;
      const existing = records.get(key);
      if (existing) {
        existing.total_enrolled += record.total_enrolled;
        existing.passed_count += record.passed_count;
        existing.failed_count += record.failed_count;
        existing.is_offered = existing.is_offered || record.is_offered;
      } else records.set(key, record);
    }
  }
  return [...records.values()];
}

/** Fills whichever of total/passed/failed is missing from the other two. */
function deriveCounts(
  total: number | null,
  passed: number | null,
  failed: number | null,
): { total: number; passed: number; failed: number; known: boolean } | string {
  if (total !== null && passed !== null && failed !== null) {
    if (passed + failed > total) return `passed (${passed}) plus failed (${failed}) exceeds total enrolled (${total})`;
    return { total, passed, failed, known: true };
  }
  if (total === null && passed !== null && failed !== null) return { total: passed + failed, passed, failed, known: true };
  if (total !== null && failed !== null) {
    if (failed > total) return `failed (${failed}) exceeds total enrolled (${total})`;
    return { total, passed: total - failed, failed, known: true };
  }
  if (total !== null && passed !== null) {
    if (passed > total) return `passed (${passed}) exceeds total enrolled (${total})`;
    return { total, passed, failed: total - passed, known: true };
  }
  if (total !== null) return { total, passed: total, failed: 0, known: true };
  if (passed !== null || failed !== null) {
    const p = passed ?? 0;
    const f = failed ?? 0;
    return { total: p + f, passed: p, failed: f, known: true };
  }
  return { total: 0, passed: 0, failed: 0, known: false };
}

function memoise<R>(fn: (text: string) => R): (text: string) => R {
  const cache = new Map<string, R>();
  return (text) => {
    let value = cache.get(text);
    if (value === undefined && !cache.has(text)) {
      value = fn(text);
      cache.set(text, value);
    }
    return value as R;
  };
}
