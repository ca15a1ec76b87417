import { WEEKDAY_LETTERS } from './days';

/**
 * Parts of term: a summer session's first and second half, an eight-week course. Each has a code
 * (registrars use `1`, `S1`, `S2A`, `LF`, …), a name and, when known, its first and last date.
 * Two meetings in parts whose dates do not overlap never meet at the same time.
 */
export interface PartOfTerm {
  code: string;
  name: string;
  /** ISO dates (YYYY-MM-DD), both inclusive; null when not known (then it spans the whole term). */
  start_date: string | null;
  end_date: string | null;
}

/** The part every term has: the whole term. */
export const WHOLE_TERM_CODE = '1';
export const WHOLE_TERM: PartOfTerm = { code: WHOLE_TERM_CODE, name: 'Whole term', start_date: null, end_date: null };

export const PART_CODE_PATTERN = /^[A-Za-z0-9][A-Za-z0-9_-]{0,15}$/;

/** A real calendar date written YYYY-MM-DD, or null. */
export function readIsoDate(value: string): string | null {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value.trim());
  if (!match) return null;
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
  const date = new Date(Date.UTC(year, month - 1, day));
  return date.getUTCFullYear() === year && date.getUTCMonth() === month - 1 && date.getUTCDate() === day ? match[0] : null;
}

/** Whether two parts share at least one date; a part without dates spans the whole term. */
export function partsOverlap(a: PartOfTerm, b: PartOfTerm): boolean {
  if (a.code === b.code) return true;
  const aStart = a.start_date ?? '0000-00-00';
  const aEnd = a.end_date ?? '9999-99-99';
  const bStart = b.start_date ?? '0000-00-00';
  const bEnd = b.end_date ?? '9999-99-99';
  return aStart <= bEnd && bStart <= aEnd;
}

/**
 * Whether two parts have a common date that falls on one of `days` (day letters): meetings on
 * those days in those parts then meet on the same date. Without dates a part spans the whole term.
 */
export function partsShareDay(a: PartOfTerm, b: PartOfTerm, days: string): boolean {
  if (days === '' || !partsOverlap(a, b)) return false;
  const first = [a.start_date, b.start_date]
    .filter((d): d is string => d !== null)
    .sort()
    .at(-1);
  const last = [a.end_date, b.end_date].filter((d): d is string => d !== null).sort()[0];
  if (first === undefined || last === undefined) return true;
  const start = Date.parse(`${first}T00:00:00Z`);
  const end = Date.parse(`${last}T00:00:00Z`);
  // A week or more of common dates holds every weekday; fewer are checked one by one.
  for (let t = start, n = 0; t <= end && n < 7; t += 86_400_000, n++) {
    if (days.includes(WEEKDAY_LETTERS[new Date(t).getUTCDay()] ?? '')) return true;
  }
  return false;
}

/** "part of term S1 (2018-06-11 to 2018-07-06)" for messages. */
export function describePart(part: PartOfTerm): string {
  const dates = part.start_date && part.end_date ? ` (${part.start_date} to ${part.end_date})` : '';
  return `part of term ${part.code}${dates}`;
}
