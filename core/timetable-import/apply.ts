import type { CoreContext } from '../context';
import { newMeetingUid, storeListedMeetings, storePart, storeUntimedSections, termForWrite } from '../timetable';
import { storeListedCourses } from '../catalog';
import { ensureDepartmentDoctors } from '../faculty';
import { storeListedRooms } from '../rooms';
import type { ImportPlan } from './plan';
import type { ChangeOperation } from '../domain/meeting-changes';

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
  // A doctor the plan adds has a negative stand-in id until it is written.
  const standIn = (id: number): number => (id < 0 ? (doctorId.get(id) as number) : id);
  await storeListedMeetings(
    ctx,
    plan.meetings.map(({ values, clashes }) => ({ values: { ...values, uid: newMeetingUid(), doctor_ids: values.doctor_ids.map(standIn) }, clashes })),
    operation,
  );
  await storeUntimedSections(
    ctx,
    plan.untimed.map((u) => ({ ...u, doctor_ids: u.doctor_ids.map(standIn) })),
    operation,
  );
}
