import type { CoreContext } from '../context';
import type { ChangeOperation, MeetingState } from '../domain/meeting-changes';
import type { Term } from '../domain/terms';
import { TBD_ROOM } from '../domain/meetings';
import { CHECKED_ROLE } from '../domain/roles';
import { inTransaction } from '../db/transactions';
import { takeLocks } from '../db/locks';
import type { Booking } from './conflicts';
import { changeOf, meetingStates, recordTermChanges, untimedStates } from './record-changes';
import { termLocks } from './locks';
import { withoutNewClashes } from './recheck';
import { clearClashes, lockedEntries, updateEntry, type EntryRow } from './repo';
import type { ScheduleEntry } from './schema';
import { insertCheckedEntry } from './service';
import { campusTerm } from './term-bookings';
import { termForWrite } from './terms';
import { removeUntimedSections } from './untimed-writes';
import { listUntimedSections, type UntimedSectionRow } from './untimed-repo';

/** The timetable a draft was made from, as read again under the term's lock when it is stored. */
export interface DraftBasis {
  own: readonly EntryRow[];
  taken: readonly Booking[];
  locked: ReadonlySet<number>;
  untimed: readonly UntimedSectionRow[];
}

/** A section a draft gives a time (its place and what it keeps, as a meeting's state names them): stored as a checked write of its own. */
export type DraftSection = Pick<
  MeetingState,
  'course_code' | 'section_name' | 'day' | 'start_time' | 'duration_mins' | 'room' | 'part_of_term' | 'joint_group' | 'campus'
> & {
  /** With `placesUntimed`: the id of the term's section without a time this places. */
  id: number;
  instructor_ids: readonly number[];
};

/** A draft of a term's timetable made elsewhere (auto-fill), to be stored through the timetable's own rules. */
export interface DraftToStore {
  term: Term;
  /** Meetings of the term moved to a new time or room. */
  moved: readonly { id: number; day: string; start_time: string; duration_mins: number; room: string }[];
  placed: readonly DraftSection[];
  /** Whether `placed` gives the term's sections without a time their time (each becomes its meeting, its history kept). */
  placesUntimed: boolean;
  /** Refuses (throws) when the timetable read under the lock is no longer the one the draft was made from. */
  checkBasis: (basis: DraftBasis) => void;
  /** How the history names these changes. */
  operation: ChangeOperation;
  /** How a refusal names the write ("Applying the auto-fill draft"). */
  what: string;
}

/**
 * Stores a draft, all or nothing, under the term's lock: the moves with no clash the timetable did
 * not have, then each placed section as a checked write (its section without a time removed), every
 * change recorded in the term's history.
 */
export async function storeTermDraft(
  ctx: CoreContext,
  draft: DraftToStore,
  options: { keepTerm?: Partial<Term> | undefined } = {},
): Promise<{ count: number; stored: ScheduleEntry[] }> {
  return inTransaction(ctx.db, async (db) => {
    const tx: CoreContext = { ...ctx, db };
    await takeLocks(db, termLocks([draft.term]));
    // A write into the current term keeps it as chosen, like any other.
    if (options.keepTerm) await termForWrite(tx, options.keepTerm);
    const { own, taken } = await campusTerm(tx, draft.term);
    const locked = await lockedEntries(
      db,
      own.map((r) => r.id),
    );
    const untimed = await listUntimedSections(db, ctx.department, draft.term);
    draft.checkBasis({ own, taken, locked, untimed });
    await moveMeetings(tx, draft, own);
    // A section without a time given one becomes its meeting: the same id, one change in its history.
    const given = new Map(draft.placesUntimed ? untimed.map((u) => [u.id, u]) : []);
    const givenStates = await untimedStates(tx, [...given.values()]);
    await removeUntimedSections(
      tx,
      draft.placed.flatMap((p) => given.get(p.id) ?? []),
      null,
    );
    const stored: ScheduleEntry[] = [];
    for (const p of draft.placed) {
      const section = given.get(p.id);
      stored.push(
        await insertCheckedEntry(
          tx,
          {
            ...draft.term,
            course_code: p.course_code,
            section_name: p.section_name,
            doctors: p.instructor_ids.map((id) => ({ id, role: CHECKED_ROLE })),
            day: p.day,
            start_time: p.start_time,
            duration_mins: p.duration_mins,
            room: p.room === TBD_ROOM ? null : p.room,
            part_of_term: p.part_of_term,
            joint_group: p.joint_group,
            campus: p.campus,
          },
          draft.operation,
          section ? { uid: section.uid, before: givenStates.get(section.uid) as MeetingState } : undefined,
        ),
      );
    }
    return { count: draft.moved.length + draft.placed.length, stored };
  });
}

/** The draft's moves, refused together if they make a clash the timetable did not have. */
async function moveMeetings(tx: CoreContext, draft: DraftToStore, own: readonly EntryRow[]): Promise<void> {
  const rows = new Map(own.map((r) => [r.id, r]));
  await withoutNewClashes(
    tx,
    draft.what,
    async () => {
      const before = await meetingStates(
        tx,
        draft.moved.map((m) => rows.get(m.id) as EntryRow),
      );
      const changes = [];
      for (const m of draft.moved) {
        const { id, start_min: _start, room_key: _key, ...values } = rows.get(m.id) as EntryRow;
        const after = { ...values, day: m.day, start_time: m.start_time, duration_mins: m.duration_mins, room: m.room };
        await updateEntry(tx.db, id, after);
        await clearClashes(tx.db, id);
        const was = before.get(id);
        if (was)
          changes.push(
            changeOf(draft.operation, was, { ...was, day: after.day, start_time: after.start_time, duration_mins: after.duration_mins, room: after.room }),
          );
      }
      await recordTermChanges(tx, draft.term, changes);
    },
    [draft.term],
  );
}
