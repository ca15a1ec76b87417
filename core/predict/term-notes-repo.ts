import type { Db } from '../db/connection';
import type { TermNote, TermNoteKind } from '../domain/term-notes';

type NoteRow = Omit<TermNote, 'doctor_name'>;

/** A term's notes, in the order they were recorded (instructors' names are added by the service). */
export function termNoteRows(db: Db, year: number, semester: string): NoteRow[] {
  return db.prepare<[number, string], NoteRow>('SELECT id, year, semester, kind, doctor_id, course_code, reason, created_at FROM term_notes WHERE year = ? AND semester = ? ORDER BY id').all(year, semester);
}

export function termNoteRow(db: Db, id: number): NoteRow | undefined {
  return db.prepare<[number], NoteRow>('SELECT id, year, semester, kind, doctor_id, course_code, reason, created_at FROM term_notes WHERE id = ?').get(id);
}

/** Records a note; the same note twice for a term updates its reason. Answers its id. */
export function saveTermNote(db: Db, note: { year: number; semester: string; kind: TermNoteKind; doctor_id: number | null; course_code: string | null; reason: string | null }, at: string): number {
  return Number(
    db
      .prepare<[number, string, string, number | null, string | null, string | null, string], { id: number }>(
        `INSERT INTO term_notes (year, semester, kind, doctor_id, course_code, reason, created_at) VALUES (?, ?, ?, ?, ?, ?, ?)
         ON CONFLICT (year, semester, kind, IFNULL(doctor_id, 0), IFNULL(course_code, '')) DO UPDATE SET reason = excluded.reason
         RETURNING id`,
      )
      .get(note.year, note.semester, note.kind, note.doctor_id, note.course_code, note.reason, at)?.id,
  );
}

export function deleteTermNote(db: Db, id: number): boolean {
  return db.prepare('DELETE FROM term_notes WHERE id = ?').run(id).changes > 0;
}
