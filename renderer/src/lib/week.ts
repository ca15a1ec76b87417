/**
 * The timetable is a weekly pattern; the calendar shows it on a fixed reference week
 * (Monday 1 January 2024), one date per day letter.
 */
import { DAY_LETTERS as DAY_ORDER, type DayLetter } from '../../../core/domain/days';
import { formatHHMM, parseHHMM } from '../../../core/domain/time';
export const REFERENCE_MONDAY = '2024-01-01';

export function dateOfLetter(letter: string): string {
  const index = DAY_ORDER.indexOf(letter as DayLetter);
  return `2024-01-0${index + 1}`;
}

export function letterOfDate(date: Date): DayLetter {
  // getDay: 0 = Sunday … 6 = Saturday
  return DAY_ORDER[(date.getDay() + 6) % 7] ?? 'M';
}

export function minutesOf(time: string): number {
  return parseHHMM(time) ?? 0;
}

export const hhmm = formatHHMM;

export function timeOfDate(date: Date): string {
  return hhmm(date.getHours() * 60 + date.getMinutes());
}

/** Moves every day of a pattern by `days` (dragging Monday of MWF to Tuesday gives TRS). */
export function shiftPattern(pattern: string, days: number): string {
  const shifted = [...pattern].map((d) => DAY_ORDER[(((DAY_ORDER.indexOf(d as DayLetter) + days) % 7) + 7) % 7] ?? d);
  return DAY_ORDER.filter((d) => shifted.includes(d)).join('');
}

/** Instructor colours, each dark enough for white text (contrast ≥ 4.5:1, WCAG AA). */
const PALETTE = ['#1971c2', '#c2410c', '#237032', '#ae3ec9', '#b35c00', '#0b7285', '#c2255c', '#4a7a0b', '#6741d9', '#a61e4d', '#087f5b', '#862e9c'];
const UNASSIGNED_COLOUR = '#5c636a';

/** The instructor a meeting is coloured by: its first, or null when unassigned. */
export function leadInstructor(entry: { doctors: readonly { id: number }[] }): number | null {
  return entry.doctors[0]?.id ?? null;
}

export function colourOf(key: number | null): string {
  if (key === null) return UNASSIGNED_COLOUR;
  return PALETTE[key % PALETTE.length] ?? '#1c7ed6';
}
