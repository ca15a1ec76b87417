import { createHash } from 'node:crypto';
import type { CoreContext } from '../context';
import { CoreError } from '../domain/errors';
import { formatHHMM } from '../domain/time';
import type { Term } from '../domain/terms';
import { displayRoom, roomKey } from '../domain/meetings';
import { listDoctors } from '../faculty/repo';
import { declaredRooms } from '../rooms/repo';
import { expectedSectionSizes } from '../predict/runs-repo';
import { inTransaction } from '../db/transactions';
import { takeLocks } from '../db/locks';
import { campusTerm, courseCohorts, termLocks, travelMinutes, type Booking } from '../schedule';
import { clearClashes, lockedEntries, updateEntry, type EntryRow } from '../schedule/repo';
import { withoutNewClashes } from '../schedule/recheck';
import { solveInWorker } from '../solver/run';
import { STANDARD_SLOTS, type Slot } from './grid';
import { SCALE } from './model-scale';
import { termClashKeys, termDraftModel, type DraftMove } from './term-model';

/**
 * Auto-fill of a whole term (source "term"): the department's meetings that are not locked are
 * re-timed (and re-roomed among the declared rooms that seat them) by the timetabling solver, from
 * today's timetable or from nothing (rebuild). The draft is checked by the write path's own rules
 * before it is answered; a meeting the model let clash stays where it is, with the reason.
 */
export interface TermDraftInput {
  rebuild: boolean;
  seed: number;
  time_budget_ms: number;
  dry_run: boolean;
  slots?: Slot[] | undefined;
}

/** A meeting the draft moves: where it goes, and where it was. */
export interface MovedMeeting {
  id: number;
  course_code: string;
  section_name: string;
  day: string;
  start_time: string;
  duration_mins: number;
  room: string;
  instructors: string[];
  part_of_term: string;
  joint_group: string | null;
  campus: string;
  was: { day: string; start_time: string; duration_mins: number; room: string };
}

export interface TermDraft {
  term: Term;
  moved: MovedMeeting[];
  /** Meetings the draft could not place: they stay where they are. */
  unplaced: { id: number; course_code: string; section_name: string; reason: string }[];
  /** Meetings taken as they are: locked by staff. */
  locked: number;
  score: { hard_violations: number; soft: { time: number; room: number; distribution: number; total: number } };
  moves: number;
  /** What the draft was made from: applying refuses a term that has changed since. */
  basis: string;
}

/** Moves of the search per meeting it may move: the same draft for the same seed (the time budget only caps it). */
export const TERM_MOVES_PER_MEETING = 400;

/** What a draft of the term rests on, as one digest: the meetings, their instructors and rooms, the locks. */
function basisOf(own: readonly EntryRow[], taken: readonly Booking[], locked: ReadonlySet<number>): string {
  const hash = createHash('sha256');
  for (const r of own)
    hash.update(
      JSON.stringify([
        r.id,
        r.day,
        r.start_time,
        r.duration_mins,
        r.room_key,
        r.doctor_ids,
        r.doctor_roles,
        r.part_of_term,
        r.joint_group,
        r.campus,
        locked.has(r.id),
      ]),
    );
  for (const b of taken) hash.update(JSON.stringify([b.id, b.day, b.start, b.duration, b.roomKey, b.doctor_ids, b.part.code]));
  return hash.digest('hex');
}

