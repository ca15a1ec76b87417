import { createHash } from 'node:crypto';
import type { CoreContext } from '../context';
import { CoreError } from '../domain/errors';
import { formatHHMM } from '../domain/time';
import type { Term } from '../domain/terms';
import type { MeetingState } from '../domain/meeting-changes';
import { displayRoom, roomKey } from '../domain/meetings';
import { listDoctors } from '../faculty/repo';
import { declaredRooms } from '../rooms/repo';
import { expectedSectionSizes } from '../predict/runs-repo';
import {
  campusTerm,
  courseCohorts,
  partsByCode,
  storeTermDraft,
  travelMinutes,
  termClashes,
  type Booking,
  type ScheduleEntry,
  newMeetingUid,
} from '../timetable';
import { lockedEntries, type EntryRow } from '../timetable/repo';
import { solveInWorker, type SearchProgress, type SolveResult } from '../solver';
import { STANDARD_SLOTS, type Slot } from './grid';
import { SCALE } from './model-scale';
import { pushTo } from '../util/multimap';
import { termDraftModel, type DraftGoals, type DraftMove, type TermDraftModel, type TermRoom, type UntimedSection } from './term-model';
import { noFreeRoomReason, runSectionReason, type RunReasonContext, type RunSectionNeed } from './run-reasons';
import { SOFT_WEIGHTS, type SoftWeights, AUTOFILL_BOUNDS } from '../domain/autofill';
import { departmentProfile } from '../predict';
import { listUntimedSections, type UntimedSectionRow } from '../timetable/untimed-repo';
import { WHOLE_TERM, type PartOfTerm } from '../domain/parts';
import { allowedCourseList, mayTeach } from '../domain/teaching';

/** A prediction run's plan (source "run"): the new sections it asks for at its campus, each with its expected students. */
export interface RunPlan {
  campus: string;
  sections: { course_code: string; section_name: string; size: number }[];
}

/** What a term's own draft places: its meetings that are not locked, or its sections without a time. */
export type TermSource = 'term' | 'unscheduled';

/**
 * Auto-fill by the timetabling solver: the department's meetings that are not locked re-timed (and
 * re-roomed among the declared rooms that seat them) from today's timetable or from nothing
 * (source "term", rebuild); its sections without a time, or a run's new sections, given a standard
 * time, a room and (when asked) an instructor. The draft is checked by the write path's own rules
 * before it is answered; what the model let clash stays where it is (or unplaced), with the reason.
 */
export interface TermDraftInput {
  /** The term's meetings that are not locked (term), its sections without a time (unscheduled), or a run's new sections (run). */
  source: TermSource | 'run';
  /** Source "run": the sections to place. */
  run?: RunPlan | undefined;
  /** Weights other than the department's (benchmarks compare them). */
  weights?: SoftWeights | undefined;
  /** Sections without a time: the search chooses each one's instructor among those who may teach it (else they keep their own). */
  choose_instructors?: boolean | undefined;
  /** Sections an instructor may teach at most, when the search chooses them. */
  max_sections_per_doctor?: number | undefined;
  rebuild: boolean;
  seed: number;
  time_budget_ms: number;
  /** Moves of the search (default: TERM_MOVES_PER_MEETING per class): the same seed and moves give the same draft. */
  moves?: number | undefined;
  slots?: Slot[] | undefined;
}

/** How a caller follows a draft being made: the search's progress, and a way to stop it (the best draft so far is answered). */
export interface DraftControl {
  onProgress?: (progress: SearchProgress) => void;
  started?: (cancel: () => void) => void;
}

/** Where a meeting or section goes (as a meeting's state names it), with what it keeps and its instructors by name. */
type DraftPlace = Pick<
  MeetingState,
  'course_code' | 'section_name' | 'day' | 'start_time' | 'duration_mins' | 'room' | 'part_of_term' | 'joint_group' | 'campus'
> & { id: number; instructors: string[] };

