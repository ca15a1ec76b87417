/** Semesters, with the spellings Termwise stores. (Campuses are configured: see campuses.ts.) */
export const SEMESTERS = ['Fall', 'Spring', 'Summer'] as const;
export type Semester = (typeof SEMESTERS)[number];
/** Semesters Termwise plans for; Summer records are kept but never planned. */
export const PLANNED_SEMESTERS = ['Fall', 'Spring'] as const;
export type PlannedSemester = (typeof PLANNED_SEMESTERS)[number];

/** The years Termwise reads and stores: a record outside them is a typo or an overflow, never a term. */
export const YEARS = { min: 1900, max: 2200 } as const;

/** A whole year within `YEARS`. */
export function isYear(value: number): boolean {
  return Number.isInteger(value) && value >= YEARS.min && value <= YEARS.max;
}

/** A list in words: "Fall, Spring or Summer". */
export function semestersInWords(semesters: readonly Semester[]): string {
  return semesters.length <= 1 ? (semesters[0] ?? '') : `${semesters.slice(0, -1).join(', ')} or ${semesters[semesters.length - 1]}`;
}

const SEMESTER_ALIASES: Record<string, Semester> = {
  fall: 'Fall',
  fa: 'Fall',
  f: 'Fall',
  autumn: 'Fall',
  aut: 'Fall',
  spring: 'Spring',
  sp: 'Spring',
  spr: 'Spring',
  s: 'Spring',
  summer: 'Summer',
  su: 'Summer',
  sum: 'Summer',
  sm: 'Summer',
};

/** "Fall", "fall", "FA", "Fall 2023", "2023-SP" → the stored spelling; null when not a semester. */
export function normaliseSemester(value: string): Semester | null {
  const words = value
    .toLowerCase()
    .split(/[^a-z]+/)
    .filter(Boolean);
  for (const word of words) {
    const found = SEMESTER_ALIASES[word];
    if (found) return found;
  }
  return null;
}

/** A term as a map key: `2018|Summer`. */
export const termKey = (term: Term): string => `${term.year}|${term.semester}`;

/** The semesters in the order they come within a calendar year. */
export const SEMESTERS_IN_YEAR = ['Spring', 'Summer', 'Fall'] as const satisfies readonly Semester[];

/** SQL ordering of a `semester` column within a year: Spring, Summer, Fall. */
export const SEMESTER_ORDER_SQL = "CASE semester WHEN 'Spring' THEN 0 WHEN 'Summer' THEN 1 ELSE 2 END";

export interface Term {
  year: number;
  semester: Semester;
}

/** The planned term after a given Fall/Spring term: Spring Y → Fall Y, Fall Y → Spring Y+1. */
export function nextPlannedTerm(term: Term): { year: number; semester: PlannedSemester } {
  return term.semester === 'Fall' ? { year: term.year + 1, semester: 'Spring' } : { year: term.year, semester: 'Fall' };
}

/** "Fall 2025": the one way a term is named in words. */
export function termLabel(term: { year: number; semester: string }): string {
  return `${term.semester} ${term.year}`;
}

/** "Fa 2025": a term where space is short (a chart's axis). */
export function shortTermLabel(term: { year: number; semester: string }): string {
  return `${term.semester.slice(0, 2)} ${term.year}`;
}

/** "Beirut Fall 2025": a term at a campus, as runs are named. */
export function campusTermLabel(campus: string, term: { year: number; semester: string }): string {
  return `${campus} ${termLabel(term)}`;
}

/** The term running on a date: January–May Spring, June–July Summer, August–December Fall. */
export function termOn(date: Date): Term {
  const month = date.getUTCMonth() + 1;
  return { year: date.getUTCFullYear(), semester: month <= 5 ? 'Spring' : month <= 7 ? 'Summer' : 'Fall' };
}

/**
 * A term as registrars write it: "Fall 2024", "2024 Fall", "2024-fa", "FA24"-style codes with a
 * four-digit year, or a Banner code "202410" (year, then 10/20/30 or 01…12 style suffixes read as
 * the month the term starts: Spring from January, Summer from May/June, Fall from August).
 * Whatever part is there comes back (a year alone, a semester alone); {} when nothing is.
 */
export function readTermText(value: string): Partial<Term> {
  const text = value.trim().slice(0, 40);
  const banner = /^(\d{4})(\d{2})$/.exec(text);
  if (banner) {
    const year = Number(banner[1]);
    const suffix = Number(banner[2]);
    const bySuffix: Record<number, Semester> = { 10: 'Fall', 20: 'Spring', 30: 'Summer' };
    const semester = bySuffix[suffix] ?? (suffix >= 1 && suffix <= 12 ? termOn(new Date(Date.UTC(year, suffix - 1, 15))).semester : undefined);
    return semester && isYear(year) ? { year, semester } : {};
  }
  const found: Partial<Term> = {};
  const year = /(?:^|\D)(\d{4})(?:\D|$)/.exec(text)?.[1];
  if (year !== undefined && isYear(Number(year))) found.year = Number(year);
  const semester = normaliseSemester(text);
  if (semester) found.semester = semester;
  return found;
}
