import type { CoreContext } from '../context';
import { CoreError, fieldError } from '../domain/errors';
import type { Term } from '../domain/terms';
import { parseHHMM } from '../domain/time';
import { roomKey } from '../domain/meetings';
import { termClashes, type Booking } from '../timetable';
import type { EntryRow } from '../timetable/repo';
import { listDepartments } from '../departments/repo';
import { draftPlaces, ruleAbidingMoves, TERM_MOVES_PER_MEETING, type DraftControl } from './term-draft';
import { runWorker, siblingModule, WorkerLimitError } from '../workers';
import type { SearchProgress } from '../solver';
import type { CampusSearchAnswer, CampusSearchJob } from './campus-worker';
import { SCALE } from './model-scale';
import { campusSummary, type CampusDepartmentPart, type CampusMove } from './campus-summary';
import { campusBasis, readCampus, type CampusReading } from './campus-reading';

export type { CampusDepartmentPart, CampusMove } from './campus-summary';

/**
 * Auto-fill of the whole campus (the registrar's): every named department's meetings of a term that
 * are not locked, moved in one problem over the shared rooms (a department's own rooms only for it)
 * and the instructors' one calendar; locked meetings and departments not named stay as they are.
 * A meeting the search cannot place and that clashes where it is is left without a time when the
 * draft is applied, with the reason: the draft never stores a clash.
 */

/**
 * Moves of the search per meeting of a campus draft (the same seed and moves give the same draft; the
 * time budget caps it): five times a department's, as one search now trades every department's goals.
 */
export const CAMPUS_MOVES_PER_MEETING = 5 * TERM_MOVES_PER_MEETING;

/** Meetings one campus draft moves at most: a large campus's term (150 departments, 10,000 meetings) fits. */
export const MAX_CAMPUS_MEETINGS = 12_000;

export interface CampusDraftInput {
  rebuild: boolean;
  /** Department codes whose meetings move (default: every department). */
  departments?: readonly string[] | undefined;
  seed: number;
  time_budget_ms: number;
  moves?: number | undefined;
  /** How each department's soft goals weigh against the others' (by code; 1 when not given). */
  department_weights?: Readonly<Record<string, number>> | undefined;
}

export interface CampusUnplaced {
  id: number;
  department: string;
  course_code: string;
  section_name: string;
  reason: string;
}

export interface CampusDraft {
  term: Term;
  source: 'campus';
  rebuild: boolean;
  departments: CampusDepartmentPart[];
  moved: CampusMove[];
  /** Meetings the draft leaves without a time (they clash where they are and found no free place). */
  unplaced: CampusUnplaced[];
  locked: number;
  /** Clashes left among meetings the draft may not move (locked, or of departments not named). */
  hard_violations: number;
  score: { soft: { time: number; room: number; distribution: number; total: number } };
  moves: number;
  basis: string;
}

/** Refuses, before any work starts, a department the input names that the campus does not have (422, in words). */
export async function checkCampusInput(ctx: CoreContext, input: Pick<CampusDraftInput, 'departments' | 'department_weights'>): Promise<void> {
  const departments = (await listDepartments(ctx.db)).map((d) => ({ id: d.id, code: d.code, name: d.name }));
  namedDepartments({ departments }, input.departments);
  weightsById({ departments }, input.department_weights);
}

/** The departments a draft moves: those named (each must exist), else every one. */
function namedDepartments(reading: Pick<CampusReading, 'departments'>, codes: readonly string[] | undefined): Set<number> {
  if (codes === undefined) return new Set(reading.departments.map((d) => d.id));
  const byCode = new Map(reading.departments.map((d) => [d.code.toLowerCase(), d.id]));
  const unknown = codes.filter((c) => !byCode.has(c.toLowerCase()));
  if (unknown.length > 0)
    throw fieldError(
      'departments',
      `${unknown.map((c) => `"${c}"`).join(', ')} ${unknown.length === 1 ? 'is not a department' : 'are not departments'} of this campus`,
    );
  return new Set(codes.map((c) => byCode.get(c.toLowerCase()) as number));
}