/** A meeting the draft moves: where it goes, and where it was. */
export interface MovedMeeting extends DraftPlace {
  was: { day: string; start_time: string; duration_mins: number; room: string };
}

/** A section without a time the draft places (its id is among the sections without a time), with the instructors it gets. */
export interface PlacedSection extends DraftPlace {
  instructor_ids: number[];
}

export interface TermDraft {
  term: Term;
  source: TermDraftInput['source'];
  moved: MovedMeeting[];
  /** Sections given a time: the term's sections without one (source "unscheduled"), or a run's new sections (source "run", ids from 1 in the plan's order). */
  placed: PlacedSection[];
  /** Meetings (or sections without a time: `untimed`) the draft could not place: they stay as they are. */
  unplaced: { id: number; untimed: boolean; course_code: string; section_name: string; reason: string }[];
  /** Meetings taken as they are: locked by staff. */
  locked: number;
  score: { hard_violations: number; soft: { time: number; room: number; distribution: number; total: number } };
  /** The soft goals the draft meets, counted. */
  goals: DraftGoals;
  moves: number;
  /** What the draft was made from: applying refuses a term that has changed since. */
  basis: string;
}

/** Meetings (or sections without a time) one draft places at most: a whole campus's real term is a few thousand. */
export const MAX_DRAFT_MEETINGS = 5_000;

/** Moves of the search per meeting it may move (or section it places): the same draft for the same seed (the time budget only caps it). */
export const TERM_MOVES_PER_MEETING = 400;

/** What a draft rests on of one stored meeting: its place, instructors, part, group, campus and lock, as text to digest. */
export function meetingBasis(r: EntryRow, locked: ReadonlySet<number>): string {
  return JSON.stringify([
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
  ]);
}

/** What a draft of the term rests on, as one digest: the meetings, their instructors and rooms, the locks. */
export function basisOf(own: readonly EntryRow[], taken: readonly Booking[], locked: ReadonlySet<number>, untimed: readonly UntimedSectionRow[]): string {
  const hash = createHash('sha256');
  for (const u of untimed) hash.update(JSON.stringify(['untimed', u.id, u.doctor_ids, u.part_of_term, u.joint_group, u.room, u.campus]));
  for (const r of own) hash.update(meetingBasis(r, locked));
  for (const b of taken) hash.update(JSON.stringify([b.id, b.day, b.start, b.duration, b.roomKey, b.doctor_ids, b.part.code]));
  return hash.digest('hex');
}

/** A section without a time as the rules will see it once it has one (day '' until then; its id negative, apart from meetings'). */
function untimedBooking(u: UntimedSectionRow, parts: ReadonlyMap<string, PartOfTerm>): Booking {
  return {
    id: -u.id,
    department: u.department_id,
    course_code: u.course_code,
    section_name: u.section_name,
    doctor_ids: u.doctor_ids,
    day: '',
    start: 0,
    duration: 0,
    room: displayRoom(u.room),
    roomKey: u.room === null ? null : roomKey(u.room),
    part: parts.get(u.part_of_term) ?? { ...WHOLE_TERM, code: u.part_of_term },
    joint_group: u.joint_group,
    campus: u.campus,
  };
}

/** Sections each instructor teaches (a section counted once, whatever its meetings), with `also` more each. */
function sectionsByInstructor(bookings: readonly Booking[], also: ReadonlyMap<number, number>): Map<number, number> {
  const sections = new Map<number, Set<string>>();
  for (const b of bookings)
    for (const id of b.doctor_ids) sections.set(id, (sections.get(id) ?? new Set<string>()).add(`${b.department}|${b.course_code}|${b.section_name}`));
  const counts = new Map([...sections].map(([id, set]) => [id, set.size]));
  for (const [id, n] of also) counts.set(id, (counts.get(id) ?? 0) + n);
  return counts;
}

/** An online section needs no room. */
const ONLINE = /online|web|remote|distance/i;

