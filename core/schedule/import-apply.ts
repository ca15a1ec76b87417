import type { CoreContext } from '../context';
import { upsertCourses } from '../catalog/repo';
import { ensureDoctors } from '../faculty/repo';
import { upsertRooms } from '../rooms/repo';
import { insertClashes, insertEntries, upsertPart } from './repo';
import type { ImportPlan } from './import-plan';
import { upsertUnscheduled } from './unscheduled-repo';

/**
 * Writes an import's plan: parts of term, courses, instructors and rooms first, then every
 * meeting and the clashes it keeps. The caller holds the transaction; the plan was checked
 * against the database as read in that same transaction, so nothing can slip in between.
 */
export async function applyImportPlan(ctx: CoreContext, plan: ImportPlan): Promise<void> {
  for (const { term, part } of plan.parts) await upsertPart(ctx.db, ctx.department, term, part);
  await upsertCourses(ctx.db, ctx.department, plan.courses);
  // New to the department: a person of the campus (another department's instructor) or a new one.
  const created = await ensureDoctors(
    ctx.db,
    ctx.department,
    plan.doctors.map((d) => d.record),
  );
  const doctorId = new Map<number, number>(plan.doctors.map(({ standIn }, i) => [standIn, created[i] as number]));
  await upsertRooms(ctx.db, null, plan.rooms);
  const values = plan.meetings.map((meeting) => ({
    ...meeting.values,
    doctor_ids: meeting.values.doctor_ids.map((id) => (id < 0 ? (doctorId.get(id) as number) : id)),
  }));
  const ids = await insertEntries(ctx.db, values, ctx.now().toISOString());
  const clashes = plan.meetings.flatMap((meeting, i) => {
    const id = ids[i] as number;
    return meeting.clashes.map((clash) => ({
      entry_id: id,
      other_id: clash.with === null ? id : 'entry' in clash.with ? clash.with.entry : (ids[clash.with.planned] as number),
      detail: clash.detail,
    }));
  });
  await insertClashes(ctx.db, clashes);
  const standIn = (id: number): number => (id < 0 ? (doctorId.get(id) as number) : id);
  await upsertUnscheduled(
    ctx.db,
    plan.untimed.map((u) => ({ ...u, doctor_ids: u.doctor_ids.map(standIn) })),
    ctx.now().toISOString(),
  );
}
