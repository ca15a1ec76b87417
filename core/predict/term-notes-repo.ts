import type { Db } from '../db/store';
import { isRowId } from '../db/batches';
import type { TermNote, TermNoteKind } from '../domain/term-notes';

type NoteRow = Omit<TermNote, 'doctor_name'>;

const COLUMNS = ['id', 'year', 'semester', 'kind', 'doctor_id', 'course_code', 'reason', 'created_at'] as const;

/** A term's notes, in the order they were recorded (instructors' names are added by the service). */
export async function termNoteRows(db: Db, department: number, year: number, semester: string): Promise<NoteRow[]> {
  return (await db
    .selectFrom('term_notes')
    .select(COLUMNS)
    .where('department_id', '=', department)
    .where('year', '=', year)
    .where('semester', '=', semester)
    .orderBy('id')
    .execute()) as NoteRow[];
}

export async function termNoteRow(db: Db, department: number, id: number): Promise<NoteRow | undefined> {
  if (!isRowId(id)) return undefined;
  return (await db.selectFrom('term_notes').select(COLUMNS).where('department_id', '=', department).where('id', '=', id).executeTakeFirst()) as
    NoteRow | undefined;
}

/** Records a note; the same note twice for a term updates its reason. Answers its id. */
export async function saveTermNote(
  db: Db,
  department: number,
  note: { year: number; semester: string; kind: TermNoteKind; doctor_id: number | null; course_code: string | null; reason: string | null },
  at: string,
): Promise<number> {
  const inserted = await db
    .insertInto('term_notes')
    .values({ ...note, department_id: department, created_at: at })
    .onConflict((oc) => oc.doNothing())
    .returning('id')
    .executeTakeFirst();
  if (inserted) return inserted.id;
  // The same note is there (one per term, kind and instructor or course): its reason changes.
  let same = db
    .selectFrom('term_notes')
    .select('id')
    .where('department_id', '=', department)
    .where('year', '=', note.year)
    .where('semester', '=', note.semester)
    .where('kind', '=', note.kind);
  same = note.doctor_id === null ? same.where('doctor_id', 'is', null) : same.where('doctor_id', '=', note.doctor_id);
  same = note.course_code === null ? same.where('course_code', 'is', null) : same.where('course_code', '=', note.course_code);
  const { id } = await same.executeTakeFirstOrThrow();
  await db.updateTable('term_notes').set({ reason: note.reason }).where('id', '=', id).execute();
  return id;
}

export async function deleteTermNote(db: Db, department: number, id: number): Promise<boolean> {
  if (!isRowId(id)) return false;
  const result = await db.deleteFrom('term_notes').where('department_id', '=', department).where('id', '=', id).executeTakeFirst();
  return result.numDeletedRows > 0n;
}