/** A run's new sections as sections without a time (ids from 1, in the plan's order), to be placed like them. */
function runSections(ctx: CoreContext, term: Term, plan: RunPlan): UntimedSectionRow[] {
  return plan.sections.map((s, i) => ({
    id: i + 1,
    department_id: ctx.department,
    ...term,
    course_code: s.course_code,
    section_name: s.section_name,
    doctor_ids: [],
    part_of_term: WHOLE_TERM.code,
    joint_group: null,
    room: null,
    campus: plan.campus,
    kind: null,
    uid: newMeetingUid(),
  }));
}

/** What a run's section needs to be placed, and why one cannot be: asked with the instructors' loads and meetings as `bookings` give them. */
function runReasonsWith(
  bookings: readonly Booking[],
  known: { plan: RunPlan | undefined; rooms: readonly TermRoom[]; slots: readonly Slot[]; rules: { travelMinutes: number }; maxSections: number },
  doctors: RunReasonContext['doctors'],
  alsoTeaching: ReadonlyMap<number, number>,
): RunReasonContext {
  const load = sectionsByInstructor(bookings, alsoTeaching);
  const meetings = new Map<number, Booking[]>();
  for (const b of bookings) for (const id of b.doctor_ids) pushTo(meetings, id, b);
  const campus = known.plan?.campus ?? '';
  return {
    campus,
    capacities: known.rooms.flatMap((r) => (r.capacity !== null && (r.campus === null || r.campus === known.plan?.campus) ? [r.capacity] : [])),
    slots: known.slots,
    rules: known.rules,
    maxSections: known.maxSections,
    doctors,
    load: (id) => load.get(id) ?? 0,
    meetingsOf: (id) => meetings.get(id) ?? [],
    known: new Map(),
  };
}

/**
 * The sections without a time a draft places: each keeps its instructors, or (choose) the search
 * chooses among those who may teach it. A run's section that cannot be placed as things are, or
 * one no instructor may teach, is left out with its reason (keyed by its -id) in `reasons`.
 */
function untimedToPlace(
  rows: readonly UntimedSectionRow[],
  how: {
    choose: boolean;
    plan: RunPlan | undefined;
    parts: ReadonlyMap<string, PartOfTerm>;
    sizes: ReadonlyMap<string, ReadonlyMap<string, number>>;
    candidatesOf: (course: string) => number[];
    asBefore: RunReasonContext;
  },
  needs: Map<number, RunSectionNeed>,
  reasons: Map<number, string>,
): UntimedSection[] {
  const { choose, plan, parts, sizes, candidatesOf, asBefore } = how;
  return rows.flatMap((u) => {
    const booking = untimedBooking(u, parts);
    const needsRoom = !ONLINE.test(u.kind ?? '');
    if (!choose) return [{ id: u.id, booking, needsRoom }];
    const candidates = candidatesOf(u.course_code);
    if (plan !== undefined) {
      const need = { course_code: u.course_code, size: sizes.get(plan.campus)?.get(u.course_code) ?? 1, candidates, booking };
      needs.set(u.id, need);
      const reason = runSectionReason(need, asBefore);
      if (reason !== null) {
        reasons.set(-u.id, reason);
        return [];
      }
    } else if (candidates.length === 0) {
      reasons.set(-u.id, `No instructor is allowed to teach ${u.course_code}; it stays without a time`);
      return [];
    }
    return [{ id: u.id, booking: { ...booking, doctor_ids: [] }, needsRoom, candidates, keep: u.doctor_ids }];
  });
}

