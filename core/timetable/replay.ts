import type { CoreContext } from '../context';
import { listDoctors } from '../faculty/repo';
import { ensureDepartmentDoctors } from '../faculty';
import { doctorNameKey } from '../domain/teaching';
import { isUntimed, termOfState, type ChangeOperation, type MeetingState } from '../domain/meeting-changes';
import type { InstructorRole } from '../domain/roles';
import { termKey, type Term } from '../domain/terms';
import { entriesByUids, entryByUid, uidInUse, upsertPart, type EntryRow } from './repo';
import { withoutNewClashes } from './recheck';
import { CoreError } from '../domain/errors';
import { changeStoredEntry, deleteStoredEntry, storeMeeting } from './service';
import { partsByCode } from './terms';
import { untimedStates } from './record-changes';
import { untimedSectionsByUids, type UntimedSectionRow } from './untimed-repo';
import { putUntimedSection, removeUntimedSections } from './untimed-writes';

/**
 * Brings one meeting to a recorded version through the checked write path: the same rules, locks
 * and history as any write. Undo, publish (the server replaying a laptop's changes) and fetch (a
 * laptop replaying the server's) all write this way, so none of them can store what a booking could not.
 */

/** How a version's instructors are found in this store: by id (this store's own history) or by name (another store's). */
export type InstructorLookup = (state: MeetingState) => Promise<{ id: number; role: InstructorRole }[]>;

/** This store's own versions name its own instructors. */
export const instructorsById: InstructorLookup = (state) => Promise.resolve(state.instructors.map((i) => ({ id: i.id, role: i.role })));

/**
 * Another store's versions name instructors by name: each is the department's instructor of that
 * name, or added to the department (a person of the campus, or new) as an import adds them.
 */
export function instructorsByName(tx: CoreContext): InstructorLookup {
  let known: Map<string, number> | undefined;
  return async (state) => {
    known ??= new Map((await listDoctors(tx.db, tx.department)).map((d) => [doctorNameKey(d.name), d.id]));
    const missing = state.instructors.filter((i) => !known?.has(doctorNameKey(i.name)));
    if (missing.length > 0) {
      const ids = await ensureDepartmentDoctors(
        tx,
        missing.map((i) => ({ name: i.name, allowed_courses: '[]', available_days: null, available_time: null })),
      );
      missing.forEach((i, n) => known?.set(doctorNameKey(i.name), ids[n] as number));
    }
    return state.instructors.map((i) => ({ id: known?.get(doctorNameKey(i.name)) as number, role: i.role }));
  };
}

/** A part of term a version names that the term lacks is added without dates (as a copied term's are). */
async function ensurePart(tx: CoreContext, term: Term, code: string): Promise<void> {
  const parts = await partsByCode(tx, term);
  if (!parts.has(code)) await upsertPart(tx.db, tx.department, term, { code, name: `Part ${code}`, start_date: null, end_date: null });
}

/** What a replay of many meetings read before it began: each meeting (or section without a time) as stored, and the ids other departments hold. */
export interface KnownMeeting {
  current: EntryRow | undefined;
  untimed: UntimedSectionRow | undefined;
  takenElsewhere: boolean;
}

/**
 * Makes the department's meeting `uid` of the term what `target` says (null: deleted), refusing in
 * words what a rule refuses; the caller holds the term and the transaction. Answers whether anything
 * changed. `known` is the meeting as the caller read it under the same lock (a replay of many reads them at once).
 */
export async function applyMeetingState(
  tx: CoreContext,
  term: Term,
  uid: string,
  target: MeetingState | null,
  operation: ChangeOperation,
  instructors: InstructorLookup,
  known?: KnownMeeting,
  /** Meetings (by id) of the same replay whose clashes with this one are checked once all are in (see applyTogether). */
  deferred?: ReadonlySet<number>,
): Promise<boolean> {
  const current = known ? known.current : await entryByUid(tx.db, tx.department, uid);
  const untimed = known ? known.untimed : (await untimedSectionsByUids(tx.db, tx.department, [uid]))[0];
  if (target === null) {
    // A meeting is named by its id and its term: gone from this term, whatever another term holds.
    const here = (row: Term | undefined): boolean => row !== undefined && termKey(row) === termKey(term);
    if (current && here(current)) await deleteStoredEntry(tx, current, operation);
    else if (untimed && here(untimed)) await removeUntimedSections(tx, [untimed], operation);
    return here(current) || here(untimed);
  }
  // The term the version names (a move between terms), else the change's own.
  const where = termOfState(target, term);
  // Another department's meeting holds that id: never found, never overwritten, never named.
  const takenElsewhere = async (): Promise<boolean> => (known ? known.takenElsewhere : await uidInUse(tx.db, uid));
  if (!current && !untimed && (await takenElsewhere()))
    throw new CoreError('invalid', `The meeting id ${uid} is taken by another meeting: this change cannot be replayed here`);
  await ensurePart(tx, where, target.part_of_term);
  const doctors = await instructors(target);
  if (isUntimed(target)) {
    // A section without a time: changed in place, or a meeting of that id whose time is taken away.
    const before = current ? await deleteStoredEntry(tx, current, null) : untimed ? ((await untimedStates(tx, [untimed])).get(untimed.uid) ?? null) : null;
    if (untimed && termKey(untimed) !== termKey(where)) await removeUntimedSections(tx, [untimed], null);
    await putUntimedSection(
      tx,
      where,
      // The id the change names (and was checked above), whatever the version carries.
      { ...target, uid },
      doctors.map((d) => d.id),
      before,
      operation,
    );
    return true;
  }
  const fields = {
    course_code: target.course_code,
    section_name: target.section_name,
    doctors,
    day: target.day,
    start_time: target.start_time,
    duration_mins: target.duration_mins,
    room: target.room,
    part_of_term: target.part_of_term,
    joint_group: target.joint_group,
    campus: target.campus,
  };
  if (current) {
    await changeStoredEntry(tx, current, { ...where, ...fields, locked: target.locked }, operation, deferred);
    return true;
  }
  // A section without a time given one becomes the meeting of its id: one change, from one to the other.
  let before: MeetingState | null = null;
  if (untimed) {
    before = (await untimedStates(tx, [untimed])).get(untimed.uid) ?? null;
    await removeUntimedSections(tx, [untimed], null);
  }
  await storeMeeting(tx, { ...where, ...fields }, 'refuse', { operation, uid, locked: target.locked, before }, deferred);
  return true;
}

/**
 * Applies versions of several meetings that need one another's places (two meetings swapping their
 * times, a rotation of rooms), which one by one the rules refuse: each is checked against the rest
 * of the timetable as it goes, and against the others of the group once all are in, so nothing is
 * stored that a booking could not store. The caller holds the term and a savepoint to roll back to.
 */
export async function applyTogether<T>(
  tx: CoreContext,
  term: Term,
  what: string,
  items: readonly T[],
  uidOf: (item: T) => string,
  apply: (item: T, deferred: ReadonlySet<number>) => Promise<boolean>,
): Promise<number> {
  const ids = new Set((await entriesByUids(tx.db, tx.department, items.map(uidOf))).map((row) => row.id));
  return withoutNewClashes(
    tx,
    what,
    async () => {
      let applied = 0;
      for (const item of items) if (await apply(item, ids)) applied++;
      return applied;
    },
    [term],
  );
}