/** The weight of each department's soft goals, by id (1 unless the registrar chose another). */
function weightsById(
  reading: Pick<CampusReading, 'departments'>,
  weights: CampusDraftInput['department_weights'],
): ((department: number) => number) | undefined {
  if (weights === undefined || Object.keys(weights).length === 0) return undefined;
  const byCode = new Map(reading.departments.map((d) => [d.code.toLowerCase(), d.id]));
  const byId = new Map<number, number>();
  for (const [code, weight] of Object.entries(weights)) {
    const id = byCode.get(code.toLowerCase());
    if (id === undefined) throw fieldError('department_weights', `"${code}" is not a department of this campus`);
    byId.set(id, weight);
  }
  return (department) => byId.get(department) ?? 1;
}

/**
 * Meetings left without a time: while a clash remains that names a meeting the draft may move and
 * did not (it found no free place, or its move broke a rule), the last such meeting it names is
 * taken out of the timetable, with the clash as its reason. Answers the clashes left among meetings
 * it may not move.
 */
function leftWithoutTime(
  after: Booking[],
  taken: readonly Booking[],
  movable: ReadonlySet<number>,
  moved: ReadonlySet<number>,
  reading: CampusReading,
  reasons: Map<number, string>,
): { out: Set<number>; left: number } {
  const out = new Set<number>();
  const rules = { travelMinutes: reading.travel };
  for (;;) {
    const current = after.filter((b) => !out.has(b.id ?? 0));
    const clashes = termClashes(current, taken, reading.doctors, rules);
    let taking = 0;
    let left = 0;
    for (const clash of clashes.values()) {
      if (clash.ids.some((id) => out.has(id))) continue;
      const stays = clash.ids.filter((id) => movable.has(id) && !moved.has(id));
      const culprit = stays[stays.length - 1] ?? clash.ids.filter((id) => movable.has(id)).at(-1);
      if (culprit === undefined) {
        left++;
        continue;
      }
      out.add(culprit);
      taking++;
      const why = reasons.get(culprit);
      reasons.set(
        culprit,
        `${why === undefined ? 'No free time and room were found for it' : why.replace(/;.*$/, '')}; it is left without a time: ${clash.detail}`,
      );
    }
    if (taking === 0) return { out, left };
  }
}

/** Time the campus's thread may take beyond the search's budget (building the model, reading the answer). */
const BUILD_MARGIN_MS = 120_000;
/** The campus's thread's memory at most. */
const CAMPUS_HEAP_MB = 2_048;

/** Builds, searches and reads the campus's model in a thread of its own, followed and stopped through `control`. */
async function searchInWorker(job: Omit<CampusSearchJob, 'cancel'>, control: DraftControl): Promise<CampusSearchAnswer> {
  const cancel = new SharedArrayBuffer(4);
  control.started?.(() => Atomics.store(new Int32Array(cancel), 0, 1));
  try {
    return await runWorker<CampusSearchAnswer>(
      siblingModule(import.meta.url, 'campus-worker'),
      { ...job, cancel },
      {
        ...(control.onProgress ? { onProgress: (value: unknown) => control.onProgress?.(value as SearchProgress) } : {}),
        bounds: { timeoutMs: job.timeBudgetMs + BUILD_MARGIN_MS, maxHeapMb: CAMPUS_HEAP_MB },
      },
    );
  } catch (error) {
    if (!(error instanceof WorkerLimitError)) throw error;
    throw new CoreError(
      'too_large',
      error.limit === 'time'
        ? 'The campus auto-fill did not stop within its budget: name fewer departments, or lock the meetings to keep'
        : `The campus auto-fill needs more than ${CAMPUS_HEAP_MB.toLocaleString('en-US')} MB of memory: name fewer departments, or lock the meetings to keep`,
    );
  }
}

/** The named departments' meetings as the draft would leave them: each moved one at its new day, time and room. */
function bookingsAfter(bookings: readonly Booking[], moved: readonly CampusMove[]): Booking[] {
  const at = new Map(moved.map((m) => [m.id, m]));
  return bookings.map((b) => {
    const move = at.get(b.id ?? 0);
    return move
      ? { ...b, day: move.day, start: parseHHMM(move.start_time) ?? b.start, duration: move.duration_mins, room: move.room, roomKey: roomKey(move.room) }
      : b;
  });
}