/** What a term's draft reads from the store: its meetings, what is locked, its sections without a time, and the rules' settings. */
async function draftInputs(ctx: CoreContext, term: Term, input: TermDraftInput) {
  const { own, ownBookings, taken } = await campusTerm(ctx, term);
  const locked = await lockedEntries(
    ctx.db,
    own.map((r) => r.id),
  );
  const storedUntimed = await listUntimedSections(ctx.db, ctx.department, term);
  const plan = input.source === 'run' ? input.run : undefined;
  if (input.source === 'run' && plan === undefined) throw new CoreError('invalid', "A draft of a run's sections needs the run's plan");
  const untimedRows = plan === undefined ? storedUntimed : runSections(ctx, term, plan);
  const parts = await partsByCode(ctx, term);
  const doctors = new Map((await listDoctors(ctx.db, ctx.department)).map((d) => [d.id, d]));
  const rules = { travelMinutes: await travelMinutes(ctx) };
  const sizes = await sectionSizes(ctx, term, [...own.map((r) => r.campus), ...untimedRows.map((u) => u.campus)], plan);
  const rooms = (await declaredRooms(ctx.db, ctx.department)).map(termRoom);
  return { own, ownBookings, taken, locked, storedUntimed, plan, untimedRows, parts, doctors, rules, sizes, rooms };
}

export async function draftTermTimetable(ctx: CoreContext, term: Term, input: TermDraftInput, control: DraftControl = {}): Promise<TermDraft> {
  const { own, ownBookings, taken, locked, storedUntimed, plan, untimedRows, parts, doctors, rules, sizes, rooms } = await draftInputs(ctx, term, input);
  // A run's sections are chosen instructors by default; sections without a time keep theirs unless asked.
  const choose = input.choose_instructors ?? input.source === 'run';
  // Source "term" moves the meetings that are not locked; "unscheduled" places the sections without a time around all of them.
  const moving = input.source === 'term';
  // The model is built on the server's thread: a term far beyond any department's is refused, not built for minutes.
  const count = moving ? own.length - locked.size : untimedRows.length;
  if (count > MAX_DRAFT_MEETINGS) throw tooLarge(count, moving);
  const movable = moving ? own.flatMap((row, i) => (locked.has(row.id) ? [] : [{ id: row.id, booking: ownBookings[i] as Booking }])) : [];
  const fixed = [...ownBookings.filter((b) => !moving || locked.has(b.id ?? 0)), ...taken];
  const reasons = new Map<number, string>();
  const maxSections = input.max_sections_per_doctor ?? AUTOFILL_BOUNDS.maxSectionsPerDoctor.default;
  const slots = input.slots ?? STANDARD_SLOTS;
  // A run's sections: who teaches what already, and why a section cannot be placed (asked again after the search).
  const alsoTeaching = new Map<number, number>();
  if (plan !== undefined) for (const u of storedUntimed) for (const id of u.doctor_ids) alsoTeaching.set(id, (alsoTeaching.get(id) ?? 0) + 1);
  const reasonsWith = (bookings: readonly Booking[]): RunReasonContext =>
    runReasonsWith(bookings, { plan, rooms, slots, rules, maxSections }, doctors, alsoTeaching);
  const needs = new Map<number, RunSectionNeed>();
  const how = { choose, plan, parts, sizes, candidatesOf: instructorsAllowed(doctors.values()), asBefore: reasonsWith([...ownBookings, ...taken]) };
  const untimed = moving ? [] : untimedToPlace(untimedRows, how, needs, reasons);
  const cohorts = await courseCohorts(ctx, term, [...own.map((r) => r.course_code), ...untimedRows.map((u) => u.course_code)]);
  const draft = termDraftModel({
    movable,
    untimed,
    fixed,
    doctors,
    rooms,
    expected: (b) => sizes.get(b.campus)?.get(b.course_code),
    slots,
    rebuild: input.rebuild,
    rules,
    ...(choose ? { maxSectionsPerInstructor: maxSections } : {}),
    alsoTeaching,
    cohortsOf: (b) => cohorts.get(b.course_code) ?? [],
    // The department's own weights where its profile sets them.
    weights: input.weights ?? { ...SOFT_WEIGHTS, ...(await departmentProfile(ctx.db, ctx.department)).autofill_weights },
  });
  const result = draft.model.classes.length > 0 ? await searchDraft(draft, input, control) : null;
  const read = result ? draft.read(result.assignment) : { moves: [], unplaced: [], goals: null };

  // The write path's rules are the judge: a move that would clash where today's timetable does not
  // stays put (a section without a time stays without one). Keys: a meeting's id, a section's -id.
  const rowOf = new Map(own.map((r) => [r.id, r]));
  const untimedOf = new Map(untimedRows.map((u) => [u.id, u]));
  for (const u of read.unplaced) reasons.set(keyOf(u), u.reason);
  const moves = ruleAbidingMoves(read.moves, { ownBookings, untimed, taken, doctors, rules, runPlan: plan !== undefined }, reasons);
  if (plan !== undefined) explainRunSections(moves, read.unplaced, needs, (placed) => reasonsWith([...ownBookings, ...taken, ...placed]), reasons);
  const { moved, placed } = draftPlaces(moves, rowOf, untimedOf, doctors);
  const score = result?.score ?? { time: 0, room: 0, distribution: 0, total: 0 };
  return {
    term,
    source: input.source,
    moved,
    placed,
    unplaced: [...reasons].map(([key, reason]) => {
      const section = key < 0 ? (untimedOf.get(-key) as UntimedSectionRow) : (rowOf.get(key) as EntryRow);
      return { id: Math.abs(key), untimed: key < 0, course_code: section.course_code, section_name: section.section_name, reason };
    }),
    locked: moving ? locked.size : 0,
    score: {
      hard_violations: 0,
      soft: { time: score.time / SCALE, room: score.room / SCALE, distribution: score.distribution / SCALE, total: score.total / SCALE },
    },
    goals: read.goals ?? draft.read(draft.initial).goals,
    moves: result?.iterations ?? 0,
    basis: basisOf(own, taken, locked, storedUntimed),
  };
}

