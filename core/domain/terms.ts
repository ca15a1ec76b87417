/** Semesters, with the spellings Termwise stores. (Campuses are configured: see campuses.ts.) */
export const SEMESTERS = ['Fall', 'Spring', 'Summer'] as const;
export type Semester = (typeof SEMESTERS)[number];
/** Semesters Termwise plans for; Summer records are kept but never planned. */
export const PLANNED_SEMESTERS = ['Fall', 'Spring'] as const;
export type PlannedSemester = (typeof PLANNED_SEMESTERS)[number];

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
  const words = value.toLowerCase().split(/[^a-z]+/).filter(Boolean);
  for (const word of words) {
    const found = SEMESTER_ALIASES[word];
    if (found) return found;
  }
  return null;
}

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

/** "Fall 2025". */
export function termLabel(term: Term): string {
  return `${term.semester} ${term.year}`;
}

/** The term running on a date: January–May Spring, June–July Summer, August–December Fall. */
export function termOn(date: Date): Term {
  const month = date.getUTCMonth() + 1;
  return { year: date.getUTCFullYear(), semester: month <= 5 ? 'Spring' : month <= 7 ? 'Summer' : 'Fall' };
}
