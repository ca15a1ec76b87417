import { randomUUID } from 'node:crypto';
import type { Caller, CoreContext } from '../context';
import { makerInWords } from '../domain/people';
import { doctorNames } from '../faculty/repo';
import { CHECKED_ROLE } from '../domain/roles';
import { describeChange, type ChangeOperation, type MeetingState, type TermChange } from '../domain/meeting-changes';
import { termKey, type Semester, type Term } from '../domain/terms';
import { lockedEntries, type EntryRow, type EntryValues } from './repo';
import { recordChanges, type ChangeRecord, type ChangeStamp, type StoredChange } from './changes-repo';
import type { UntimedSectionRow } from './untimed-repo';
import { personNames } from '../people';

/**
 * The record every timetable write keeps: one change per meeting it changed, in the write's own
 * transaction, with who, when, the operation and the meeting's values before and after. Every
 * write path of the schedule (a booking, an edit, a delete, a lock, an import, a copy, an auto-fill
 * apply, a publish, a fetch, an undo) records through here.
 */

/** A new meeting's id across stores. */
export const newMeetingUid = (): string => randomUUID().replaceAll('-', '');

/** Who the current call acts for, when, and the batch its changes belong to (one per call). */
export function stampOf(ctx: CoreContext, operation?: ChangeOperation): ChangeStamp {
  return {
    department: ctx.department,
    at: ctx.now().toISOString(),
    person_id: ctx.actor.person,
    token_label: ctx.actor.token_label ?? null,
    caller: ctx.caller,
    batch: ctx.batch ?? randomUUID(),
    origin: operation === 'fetch' ? 'server' : 'local',
  };
}

/** A meeting's values as history keeps them, its term with them; `names` gives each instructor's name. */
export function meetingState(row: Omit<EntryValues, 'department_id'>, names: ReadonlyMap<number, string>, locked: boolean): MeetingState {
  return {
    year: row.year,
    semester: row.semester,
    uid: row.uid,
    course_code: row.course_code,
    section_name: row.section_name,
    day: row.day,
    start_time: row.start_time,
    duration_mins: row.duration_mins,
    room: row.room,
    part_of_term: row.part_of_term,
    joint_group: row.joint_group,
    campus: row.campus,
    instructors: row.doctor_ids.map((id, i) => ({ id, name: names.get(id) ?? `instructor ${id}`, role: row.doctor_roles[i] ?? CHECKED_ROLE })),
    locked,
  };
}

/** A section without a time as history keeps it: a meeting's version with no day, start or length. */
export function untimedState(section: Omit<UntimedSectionRow, 'id' | 'department_id'>, names: ReadonlyMap<number, string>): MeetingState {
  return {
    year: section.year,
    semester: section.semester,
    uid: section.uid,
    course_code: section.course_code,
    section_name: section.section_name,
    day: '',
    start_time: '',
    duration_mins: 0,
    room: section.room ?? 'TBD',
    part_of_term: section.part_of_term,
    joint_group: section.joint_group,
    campus: section.campus,
    instructors: section.doctor_ids.map((id) => ({ id, name: names.get(id) ?? `instructor ${id}`, role: CHECKED_ROLE })),
    locked: false,
    kind: section.kind,
  };
}

/** The states of sections without a time, their instructors' names read at once, by uid. */
export async function untimedStates(ctx: CoreContext, sections: readonly UntimedSectionRow[]): Promise<Map<string, MeetingState>> {
  const names = await doctorNames(
    ctx.db,
    sections.flatMap((s) => s.doctor_ids),
  );
  return new Map(sections.map((s) => [s.uid, untimedState(s, names)]));
}

/** The states of stored meetings, their instructors' names and locks read at once (for writes of many meetings). */
export async function meetingStates(ctx: CoreContext, rows: readonly EntryRow[]): Promise<Map<number, MeetingState>> {
  const names = await doctorNames(
    ctx.db,
    rows.flatMap((r) => r.doctor_ids),
  );
  const locked = await lockedEntries(
    ctx.db,
    rows.map((r) => r.id),
  );
  return new Map(rows.map((r) => [r.id, meetingState(r, names, locked.has(r.id))]));
}

/** The operation a change of one meeting is, from what changed: a move (day or time only), a lock, an edit. */
export function operationOf(before: MeetingState, after: MeetingState): ChangeOperation {
  const { day: _d, start_time: _s, locked: beforeLocked, ...restBefore } = before;
  const { day: _d2, start_time: _s2, locked: afterLocked, ...restAfter } = after;
  const sameRest = JSON.stringify(restBefore) === JSON.stringify(restAfter);
  const moved = before.day !== after.day || before.start_time !== after.start_time;
  if (sameRest && !moved && beforeLocked !== afterLocked) return afterLocked ? 'lock' : 'unlock';
  if (sameRest && moved && beforeLocked === afterLocked) return 'move';
  return 'edit';
}

/** A change of one meeting, as recorded. */
export function changeOf(operation: ChangeOperation, before: MeetingState | null, after: MeetingState | null): ChangeRecord {
  const any = (after ?? before) as MeetingState;
  return { operation, uid: any.uid, course_code: any.course_code, section_name: any.section_name, before, after };
}

/** Records a write's changes of one term in the write's transaction. */
export async function recordTermChanges(ctx: CoreContext, term: Term, records: readonly ChangeRecord[], operation?: ChangeOperation): Promise<void> {
  await recordChanges(ctx.db, stampOf(ctx, operation ?? records[0]?.operation), term, records);
}

/** Records a write's changes of several terms (an import's, say), term by term. */
export async function recordChangesByTerm(ctx: CoreContext, changes: readonly { term: Term; change: ChangeRecord }[]): Promise<void> {
  const byTerm = new Map<string, { term: Term; changes: ChangeRecord[] }>();
  for (const { term, change } of changes) {
    const key = termKey(term);
    const known = byTerm.get(key) ?? { term, changes: [] };
    known.changes.push(change);
    byTerm.set(key, known);
  }
  for (const { term, changes: list } of byTerm.values()) await recordTermChanges(ctx, term, list);
}

/** A recorded version as stored (JSON), or null: not stored, or unreadable (a damaged backup). */
export const parseState = (text: string | null): MeetingState | null => {
  if (text === null) return null;
  try {
    return JSON.parse(text) as MeetingState;
  } catch {
    return null;
  }
};

/** Who made a change, in words (see makerInWords). */
function whoOf(ctx: CoreContext, row: StoredChange, names: ReadonlyMap<number, string>): string {
  const name = row.person_id === null ? null : (names.get(row.person_id) ?? `person ${row.person_id}`);
  return makerInWords({ name, token_label: row.token_label, caller: row.caller as Caller, campus: ctx.access?.campus ?? false });
}

/** Stored changes as answered: with who in words, the values and the change in words. */
export async function changesInWords(ctx: CoreContext, rows: readonly StoredChange[]): Promise<TermChange[]> {
  const names = await personNames(ctx.db, [...new Set(rows.flatMap((r) => (r.person_id === null ? [] : [r.person_id])))]);
  return rows.map((row) => {
    const before = parseState(row.before_value);
    const after = parseState(row.after_value);
    const operation = row.operation as ChangeOperation;
    return {
      id: row.id,
      year: row.year,
      semester: row.semester as Semester,
      revision: row.revision,
      batch: row.batch,
      operation,
      meeting_uid: row.meeting_uid,
      course_code: row.course_code,
      section_name: row.section_name,
      who: whoOf(ctx, row, names),
      person_id: row.person_id,
      at: row.changed_at,
      before,
      after,
      summary: describeChange(operation, before, after),
    };
  });
}
