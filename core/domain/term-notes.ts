import { termLabel } from './terms';
/** What staff record of a planned term that the offering history cannot tell. */
export const TERM_NOTE_KINDS = ['instructor_away', 'course_new', 'course_retired'] as const;
export type TermNoteKind = (typeof TERM_NOTE_KINDS)[number];

export const TERM_NOTE_LABELS: Record<TermNoteKind, string> = {
  instructor_away: 'Instructor away',
  course_new: 'Newly approved course',
  course_retired: 'Course retired',
};

/** Longest reason kept with a note. */
export const MAX_NOTE_REASON = 300;

export interface TermNote {
  id: number;
  year: number;
  semester: string;
  kind: TermNoteKind;
  doctor_id: number | null;
  /** The instructor's name (instructor_away), for the screens and the words. */
  doctor_name: string | null;
  course_code: string | null;
  reason: string | null;
  created_at: string;
}

/** A note's reason as words put after it: " (sabbatical)", or nothing. */
export function noteReason(note: Pick<TermNote, 'reason'>): string {
  return note.reason ? ` (${note.reason})` : '';
}

/** "Dr. Rana Haddad away in Fall 2025 (sabbatical)", "CSC999 newly approved for Fall 2025". */
export function describeNote(note: Pick<TermNote, 'kind' | 'doctor_name' | 'course_code' | 'reason' | 'year' | 'semester'>): string {
  const term = termLabel(note);
  const why = noteReason(note);
  if (note.kind === 'instructor_away') return `${note.doctor_name ?? 'An instructor'} away in ${term}${why}`;
  if (note.kind === 'course_new') return `${note.course_code ?? ''} newly approved for ${term}${why}`;
  return `${note.course_code ?? ''} retired from ${term}${why}`;
}