/** Drafts the whole campus's term: one search over every named department's meetings (not stored: applied by its id). */
export async function draftCampus(ctx: CoreContext, term: Term, input: CampusDraftInput, control: DraftControl = {}): Promise<CampusDraft> {
  const reading = await readCampus(ctx, term);
  const named = namedDepartments(reading, input.departments);
  const codes = new Map(reading.departments.map((d) => [d.id, d]));
  const isMovable = (row: EntryRow): boolean => named.has(row.department_id) && !reading.locked.has(row.id);
  const movableRows = reading.rows.filter(isMovable);
  if (movableRows.length > MAX_CAMPUS_MEETINGS)
    throw new CoreError(
      'too_large',
      `This campus's term has ${movableRows.length.toLocaleString('en-US')} meetings to move; a campus auto-fill moves at most ${MAX_CAMPUS_MEETINGS.toLocaleString('en-US')} at once: lock the meetings to keep, or name fewer departments`,
    );
  const movable = reading.rows.flatMap((row, i) => (isMovable(row) ? [{ id: row.id, booking: reading.bookings[i] as Booking }] : []));
  const fixed = reading.bookings.filter((_, i) => !isMovable(reading.rows[i] as EntryRow));
  const rules = { travelMinutes: reading.travel };
  const weights = weightsById(reading, input.department_weights);
  const read = await searchInWorker(
    {
      movable,
      fixed,
      doctors: [...reading.doctors],
      rooms: reading.rooms,
      sizes: [...reading.sizes],
      cohorts: [...reading.cohorts],
      weights: weights === undefined ? null : reading.departments.map((d) => [d.id, weights(d.id)]),
      rebuild: input.rebuild,
      travelMinutes: reading.travel,
      seed: input.seed,
      timeBudgetMs: input.time_budget_ms,
      movesPerClass: CAMPUS_MOVES_PER_MEETING,
      moves: input.moves,
    },
    control,
  );
  const reasons = new Map<number, string>();
  for (const u of read.unplaced) reasons.set(u.id, u.reason);

  // The rules judge: named departments' meetings (locked ones too) against the others'.
  const namedBookings = reading.bookings.filter((b) => named.has(b.department));
  const taken = reading.bookings.filter((b) => !named.has(b.department));
  const moves = ruleAbidingMoves(read.moves, { ownBookings: namedBookings, untimed: [], taken, doctors: reading.doctors, rules, runPlan: false }, reasons);
  // The moves as staff read them (a move to where the meeting is already is none), each under its department's code.
  const rowOf = new Map(reading.rows.map((r) => [r.id, r]));
  const moved: CampusMove[] = draftPlaces(moves, rowOf, new Map(), reading.doctors).moved.map((m) => ({
    ...m,
    department: codes.get((rowOf.get(m.id) as EntryRow).department_id)?.code ?? '',
  }));
  const movableIds = new Set(movableRows.map((r) => r.id));
  const { out, left } = leftWithoutTime(bookingsAfter(namedBookings, moved), taken, movableIds, new Set(moved.map((m) => m.id)), reading, reasons);
  // A meeting left without a time is not moved as well.
  const kept = moved.filter((m) => !out.has(m.id));
  const unplaced: CampusUnplaced[] = [...out].map((id) => {
    const row = rowOf.get(id) as EntryRow;
    const reason = reasons.get(id) ?? 'No free time and room were found for it; it is left without a time';
    return { id, department: codes.get(row.department_id)?.code ?? '', course_code: row.course_code, section_name: row.section_name, reason };
  });
  const { score } = read;
  return {
    term,
    source: 'campus',
    rebuild: input.rebuild,
    departments: campusSummary(reading, named, kept, out),
    moved: kept,
    unplaced,
    locked: reading.rows.filter((r) => named.has(r.department_id) && reading.locked.has(r.id)).length,
    hard_violations: left,
    score: { soft: { time: score.time / SCALE, room: score.room / SCALE, distribution: score.distribution / SCALE, total: score.total / SCALE } },
    moves: read.iterations,
    basis: campusBasis(reading.rows, reading.locked),
  };
}
