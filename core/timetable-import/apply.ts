import type { CoreContext } from '../context';
import { termForWrite } from '../timetable';
import { storeListedCourses } from '../catalog';
import { ensureDepartmentDoctors } from '../faculty';
import { storeListedRooms } from '../rooms';
import { insertEntries } from '../timetable/repo';
import { storeClashes, storePart } from '../timetable';
import type { ImportPlan } from './plan';
import { storeUntimedSections } from '../timetable';
import { changeOf, meetingState, newMeetingUid, recordChangesByTerm } from '../timetable';
import { doctorNames } from '../faculty/repo';
import type { ChangeOperation } from '../domain/meeting-changes';
import type { EntryValues } from '../timetable/repo';

/** Records the meetings a write of many stored, term by term. */
async function recordCreations(ctx: CoreContext, values: readonly EntryValues[], operation: ChangeOperation): Promise<void> {
  const names = await doctorNames(
    ctx.db,
    values.flatMap((v) => v.doctor_ids),
  );
  await recordChangesByTerm(
    ctx,
    values.map((v) => ({ term: v, change: changeOf(operation, null, meetingState(v, names, false)) })),
  );
}

/**
 * Writes an import's plan: parts of term, courses, instructors and rooms first, then every
 * meeting and the clashes it keeps. The caller holds the transaction; the plan was checked
 * against the database as read in that same transaction, so nothing can slip in between.
 */
export async function applyImportPlan(ctx: CoreContext, plan: ImportPlan, operation: ChangeOperation): Promise<void> {
  // Meetings written keep the current term as chosen, as every write does (see termForWrite).
  if (plan.meetings.length > 0) await termForWrite(ctx, {});
  for (const { term, part } of plan.parts) await storePart(ctx, term, part);
  await storeListedCourses(ctx, plan.courses);
  // New to the department: a person of the campus (another department's instructor) or a new one.
  const created = await ensureDepartmentDoctors(
    ctx,
    plan.doctors.map((d) => d.record),
  );
  const doctorId = new Map<number, number>(plan.doctors.map(({ standIn }, i) => [standIn, created[i] as number]));
  // New rooms join the department's rooms; only the registrar adds to the campus pool.
  await storeListedRooms(ctx, plan.rooms);
  const values = plan.meetings.map((meeting) => ({
    ...meeting.values,
    uid: newMeetingUid(),
    doctor_ids: meeting.values.doctor_ids.map((id) => (id < 0 ? (doctorId.get(id) as number) : id)),
  }));
  const ids = await insertEntries(ctx.db, values, ctx.now().toISOString());
  await recordCreations(ctx, values, operation);
  const clashes = plan.meetings.flatMap((meeting, i) => {
    const id = ids[i] as number;
    return meeting.clashes.map((clash) => ({
      entry_id: id,
      other_id: clash.with === null ? id : 'entry' in clash.with ? clash.with.entry : (ids[clash.with.planned] as number),
      detail: clash.detail,
    }));
  });
  await storeClashes(ctx, clashes);
  const standIn = (id: number): number => (id < 0 ? (doctorId.get(id) as number) : id);
  await storeUntimedSections(
    ctx,
    plan.untimed.map((u) => ({ ...u, doctor_ids: u.doctor_ids.map(standIn) })),
    operation,
  );
}
