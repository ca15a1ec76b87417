import type { CoreContext } from '../context';
import type { Db } from '../db/store';
import { inTransaction } from '../db/transactions';
import { hasCourse } from '../catalog/repo';
import { normaliseCourseCode } from '../domain/codes';
import { fieldError, notFound } from '../domain/errors';
import type { TermNote, TermNoteKind } from '../domain/term-notes';
import { getDoctor, listDoctors } from '../faculty/repo';
import { deleteTermNote, saveTermNote, termNoteRow, termNoteRows } from './term-notes-repo';

/** A planned term's notes, each instructor named. */
export async function termNotes(db: Db, department: number, year: number, semester: string): Promise<TermNote[]> {
  const rows = await termNoteRows(db, department, year, semester);
  const names = rows.some((r) => r.doctor_id !== null) ? new Map((await listDoctors(db, department)).map((d) => [d.id, d.name])) : new Map<number, string>();
  return rows.map((r) => ({ ...r, doctor_name: r.doctor_id === null ? null : (names.get(r.doctor_id) ?? null) }));
}

export interface NewTermNote {
  year: number;
  semester: string;
  kind: TermNoteKind;
  doctor_id?: number | undefined;
  course_code?: string | undefined;
  reason?: string | undefined;
}

/** Records what staff know of a term: an instructor away, a course newly approved or retired. */
export async function addTermNote(ctx: CoreContext, input: NewTermNote): Promise<TermNote> {
  return inTransaction(ctx.db, async (db) => {
    let doctor: number | null = null;
    let course: string | null = null;
    if (input.kind === 'instructor_away') {
      if (input.doctor_id === undefined) throw fieldError('doctor_id', 'name the instructor who is away');
      if (input.course_code !== undefined) throw fieldError('course_code', 'an instructor away names no course');
      if (!(await getDoctor(db, ctx.department, input.doctor_id))) throw notFound(`No doctor with id ${input.doctor_id}`);
      doctor = input.doctor_id;
    } else {
      if (input.doctor_id !== undefined) throw fieldError('doctor_id', 'a course note names no instructor');
      if (input.course_code === undefined) throw fieldError('course_code', 'name the course');
      course = normaliseCourseCode(input.course_code);
      if (course === null) throw fieldError('course_code', `"${input.course_code}" is not a course code`);
      if (!(await hasCourse(db, ctx.department, course)))
        throw notFound(`${course} is not in the course catalog: add it to the catalog first (POST /data/upload/courses)`);
    }
    const reason = input.reason?.trim() ? input.reason.trim() : null;
    const id = await saveTermNote(
      db,
      ctx.department,
      { year: input.year, semester: input.semester, kind: input.kind, doctor_id: doctor, course_code: course, reason },
      ctx.now().toISOString(),
    );
    return (await termNotes(db, ctx.department, input.year, input.semester)).find((n) => n.id === id) as TermNote;
  });
}

export async function removeTermNote(ctx: CoreContext, id: number): Promise<{ status: 'deleted' }> {
  if (!(await termNoteRow(ctx.db, ctx.department, id)) || !(await deleteTermNote(ctx.db, ctx.department, id))) throw notFound(`No term note with id ${id}`);
  return { status: 'deleted' };
}