/** The students each course's section expects, by campus: the latest run's, and a run's own plan for its campus. */
async function sectionSizes(ctx: CoreContext, term: Term, campuses: readonly string[], plan: RunPlan | undefined): Promise<Map<string, Map<string, number>>> {
  const sizes = new Map<string, Map<string, number>>();
  for (const campus of new Set(campuses)) sizes.set(campus, await expectedSectionSizes(ctx.db, ctx.department, term.year, term.semester, campus));
  if (plan !== undefined) sizes.set(plan.campus, new Map(plan.sections.map((s) => [s.course_code, s.size])));
  return sizes;
}

/** A term too large to draft at once, refused in words. */
function tooLarge(count: number, moving: boolean): CoreError {
  return new CoreError(
    'too_large',
    `This term has ${count.toLocaleString('en-US')} ${moving ? 'meetings' : 'sections without a time'}; auto-fill drafts at most ${MAX_DRAFT_MEETINGS.toLocaleString('en-US')} at once: lock the meetings to keep, or split the term by campus`,
  );
}

/** The instructors allowed to teach a course, by course (each course worked out once). */
function instructorsAllowed(doctors: Iterable<Parameters<typeof allowedCourseList>[0] & { id: number }>): (course: string) => number[] {
  const teachable = [...doctors].map((d) => [d.id, allowedCourseList(d)] as const);
  const candidates = new Map<string, number[]>();
  return (course) => {
    let ids = candidates.get(course);
    if (ids === undefined) {
      ids = teachable.filter(([, courses]) => mayTeach(courses, course)).map(([id]) => id);
      candidates.set(course, ids);
    }
    return ids;
  };
}

/** A declared room as the model keys it. */
export const termRoom = (r: { name: string; capacity: number | null; campus: string | null; department_id?: number | null }): TermRoom => ({
  name: r.name,
  key: roomKey(r.name) ?? r.name.toLowerCase(),
  capacity: r.capacity,
  campus: r.campus,
  department: r.department_id ?? null,
});