export async function draftTermTimetable(ctx: CoreContext, term: Term, input: TermDraftInput): Promise<TermDraft> {
  const { own, ownBookings, taken } = await campusTerm(ctx, term);
  const locked = await lockedEntries(
    ctx.db,
    own.map((r) => r.id),
  );
  const doctors = new Map((await listDoctors(ctx.db, ctx.department)).map((d) => [d.id, d]));
  const rules = { travelMinutes: await travelMinutes(ctx) };
  const sizes = new Map<string, Map<string, number>>();
  for (const campus of new Set(own.map((r) => r.campus)))
    sizes.set(campus, await expectedSectionSizes(ctx.db, ctx.department, term.year, term.semester, campus));
  const movable = own.flatMap((row, i) => (locked.has(row.id) ? [] : [{ id: row.id, booking: ownBookings[i] as Booking }]));
  const fixed = [...ownBookings.filter((b) => locked.has(b.id ?? 0)), ...taken];
  const draft = termDraftModel({
    movable,
    fixed,
    doctors,
    rooms: (await declaredRooms(ctx.db, ctx.department)).map((r) => ({
      name: r.name,
      key: roomKey(r.name) ?? r.name.toLowerCase(),
      capacity: r.capacity,
      campus: r.campus,
    })),
    expected: (campus, course) => sizes.get(campus)?.get(course),
    slots: input.slots ?? STANDARD_SLOTS,
    rebuild: input.rebuild,
    rules,
    cohorts: await courseCohorts(
      ctx,
      term,
      own.map((r) => r.course_code),
    ),
  });
  const result =
    draft.model.classes.length === 0
      ? null
      : await solveInWorker(draft.model, {
          timeBudgetMs: input.time_budget_ms,
          seed: input.seed,
          initial: draft.initial,
          maxIterations: TERM_MOVES_PER_MEETING * draft.model.classes.length,
        }).result;
  const read = result ? draft.read(result.assignment) : { moves: [], unplaced: [] };

  // The write path's rules are the judge: a move that would clash where today's timetable does not stays put.
  const byId = new Map(own.map((r, i) => [r.id, { row: r, booking: ownBookings[i] as Booking }]));
  const reasons = new Map(read.unplaced.map((u) => [u.id, u.reason]));
  let moves = read.moves;
  const before = termClashKeys(ownBookings, taken, doctors, rules);
  for (;;) {
    const at = new Map(moves.map((m) => [m.id, m]));
    const after = ownBookings.map((b) => {
      const move = at.get(b.id ?? 0);
      return move ? { ...b, day: move.day, start: move.start, duration: move.duration, room: displayRoom(move.room), roomKey: roomKey(move.room) } : b;
    });
    const added = [...termClashKeys(after, taken, doctors, rules)].filter(([key]) => !before.has(key));
    const culprits = new Set(added.flatMap(([, clash]) => clash.ids.filter((id) => at.has(id))));
    if (culprits.size === 0) break;
    for (const [, clash] of added)
      for (const id of clash.ids) if (at.has(id)) reasons.set(id, `Moving it would break a rule, so it stays where it is: ${clash.detail}`);
    moves = moves.filter((m) => !culprits.has(m.id));
  }
  const changed = moves.filter((m) => {
    const row = byId.get(m.id)?.row;
    return (
      row !== undefined && (row.day !== m.day || row.start_time !== formatHHMM(m.start) || row.duration_mins !== m.duration || row.room_key !== roomKey(m.room))
    );
  });
  const names = (ids: readonly number[]): string[] => ids.map((id) => doctors.get(id)?.name ?? `#${id}`);
  const score = result?.score ?? { time: 0, room: 0, distribution: 0, total: 0 };
  return {
    term,
    moved: changed.map((m) => movedMeeting(byId.get(m.id)?.row as EntryRow, m, names)),
    unplaced: [...reasons].map(([id, reason]) => {
      const row = byId.get(id)?.row as EntryRow;
      return { id, course_code: row.course_code, section_name: row.section_name, reason };
    }),
    locked: locked.size,
    score: {
      hard_violations: 0,
      soft: { time: score.time / SCALE, room: score.room / SCALE, distribution: score.distribution / SCALE, total: score.total / SCALE },
    },
    moves: result?.iterations ?? 0,
    basis: basisOf(own, taken, locked),
  };
}

function movedMeeting(row: EntryRow, move: DraftMove, names: (ids: readonly number[]) => string[]): MovedMeeting {
  return {
    id: row.id,
    course_code: row.course_code,
    section_name: row.section_name,
    day: move.day,
    start_time: formatHHMM(move.start),
    duration_mins: move.duration,
    room: displayRoom(move.room),
    instructors: names(row.doctor_ids),
    part_of_term: row.part_of_term,
    joint_group: row.joint_group,
    campus: row.campus,
    was: { day: row.day, start_time: row.start_time, duration_mins: row.duration_mins, room: row.room },
  };
}

/**
 * Stores a term draft's moves, all or nothing, through the write path's rules (no clash the
 * timetable did not have), refusing in words a draft made from a timetable that has changed since.
 */
export async function applyTermDraft(ctx: CoreContext, draft: Pick<TermDraft, 'term' | 'moved' | 'basis'>, only?: ReadonlySet<number>): Promise<number> {
  const moves = draft.moved.filter((m) => only === undefined || only.has(m.id));
  return inTransaction(ctx.db, async (db) => {
    const tx: CoreContext = { ...ctx, db };
    await takeLocks(db, termLocks([draft.term]));
    const { own, taken } = await campusTerm(tx, draft.term);
    const locked = await lockedEntries(
      db,
      own.map((r) => r.id),
    );
    if (basisOf(own, taken, locked) !== draft.basis) {
      throw new CoreError(
        'conflict',
        'The timetable has changed since this draft was made (a meeting, an instructor, a room or a lock), so nothing was stored: run auto-fill again',
      );
    }
    const rows = new Map(own.map((r) => [r.id, r]));
    await withoutNewClashes(
      tx,
      'Applying the auto-fill draft',
      async () => {
        for (const m of moves) {
          const { id, start_min: _start, room_key: _key, ...values } = rows.get(m.id) as EntryRow;
          await updateEntry(db, id, { ...values, day: m.day, start_time: m.start_time, duration_mins: m.duration_mins, room: m.room });
          await clearClashes(db, id);
        }
      },
      [draft.term],
    );
    return moves.length;
  });
}
