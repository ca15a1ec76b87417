import type { CoreContext } from '../context';
import { doctorNames } from '../faculty/repo';
import { sameMeeting, type ChangeOperation, type MeetingState } from '../domain/meeting-changes';
import { termKey, type Term } from '../domain/terms';
import { changeOf, newMeetingUid, recordChangesByTerm, recordTermChanges, untimedState, untimedStates } from './record-changes';
import type { ChangeRecord } from './changes-repo';
import { deleteUntimedSections, listUntimedSections, upsertUntimedSections, type UntimedSectionRow, type UntimedSectionValues } from './untimed-repo';
import type { EntryRow } from './repo';
import { roomKey } from '../domain/meetings';

/**
 * Writes of sections without a time (a registrar's online or arranged rows), each recorded in the
 * term's history like a meeting's: an import adds or changes them, publishing a whole listing
 * removes a term's, auto-fill gives them a time, and undo, publish and fetch bring one to a version.
 */

/** A section as a write gives it, before it has an id. */
export type UntimedInput = Omit<UntimedSectionValues, 'uid'>;

const sectionKey = (s: Pick<UntimedSectionRow, 'year' | 'semester' | 'course_code' | 'section_name'>): string =>
  `${termKey(s)}|${s.course_code}\u0000${s.section_name}`;

async function namesOf(ctx: CoreContext, sections: readonly Pick<UntimedSectionRow, 'doctor_ids'>[]): Promise<Map<number, string>> {
  return doctorNames(
    ctx.db,
    sections.flatMap((s) => s.doctor_ids),
  );
}

/**
 * Stores a listing's sections without a time in the caller's transaction: a section already listed is
 * changed (keeping its id), a new one added; each that changed is recorded.
 */
export async function storeUntimedSections(ctx: CoreContext, sections: readonly UntimedInput[], operation: ChangeOperation): Promise<void> {
  if (sections.length === 0) return;
  const terms = new Map<string, Term>();
  for (const s of sections) terms.set(termKey(s), { year: s.year, semester: s.semester });
  const stored = new Map<string, UntimedSectionRow>();
  for (const term of terms.values()) for (const s of await listUntimedSections(ctx.db, ctx.department, term)) stored.set(sectionKey(s), s);
  const values: UntimedSectionValues[] = sections.map((s) => ({ ...s, uid: stored.get(sectionKey(s))?.uid ?? newMeetingUid() }));
  await upsertUntimedSections(ctx.db, values, ctx.now().toISOString());
  const names = await namesOf(ctx, [...values, ...stored.values()]);
  const changes: { term: Term; change: ChangeRecord }[] = [];
  for (const v of values) {
    const was = stored.get(sectionKey(v));
    const before = was ? untimedState(was, names) : null;
    const after = untimedState(v, names);
    if (!sameMeeting(before, after)) changes.push({ term: v, change: changeOf(operation, before, after) });
  }
  await recordChangesByTerm(ctx, changes);
}

/**
 * Removes sections without a time in the caller's transaction and records each as deleted; with no
 * operation, records nothing (each becomes the meeting of the same id that the write stores and
 * records next: auto-fill giving it a time).
 */
export async function removeUntimedSections(ctx: CoreContext, sections: readonly UntimedSectionRow[], operation: ChangeOperation | null): Promise<void> {
  if (sections.length === 0) return;
  await deleteUntimedSections(
    ctx.db,
    ctx.department,
    sections.map((s) => s.id),
  );
  if (operation === null) return;
  const states = await untimedStates(ctx, sections);
  await recordChangesByTerm(
    ctx,
    sections.map((s) => ({ term: s, change: changeOf(operation, states.get(s.uid) ?? null, null) })),
  );
}

/**
 * Brings the section `target.uid` to a version without a time, in the caller's transaction: added, or
 * changed in place. `before` is what history records it was (null: new; a meeting's version when a
 * meeting of that id was taken away just before).
 */
export async function putUntimedSection(
  ctx: CoreContext,
  term: Term,
  target: MeetingState,
  doctorIds: readonly number[],
  before: MeetingState | null,
  operation: ChangeOperation,
): Promise<void> {
  const values: UntimedSectionValues = {
    department_id: ctx.department,
    ...term,
    course_code: target.course_code,
    section_name: target.section_name,
    doctor_ids: [...doctorIds],
    part_of_term: target.part_of_term,
    joint_group: target.joint_group,
    room: target.room === 'TBD' ? null : target.room,
    // The same campus rule as a meeting's: one of the campuses the department plans for.
    campus: ctx.campuses.require(target.campus, 'campus'),
    kind: target.kind ?? null,
    uid: target.uid,
  };
  const stored = await listUntimedSections(ctx.db, ctx.department, term);
  // The section listed under that course and section by another id gives way (one row per section).
  await removeUntimedSections(
    ctx,
    stored.filter((s) => s.course_code === values.course_code && s.section_name === values.section_name && s.uid !== values.uid),
    operation,
  );
  await deleteUntimedSections(
    ctx.db,
    ctx.department,
    stored.filter((s) => s.uid === values.uid).map((s) => s.id),
  );
  await upsertUntimedSections(ctx.db, [values], ctx.now().toISOString());
  const names = await namesOf(ctx, [values]);
  const after = untimedState(values, names);
  if (!sameMeeting(before, after)) await recordTermChanges(ctx, term, [changeOf(operation, before, after)]);
}

/**
 * Takes the time away from a stored meeting (already deleted by the caller, its version `before`):
 * it becomes its section's section without a time under the same id, recorded as one change. A
 * section already without a time keeps that one, and the meeting is recorded as deleted.
 */
export async function leaveWithoutTime(ctx: CoreContext, row: EntryRow, before: MeetingState, operation: ChangeOperation): Promise<void> {
  const term = { year: row.year, semester: row.semester };
  const stored = await listUntimedSections(ctx.db, ctx.department, term);
  if (stored.some((s) => s.course_code === row.course_code && s.section_name === row.section_name)) {
    await recordTermChanges(ctx, term, [changeOf(operation, before, null)]);
    return;
  }
  const values: UntimedSectionValues = {
    department_id: row.department_id,
    ...term,
    course_code: row.course_code,
    section_name: row.section_name,
    doctor_ids: [...row.doctor_ids],
    part_of_term: row.part_of_term,
    joint_group: row.joint_group,
    room: roomKey(row.room) === null ? null : row.room,
    campus: row.campus,
    kind: null,
    uid: row.uid,
  };
  await upsertUntimedSections(ctx.db, [values], ctx.now().toISOString());
  const after = untimedState(values, await namesOf(ctx, [values]));
  await recordTermChanges(ctx, term, [changeOf(operation, before, after)]);
}