/** Why each run's section left unplaced is, with the loads and meetings the draft gives the instructors (into `reasons`). */
function explainRunSections(
  moves: readonly DraftMove[],
  unplaced: readonly { id: number }[],
  needs: ReadonlyMap<number, RunSectionNeed>,
  reasonsWith: (placed: readonly Booking[]) => RunReasonContext,
  reasons: Map<number, string>,
): void {
  const placed = moves.flatMap((m) => {
    const need = needs.get(m.id);
    return need === undefined || m.instructor === undefined
      ? []
      : [{ ...need.booking, doctor_ids: [m.instructor], day: m.day, start: m.start, duration: m.duration }];
  });
  const after = reasonsWith(placed);
  for (const u of unplaced) {
    const need = needs.get(u.id);
    if (need) reasons.set(-u.id, runSectionReason(need, after) ?? noFreeRoomReason(need, after));
  }
}

/** A draft's meeting or section by one key: a meeting's id, a section without a time's -id. */
const keyOf = (m: { id: number; untimed: boolean }): number => (m.untimed ? -m.id : m.id);

/** Runs the search on a draft's model in the solver's worker, followed and cancellable through `control`. */
export async function searchDraft(
  draft: TermDraftModel,
  input: Pick<TermDraftInput, 'time_budget_ms' | 'seed' | 'moves'>,
  control: DraftControl,
): Promise<SolveResult> {
  control.onProgress?.({ phase: 'construction', placed: 0, classes: draft.model.classes.length, bestTotal: null });
  const search = solveInWorker(draft.model, {
    timeBudgetMs: input.time_budget_ms,
    seed: input.seed,
    initial: draft.initial,
    maxIterations: input.moves ?? TERM_MOVES_PER_MEETING * draft.model.classes.length,
    // What cannot be placed is answered with why; the rest is still improved.
    partial: true,
    ...(control.onProgress ? { onProgress: control.onProgress } : {}),
  });
  control.started?.(search.cancel);
  return search.result;
}

/** What the write path's rules judge a draft's moves against: the term's meetings, its sections placed, the rest of the campus. */
export interface DraftJudge {
  ownBookings: readonly Booking[];
  untimed: readonly UntimedSection[];
  taken: readonly Booking[];
  doctors: Parameters<typeof termClashes>[2];
  rules: Parameters<typeof termClashes>[3];
  /** Whether the sections placed are a run's (left out of the draft) rather than the term's (left without a time). */
  runPlan: boolean;
}

/**
 * The draft's moves the write path's rules accept. The rules are the judge: a move that would clash
 * where today's timetable does not stays put (a section without a time stays without one), with the
 * reason in `reasons` under its key.
 */
export function ruleAbidingMoves(proposed: readonly DraftMove[], judge: DraftJudge, reasons: Map<number, string>): DraftMove[] {
  const { ownBookings, untimed, taken, doctors, rules } = judge;
  let moves = [...proposed];
  const before = termClashes(ownBookings, taken, doctors, rules);
  for (;;) {
    const at = new Map(moves.map((m) => [keyOf(m), m]));
    const placedAt = (b: Booking, move: DraftMove): Booking => ({
      ...b,
      day: move.day,
      start: move.start,
      duration: move.duration,
      room: displayRoom(move.room),
      roomKey: roomKey(move.room),
    });
    const after = [
      ...ownBookings.map((b) => {
        const move = at.get(b.id ?? 0);
        return move ? placedAt(b, move) : b;
      }),
      ...untimed.flatMap((u) => {
        const move = at.get(-u.id);
        return move ? [{ ...placedAt(u.booking, move), doctor_ids: move.instructor === undefined ? u.booking.doctor_ids : [move.instructor] }] : [];
      }),
    ];
    const added = [...termClashes(after, taken, doctors, rules)].filter(([key]) => !before.has(key));
    // One of the draft's meetings in each new clash goes back (the last the clash names): the others may stay.
    const culprits = new Set<number>();
    for (const [, clash] of added) {
      const mine = clash.ids.filter((id) => at.has(id));
      const id = mine[mine.length - 1];
      if (id === undefined || mine.some((other) => culprits.has(other))) continue;
      culprits.add(id);
      reasons.set(
        id,
        id >= 0
          ? `Moving it would break a rule, so it stays where it is: ${clash.detail}`
          : `Placing it would break a rule, so it ${judge.runPlan ? 'is left out of the draft' : 'stays without a time'}: ${clash.detail}`,
      );
    }
    if (culprits.size === 0) break;
    moves = moves.filter((m) => !culprits.has(keyOf(m)));
  }
  return moves;
}

