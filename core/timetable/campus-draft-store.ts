import { randomUUID } from 'node:crypto';
import type { CoreContext } from '../context';
import { CoreError } from '../domain/errors';
import type { ChangeOperation } from '../domain/meeting-changes';
import type { Term } from '../domain/terms';
import { inTransaction } from '../db/transactions';
import { takeLocks } from '../db/locks';
import { changeOf, meetingStates, recordTermChanges } from './record-changes';
import { termLocks } from './locks';
import { termClashes } from './recheck';
import { clearClashes, listEntries, lockedEntries, updateEntry, type EntryRow } from './repo';
import { deleteStoredEntry } from './service';
import { wholeCampusTerm } from './term-bookings';
import { leaveWithoutTime } from './untimed-writes';

/**
 * Stores a campus draft (the registrar's auto-fill of every department at once), all or nothing,
 * under the term's lock: the timetable read again and checked against the draft's basis, each
 * department's moves and meetings left without a time written and recorded in that department's
 * history as one batch, then the whole campus checked: a clash the campus did not have refuses it all.
 */

/** A campus draft to store: the meetings it moves and those it leaves without a time, of every department. */
export interface CampusDraftToStore {
  term: Term;
  moved: readonly { id: number; day: string; start_time: string; duration_mins: number; room: string }[];
  /** Meetings that lose their time (each becomes its section's section without a time). */
  madeUntimed: readonly number[];
  /** Refuses (throws) when the timetable read under the lock is no longer the one the draft was made from. */
  checkBasis: (rows: readonly EntryRow[], locked: ReadonlySet<number>) => void;
  operation: ChangeOperation;
  /** How a refusal names the write. */
  what: string;
}

/** Clashes named in a refusal; the rest are counted. */
const NAMED = 5;

/** Every clash among the term's meetings, across every department: key → words. */
async function campusClashes(tx: CoreContext, term: Term): Promise<Map<string, string>> {
  const campus = await wholeCampusTerm(tx, term);
  return new Map([...termClashes(campus.bookings, [], campus.doctors, { travelMinutes: campus.travelMinutes })].map(([key, clash]) => [key, clash.detail]));
}

/** Stores the draft; answers the meetings changed, by department id. */
export async function storeCampusDraft(ctx: CoreContext, draft: CampusDraftToStore): Promise<Map<number, number>> {
  return inTransaction(ctx.db, async (db) => {
    const tx: CoreContext = { ...ctx, db };
    await takeLocks(db, termLocks([draft.term]));
    const rows = await listEntries(db, null, draft.term);
    const locked = await lockedEntries(
      db,
      rows.map((r) => r.id),
    );
    draft.checkBasis(rows, locked);
    const before = await campusClashes(tx, draft.term);
    const rowOf = new Map(rows.map((r) => [r.id, r]));
    const departments = new Set(
      [...draft.moved.map((m) => rowOf.get(m.id)), ...draft.madeUntimed.map((id) => rowOf.get(id))].flatMap((r) => (r ? [r.department_id] : [])),
    );
    const changed = new Map<number, number>();
    for (const department of departments) {
      // One batch of the department's own history for its part.
      const mine: CoreContext = { ...tx, department, batch: randomUUID() };
      const moves = draft.moved.filter((m) => rowOf.get(m.id)?.department_id === department);
      const states = await meetingStates(
        mine,
        moves.map((m) => rowOf.get(m.id) as EntryRow),
      );
      const changes = [];
      for (const m of moves) {
        const { id, start_min: _start, room_key: _key, ...values } = rowOf.get(m.id) as EntryRow;
        await updateEntry(db, id, { ...values, day: m.day, start_time: m.start_time, duration_mins: m.duration_mins, room: m.room });
        await clearClashes(db, id);
        const was = states.get(id);
        if (was) changes.push(changeOf(draft.operation, was, { ...was, day: m.day, start_time: m.start_time, duration_mins: m.duration_mins, room: m.room }));
      }
      await recordTermChanges(mine, draft.term, changes);
      const leaving = draft.madeUntimed.flatMap((id) => {
        const row = rowOf.get(id);
        return row?.department_id === department ? [row] : [];
      });
      for (const row of leaving) {
        const was = await deleteStoredEntry(mine, row, null);
        if (was) await leaveWithoutTime(mine, row, was, draft.operation);
      }
      changed.set(department, moves.length + leaving.length);
    }
    const added = [...(await campusClashes(tx, draft.term))].filter(([key]) => !before.has(key)).map(([, detail]) => detail);
    if (added.length > 0) {
      const more = added.length > NAMED ? `; and ${added.length - NAMED} more` : '';
      throw new CoreError('conflict', `${draft.what} would break the timetable's rules, so nothing was changed: ${added.slice(0, NAMED).join('; ')}${more}.`, {
        conflicts: added.slice(0, 50),
      });
    }
    return changed;
  });
}
