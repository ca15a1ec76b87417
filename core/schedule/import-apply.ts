import type { CoreContext } from '../context';
import { upsertCourses } from '../catalog/repo';
import { insertDoctor } from '../faculty/repo';
import { upsertRooms } from '../rooms/repo';
import { insertClash, insertEntry, upsertPart } from './repo';
import type { ImportPlan } from './import-plan';

/**
 * Writes an import's plan: parts of term, courses, instructors and rooms first, then every
 * meeting and the clashes it keeps. The caller holds the transaction; the plan was checked
 * against the database as read in that same transaction, so nothing can slip in between.
 */
export function applyImportPlan(ctx: CoreContext, plan: ImportPlan): void {
  for (const { term, part } of plan.parts) upsertPart(ctx.db, term, part);
  upsertCourses(ctx.db, plan.courses);
  const doctorId = new Map<number, number>();
  for (const { standIn, record } of plan.doctors) doctorId.set(standIn, insertDoctor(ctx.db, record).id);
  upsertRooms(ctx.db, plan.rooms);
  const createdAt = ctx.now().toISOString();
  const ids: number[] = [];
  for (const meeting of plan.meetings) {
    const values = { ...meeting.values, doctor_ids: meeting.values.doctor_ids.map((id) => (id < 0 ? (doctorId.get(id) as number) : id)) };
    const id = insertEntry(ctx.db, values, createdAt);
    ids.push(id);
    for (const clash of meeting.clashes) {
      const other = clash.with === null ? id : 'entry' in clash.with ? clash.with.entry : (ids[clash.with.planned] as number);
      insertClash(ctx.db, id, other, clash.detail);
    }
  }
}