/** The draft's moves as staff read them: the meetings moved (with where they were) and the sections placed, instructors named. */
export function draftPlaces(
  moves: readonly DraftMove[],
  rowOf: ReadonlyMap<number, EntryRow>,
  untimedOf: ReadonlyMap<number, UntimedSectionRow>,
  doctors: ReadonlyMap<number, { name: string }>,
): { moved: MovedMeeting[]; placed: PlacedSection[] } {
  const names = (ids: readonly number[]): string[] => ids.map((id) => doctors.get(id)?.name ?? `#${id}`);
  const placeOf = (
    id: number,
    section: Omit<DraftPlace, 'id' | 'day' | 'start_time' | 'duration_mins' | 'room' | 'instructors'>,
    ids: readonly number[],
    m: DraftMove,
  ): DraftPlace => ({
    id,
    ...section,
    day: m.day,
    start_time: formatHHMM(m.start),
    duration_mins: m.duration,
    room: displayRoom(m.room),
    instructors: names(ids),
  });
  const moved: MovedMeeting[] = [];
  const placed: PlacedSection[] = [];
  for (const m of moves) {
    if (m.untimed) {
      const u = untimedOf.get(m.id) as UntimedSectionRow;
      const teaching = m.instructor === undefined ? u.doctor_ids : [m.instructor];
      const section = { course_code: u.course_code, section_name: u.section_name, part_of_term: u.part_of_term, joint_group: u.joint_group, campus: u.campus };
      placed.push({ ...placeOf(u.id, section, teaching, m), instructor_ids: teaching });
      continue;
    }
    const row = rowOf.get(m.id) as EntryRow;
    if (row.day === m.day && row.start_time === formatHHMM(m.start) && row.duration_mins === m.duration && row.room_key === roomKey(m.room)) continue;
    const place = placeOf(
      row.id,
      { course_code: row.course_code, section_name: row.section_name, part_of_term: row.part_of_term, joint_group: row.joint_group, campus: row.campus },
      row.doctor_ids,
      m,
    );
    moved.push({ ...place, was: { day: row.day, start_time: row.start_time, duration_mins: row.duration_mins, room: row.room } });
  }
  return { moved, placed };
}

/**
 * Stores a term draft, all or nothing, through the timetable's own write path (its rules, locks and
 * history); a draft made from a timetable that has changed since is refused in words.
 */
/** A draft's placed sections once stored: each answers its stored meeting's id, and its id in the draft as `draft_section`. */
export function placedAsStored(placed: readonly PlacedSection[], stored: readonly ScheduleEntry[]): (PlacedSection & { draft_section: number })[] {
  return placed.map((p, i) => ({ ...p, id: stored[i]?.id ?? p.id, draft_section: p.id }));
}

export function applyTermDraft(
  ctx: CoreContext,
  draft: Pick<TermDraft, 'term' | 'source' | 'moved' | 'placed' | 'basis'>,
  options: { keepTerm?: Partial<Term> } = {},
): Promise<{ count: number; stored: ScheduleEntry[] }> {
  return storeTermDraft(
    ctx,
    {
      term: draft.term,
      moved: draft.moved,
      placed: draft.placed,
      placesUntimed: draft.source === 'unscheduled',
      operation: 'autofill',
      what: 'Applying the auto-fill draft',
      checkBasis: ({ own, taken, locked, untimed }) => {
        if (basisOf(own, taken, locked, untimed) !== draft.basis)
          throw new CoreError(
            'conflict',
            'The timetable has changed since this draft was made (a meeting, a section without a time, an instructor, a room or a lock), so nothing was stored: run auto-fill again',
          );
      },
    },
    options,
  );
}
