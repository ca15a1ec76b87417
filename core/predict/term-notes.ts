import { termLabel } from '../domain/terms';
import { codeParts } from '../domain/codes';
import { noteReason, type TermNote } from '../domain/term-notes';

/**
 * What the notes of a planned term do to one course's recommendation: a retired course is never
 * proposed; a newly approved one is proposed (its enrollment from similar courses, as for any course
 * without history); a course whose every qualified instructor is away drops. Null: no note applies.
 */
export interface NoteVerdict {
  offer: boolean;
  reason: string;
}

export interface TermNoteIndex {
  retired: Map<string, TermNote>;
  approved: Map<string, TermNote>;
  away: Map<number, TermNote>;
}

export function indexNotes(notes: readonly TermNote[]): TermNoteIndex {
  const index: TermNoteIndex = { retired: new Map(), approved: new Map(), away: new Map() };
  for (const note of notes) {
    if (note.kind === 'course_retired' && note.course_code) index.retired.set(note.course_code, note);
    else if (note.kind === 'course_new' && note.course_code) index.approved.set(note.course_code, note);
    else if (note.kind === 'instructor_away' && note.doctor_id !== null) index.away.set(note.doctor_id, note);
  }
  return index;
}

/** The note naming the course, by its code or any code of a cross-listed course. */
function noteFor(notes: ReadonlyMap<string, TermNote>, code: string): TermNote | undefined {
  return (
    notes.get(code) ??
    codeParts(code)
      .map((p) => notes.get(`${p.prefix}${p.number}`))
      .find((n) => n !== undefined)
  );
}

/** `qualified`: the instructors who may teach the course (none known: the faculty list says nothing of it). */
export function noteVerdict(code: string, index: TermNoteIndex, qualified: readonly { id: number; name: string }[]): NoteVerdict | null {
  const retired = noteFor(index.retired, code);
  if (retired) return { offer: false, reason: `Retired from ${termLabel(retired)}${noteReason(retired)}: never proposed` };
  const approved = noteFor(index.approved, code);
  if (approved)
    return { offer: true, reason: `Newly approved for ${termLabel(approved)}${noteReason(approved)}: proposed, expecting the enrollment of similar courses` };
  if (qualified.length > 0 && qualified.every((d) => index.away.has(d.id))) {
    const first = index.away.get(qualified[0]?.id ?? -1) as TermNote;
    const names = qualified.map((d) => d.name).join(', ');
    const only = qualified.length === 1 ? `Its only qualified instructor, ${names}, is` : `All its qualified instructors (${names}) are`;
    return { offer: false, reason: `${only} away in ${termLabel(first)}${qualified.length === 1 ? noteReason(first) : ''}: dropped` };
  }
  return null;
}
