import { bookingConflicts, meetTogether, type Booking, type ConflictRules, type DoctorAvailability } from '../timetable';
import { sessionsOverlap, type Session } from '../domain/meetings';
import { DAY_LETTERS } from '../domain/days';
import {
  bitCount,
  distributionViolations,
  placedClasses,
  type Assignment,
  type Distribution,
  type InstructorSpec,
  type TimeOption,
  type TimetableProblem,
} from '../solver';
import { availabilityWindow } from '../domain/teaching';
import { WHOLE_TERM } from '../domain/parts';
import { dayMask, oneCoursePerClass, SCALE } from './model-scale';
import type { Slot } from './grid';
import { SOFT_WEIGHTS, type SoftWeights } from '../domain/autofill';
import { pushTo } from '../util/multimap';

/**
 * A term's timetable as the solver's model (core/solver), for auto-fill to improve or rebuild it:
 * the department's meetings it may move are the model's classes; everything else in the term (its
 * locked meetings, other departments' bookings) is taken — the rooms are unavailable then and the
 * instructors' times exclude them, with travel between campuses. Pure: the caller reads the store.
 *
 * - A joint group's meetings at one time in one room (or without one) are one class, whatever their parts of term:
 *   they meet together (hard). Its meetings in other rooms, or of other shapes, that meet together today keep
 *   overlapping (hard).
 * - A meeting keeps its shape (number of days and length); its times are the term's day patterns of
 *   that many days, at starts every STEP minutes within the term's day, its instructors available.
 * - Parts of term are week patterns (weeks of the term; parts without dates span every week).
 * - One instructor's meetings never overlap and leave the travel time between campuses; a
 *   section's meetings never overlap (hard).
 * - A room is chosen among the declared rooms of the meeting's campus that seat its expected
 *   students (emptier rooms cost more); a room that is not declared is kept.
 * - Soft, weighted as every auto-fill goal (SOFT_WEIGHTS, core/domain/autofill.ts): cohorts' courses not overlapping, sections of
 *   one course apart, instructors' teaching days few, and (when improving) meetings not moved.
 */

/** Minutes between the starts a meeting may take. */
export const START_STEP = 30;

export interface MovableMeeting {
  id: number;
  booking: Booking;
}

/**
 * A section without a time to place: its booking with no time yet (day ''), its id among the
 * sections without a time, and whether it needs a room (an online section does not).
 */
export interface UntimedSection {
  id: number;
  booking: Booking;
  needsRoom: boolean;
  /**
   * Instructors the search chooses one among (those who may teach the course); undefined: the
   * section keeps its own. With a choice, the booking lists none and `keep` those it had.
   */
  candidates?: readonly number[];
  keep?: readonly number[];
}

export interface TermRoom {
  name: string;
  key: string;
  capacity: number | null;
  campus: string | null;
  /** The department that owns the room (only its meetings may take it); null or absent: the campus pool. */
  department?: number | null;
}

export interface TermDraftProblem {
  /** The department's meetings auto-fill may move. */
  movable: readonly MovableMeeting[];
  /** Sections without a time to place, each at one of the department's standard times (slots). */
  untimed?: readonly UntimedSection[];
  /** Every other meeting of the term (the department's locked or left ones, other departments'): taken. */
  fixed: readonly Booking[];
  doctors: ReadonlyMap<number, DoctorAvailability>;
  /** The rooms of the campus (declared or found in the timetable). */
  rooms: readonly TermRoom[];
  /** Students a section of the booking's course is expected to have at its campus, in its department (undefined: not known). */
  expected: (booking: Pick<Booking, 'department' | 'campus' | 'course_code'>) => number | undefined;
  /** The department's standard times (their day patterns are offered to every meeting of that many days). */
  slots: readonly Slot[];
  /** From nothing (true), or improving today's timetable (false: moving a meeting costs). */
  rebuild: boolean;
  rules: ConflictRules;
  /** The cohorts (curriculum groups, keyed apart for each department) whose students take the booking's course. */
  cohortsOf: (booking: Pick<Booking, 'department' | 'course_code'>) => readonly string[];
  weights?: SoftWeights;
  /**
   * How much a department's soft goals weigh against other departments' (a campus draft; default 1 each): a unit's
   * penalties are multiplied by its department's, a goal shared by departments (an instructor's days) by their mean.
   */
  departmentWeight?: (department: number) => number;
  /** Sections an instructor may teach at most in all (the term's and other departments' count). */
  maxSectionsPerInstructor?: number;
  /** Sections instructors teach that are not in the model (sections without a time left as they are), by doctor id. */
  alsoTeaching?: ReadonlyMap<number, number>;
}

/** Meetings that move together: a joint group's at one time in one room, else one meeting. */
interface Unit {
  /** A section without a time (placed at a standard time), or stored meetings (moved). */
  untimed: UntimedSection | null;
  members: MovableMeeting[];
  first: Booking;
  times: Session[];
  /** Room indexes in the model (empty: the meeting needs no room). */
  rooms: number[];
  /** The options' instructors (doctor ids), in the order of the model's room options, when the search chooses them. */
  chosen?: number[];
  /** Per time: meetings of the unit's cohorts it would overlap among the fixed ones. */
  clashes: number[];
  /** Per room option: the share of the room's seats left empty. */
  empty: number[];
}

/** Where a meeting goes in a draft (or a section without a time: `untimed`). */
export interface DraftMove {
  id: number;
  untimed: boolean;
  /** The instructor the search chose (doctor id), when it chose one. */
  instructor?: number;
  day: string;
  start: number;
  duration: number;
  room: string;
}

/** A meeting (or section without a time) the draft could not place, and why. */
export interface DraftUnplaced {
  id: number;
  untimed: boolean;
  reason: string;
}

/**
 * The soft goals a draft meets, counted from the model (the goals and weights of SOFT_WEIGHTS): pairs
 * of a course's sections on one day pattern or start, overlapping pairs of a cohort's courses, the
 * teaching days and squared sections of the instructors the search chose, empty seats' share, and
 * their weighted total.
 */
export interface DraftGoals {
  load_balance: number;
  same_pattern: number;
  same_start: number;
  curriculum_clashes: number;
  teaching_days: number;
  empty_seats: number;
  total: number;
}

export interface TermDraftModel {
  model: TimetableProblem;
  /** Today's timetable in the model (-1 where today's place is not an option). */
  initial: Assignment;
  /** The meetings of a timetable of the model; those of unplaced classes are listed with why. */
  read: (assignment: Assignment) => { moves: DraftMove[]; unplaced: DraftUnplaced[]; goals: DraftGoals };
}

/**
 * Joint partners meeting at one time (in one room, or some without one) are one class, whatever their parts of term:
 * a class in the weeks of any of them, each keeping its own part.
 */
const unitKey = (b: Booking): string | null => (b.joint_group === null ? null : `${b.joint_group}|${b.day}|${b.start}|${b.duration}`);
/** A section, in its department (two departments may list one course code). */
const sectionKey = (b: Pick<Booking, 'department' | 'course_code' | 'section_name'>): string => `${b.department}|${b.course_code}\u0000${b.section_name}`;
/** A course, in its department. */
const courseKey = (b: Pick<Booking, 'department' | 'course_code'>): string => `${b.department}|${b.course_code}`;
const DAY = 24 * 60;

/** The term's weeks: each part's weeks from its dates (a part without dates spans the term); several parts: the weeks of any. */
function weekPatterns(bookings: readonly Booking[]): {
  nrWeeks: number;
  patternOf: (...held: Pick<Booking, 'part'>[]) => number;
  text: string[];
  weeks: number[][];
} {
  const dated = bookings.map((b) => b.part).filter((p) => p.start_date !== null && p.end_date !== null);
  const dayOf = (iso: string): number => Math.floor(Date.parse(`${iso}T00:00:00Z`) / 86_400_000);
  const first = dated.length === 0 ? 0 : Math.min(...dated.map((p) => dayOf(p.start_date as string)));
  const last = dated.length === 0 ? 0 : Math.max(...dated.map((p) => dayOf(p.end_date as string)));
  const nrWeeks = Math.max(1, Math.floor((last - first) / 7) + 1);
  const text: string[] = [];
  const weeks: number[][] = [];
  const index = new Map<string, number>();
  const inPart = ({ part }: Pick<Booking, 'part'>, w: number): boolean => {
    const from = part.start_date === null ? 0 : Math.max(0, Math.floor((dayOf(part.start_date) - first) / 7));
    const to = part.end_date === null ? nrWeeks - 1 : Math.min(nrWeeks - 1, Math.floor((dayOf(part.end_date) - first) / 7));
    return w >= from && w <= to;
  };
  const patternOf = (...held: Pick<Booking, 'part'>[]): number => {
    const bits = Array.from({ length: nrWeeks }, (_, w) => (held.some((b) => inPart(b, w)) ? '1' : '0')).join('');
    const known = index.get(bits);
    if (known !== undefined) return known;
    index.set(bits, text.length);
    text.push(bits);
    weeks.push([...bits].flatMap((bit, w) => (bit === '1' ? [w] : [])));
    return text.length - 1;
  };
  return { nrWeeks, patternOf, text, weeks };
}

/**
 * The model's classes as units: joint partners meeting together in one room (or without one) move as
 * one; in other rooms, each room's partners are a unit of their own, kept meeting together by the
 * distributions. Sections without a time: joint partners together, each its own class otherwise.
 */
function draftUnits(problem: TermDraftProblem): Unit[] {
  const units: Unit[] = [];
  const byKey = new Map<string, Unit[]>();
  for (const m of problem.movable) {
    const key = unitKey(m.booking);
    const room = m.booking.roomKey;
    const known = key === null ? undefined : byKey.get(key)?.find((u) => room === null || u.first.roomKey === null || u.first.roomKey === room);
    if (known) {
      known.members.push(m);
      if (known.first.roomKey === null && room !== null) known.first = { ...known.first, room: m.booking.room, roomKey: room };
    } else {
      const unit: Unit = { untimed: null, members: [m], first: m.booking, times: [], rooms: [], clashes: [], empty: [] };
      units.push(unit);
      if (key !== null) pushTo(byKey, key, unit);
    }
  }

  const untimedGroups = new Map<string, Unit>();
  for (const u of problem.untimed ?? []) {
    const key = u.booking.joint_group;
    const known = key === null ? undefined : untimedGroups.get(key);
    if (known) known.members.push({ id: u.id, booking: u.booking });
    else {
      const unit: Unit = { untimed: u, members: [{ id: u.id, booking: u.booking }], first: u.booking, times: [], rooms: [], clashes: [], empty: [] };
      units.push(unit);
      if (key !== null) untimedGroups.set(key, unit);
    }
  }
  return units;
}

/** The model's rooms: the declared ones, and every room a meeting of the term is in; each one's campus. */
function termRooms(problem: TermDraftProblem, all: readonly Booking[]): { rooms: TermRoom[]; roomIndex: Map<string, number>; campusOf: (string | null)[] } {
  const rooms: TermRoom[] = [...problem.rooms];
  const roomIndex = new Map(rooms.map((r, i) => [r.key, i]));
  for (const b of [...all, ...(problem.untimed ?? []).map((u) => u.booking)]) {
    if (b.roomKey === null || roomIndex.has(b.roomKey)) continue;
    roomIndex.set(b.roomKey, rooms.length);
    rooms.push({ name: b.room, key: b.roomKey, capacity: null, campus: b.campus });
  }
  const campusOf = rooms.map((r) => r.campus ?? all.find((b) => b.roomKey === r.key)?.campus ?? null);
  return { rooms, roomIndex, campusOf };
}

/** The term's day: its earliest start and latest end, at least the department's standard times; the day patterns of each number of days. */
function termDay(sessions: readonly Session[]): { dayStart: number; dayEnd: number; patterns: Map<number, Set<string>> } {
  const dayStart = Math.floor(Math.min(...sessions.map((s) => s.start)) / START_STEP) * START_STEP;
  const dayEnd = Math.max(...sessions.map((s) => s.start + s.duration));
  const patterns = new Map<number, Set<string>>();
  for (const s of sessions) patterns.set(s.day.length, (patterns.get(s.day.length) ?? new Set<string>()).add(s.day));
  return { dayStart, dayEnd, patterns };
}

/** Who and what each unit's times must keep clear of: the fixed meetings of its instructors, its sections and its cohorts. */
function fixedMeetings(problem: TermDraftProblem): {
  fixedByDoctor: Map<number, Booking[]>;
  fixedBySection: Map<string, Booking[]>;
  cohortFixed: Map<string, Booking[]>;
} {
  const fixedByDoctor = new Map<number, Booking[]>();
  const fixedBySection = new Map<string, Booking[]>();
  for (const b of problem.fixed) {
    for (const id of b.doctor_ids) pushTo(fixedByDoctor, id, b);
    pushTo(fixedBySection, sectionKey(b), b);
  }
  const cohortFixed = new Map<string, Booking[]>();
  for (const b of problem.fixed) for (const key of problem.cohortsOf(b)) pushTo(cohortFixed, key, b);
  return { fixedByDoctor, fixedBySection, cohortFixed };
}

/** The instructors the search chooses among, their specs in the model, and what they teach already. */
interface Choosers {
  ids: number[];
  index: Map<number, number>;
  specs: InstructorSpec[];
  sectionsTaught: (id: number) => number;
  busyDaysOf: (id: number) => number;
}

/**
 * Instructors the search chooses: each busy when unavailable or teaching a meeting it cannot move
 * (with the travel time around a meeting at another campus), up to their limit of sections.
 */
function choosers(
  problem: TermDraftProblem,
  units: readonly Unit[],
  weeks: Weeks,
  fixedByDoctor: ReadonlyMap<number, Booking[]>,
  weights: SoftWeights,
): Choosers {
  const chooserIds = [...new Set(units.flatMap((u) => u.untimed?.candidates ?? []))];
  const instructorIndex = new Map(chooserIds.map((id, k) => [id, k]));
  const allWeeks = weeks.patternOf({ part: WHOLE_TERM });
  const taught = new Map<number, number>();
  const sectionsTaught = (id: number): number => {
    const known = taught.get(id);
    if (known !== undefined) return known;
    const count = countTaught(id);
    taught.set(id, count);
    return count;
  };
  const countTaught = (id: number): number =>
    new Set(
      [...problem.fixed, ...units.filter((u) => u.untimed !== null && u.untimed.candidates === undefined).map((u) => u.first)]
        .filter((b) => b.doctor_ids.includes(id))
        .map((b) => `${b.department}|${sectionKey(b)}`),
    ).size + (problem.alsoTeaching?.get(id) ?? 0);
  const busyDaysOf = (id: number): number => (fixedByDoctor.get(id) ?? []).reduce((days, b) => days | dayMask(b.day), 0);
  const instructorSpecs: InstructorSpec[] = chooserIds.map((id) => {
    const doctor = problem.doctors.get(id);
    const window = availabilityWindow(doctor ?? { available_days: null, available_time: null });
    const unavailable: Omit<TimeOption, 'penalty'>[] = [];
    DAY_LETTERS.forEach((letter, d) => {
      if (!window.days.includes(letter)) unavailable.push({ days: 1 << d, start: 0, length: DAY, weeks: allWeeks });
      else {
        if (window.start > 0) unavailable.push({ days: 1 << d, start: 0, length: window.start, weeks: allWeeks });
        if (window.end < DAY) unavailable.push({ days: 1 << d, start: window.end, length: DAY - window.end, weeks: allWeeks });
      }
    });
    // The travel time pads a meeting at another campus than the sections they may take (all of them, when those span campuses).
    const campuses = new Set(units.filter((u) => u.untimed?.candidates?.includes(id) === true).map((u) => u.first.campus));
    for (const b of fixedByDoctor.get(id) ?? []) {
      const travel = campuses.size === 1 && campuses.has(b.campus) ? 0 : problem.rules.travelMinutes;
      unavailable.push({
        days: dayMask(b.day),
        start: Math.max(0, b.start - travel),
        length: Math.min(DAY, b.start + b.duration + travel) - Math.max(0, b.start - travel),
        weeks: weeks.patternOf(b),
      });
    }
    const limit = problem.maxSectionsPerInstructor;
    return {
      id: doctor?.name ?? String(id),
      unavailable,
      maxClasses: limit === undefined ? null : Math.max(0, limit - sectionsTaught(id)),
      // Few teaching days (the days they teach already are free) and an even load.
      dayPenalty: Math.round(weights.teachingDays * SCALE),
      busyDays: busyDaysOf(id),
      loadPenalty: Math.round(weights.loadBalance * SCALE),
      load: sectionsTaught(id),
    };
  });
  return { ids: chooserIds, index: instructorIndex, specs: instructorSpecs, sectionsTaught, busyDaysOf };
}

/** Rooms a class chooses among at most: a campus's large pool is narrowed to the rooms that fit it best. */
export const MAX_ROOM_OPTIONS = 48;

/**
 * A class's rooms, at most MAX_ROOM_OPTIONS: its own room, then those that fit it best (fewest seats
 * left empty); rooms that fit alike are taken from a place that differs from class to class, so
 * classes spread over the pool rather than all wanting its first rooms.
 */
function fittingRooms(options: readonly number[], current: number | undefined, emptyShare: (ri: number) => number, classIndex: number): number[] {
  if (options.length <= MAX_ROOM_OPTIONS) return [...options];
  const offset = (classIndex * 7_919) % options.length;
  const order = new Map(options.map((ri, k) => [ri, (k - offset + options.length) % options.length]));
  const empty = new Map(options.map((ri) => [ri, emptyShare(ri)]));
  const rank = (ri: number): [number, number] => [empty.get(ri) ?? 0, order.get(ri) ?? 0];
  const best = options
    .filter((ri) => ri !== current)
    .map((ri) => ({ ri, key: rank(ri) }))
    .sort((a, b) => a.key[0] - b.key[0] || a.key[1] - b.key[1])
    .map((x) => x.ri);
  return [...(current === undefined ? [] : [current]), ...best].slice(0, MAX_ROOM_OPTIONS);
}

/** What a unit's class is made from: the term's day, rooms and fixed meetings, the instructors chosen among. */
interface ClassContext {
  problem: TermDraftProblem;
  weights: SoftWeights;
  weeks: Weeks;
  day: ReturnType<typeof termDay>;
  fixed: ReturnType<typeof fixedMeetings>;
  rooms: TermRoom[];
  roomIndex: ReadonlyMap<string, number>;
  campusOf: readonly (string | null)[];
  choosers: Choosers;
}

/** The times a unit may take (kept clear of its members' fixed meetings): a section without a time, the slots; a meeting, every start of its day pattern. */
function unitTimes(unit: Unit, context: ClassContext): Session[] {
  const { problem } = context;
  const { dayStart, dayEnd, patterns } = context.day;
  const { fixedByDoctor, fixedBySection } = context.fixed;
  const shape = unit.first;
  const candidates: Session[] = [];
  if (unit.untimed !== null) candidates.push(...problem.slots.map((s) => ({ day: s.day, start: s.start, duration: s.duration })));
  else {
    for (const day of patterns.get(shape.day.length) ?? [shape.day])
      for (let start = dayStart; start + shape.duration <= dayEnd; start += START_STEP) candidates.push({ day, start, duration: shape.duration });
    if (!candidates.some((s) => s.day === shape.day && s.start === shape.start))
      candidates.push({ day: shape.day, start: shape.start, duration: shape.duration });
  }
  return candidates.filter((s) =>
    unit.members.every((m) => {
      const probe: Booking = { ...m.booking, day: s.day, start: s.start, duration: s.duration, roomKey: null };
      const teaching = m.booking.doctor_ids.map((id) => problem.doctors.get(id)).filter((d): d is DoctorAvailability => d !== undefined);
      const own = fixedBySection.get(sectionKey(m.booking)) ?? [];
      const near = [...new Set([...m.booking.doctor_ids.flatMap((id) => fixedByDoctor.get(id) ?? []), ...own])];
      // The section's other meetings stay apart (those listed overlapping it today, in different weeks, aside).
      const apart = own.every((b) => !meetTogether(probe, b) || (unit.untimed === null && meetTogether(m.booking, b)));
      return apart && bookingConflicts(probe, teaching, near, problem.rules).length === 0;
    }),
  );
}

/** The students a unit's sections expect together (undefined when one of them has no estimate). */
function studentsOf(unit: Unit, problem: TermDraftProblem): number | undefined {
  return [...new Set(unit.members.map((m) => sectionKey(m.booking)))].reduce<number | undefined>((sum, key) => {
    const member = unit.members.find((m) => sectionKey(m.booking) === key) as MovableMeeting;
    const size = problem.expected(member.booking);
    return size === undefined || sum === undefined ? undefined : sum + size;
  }, 0);
}

/** A unit's class: its times (kept clear of its fixed meetings), its rooms (that seat it) and, when chosen, its instructors. */
function unitClass(unit: Unit, i: number, context: ClassContext): TimetableProblem['classes'][number] {
  const { problem, weights, weeks, rooms, roomIndex, campusOf } = context;
  const { cohortFixed } = context.fixed;
  const { ids: chooserIds, index: instructorIndex } = context.choosers;
  const shape = unit.first;
  // The department's soft goals weigh as the registrar chose (a campus draft), else as they are.
  const weighed = problem.departmentWeight?.(shape.department) ?? 1;
  unit.times = unitTimes(unit, context);
  // The weeks of any of its members (joint partners may be in different parts of term).
  const unitWeeks = weeks.patternOf(...unit.members.map((m) => m.booking));
  const cohorts = new Set(unit.members.flatMap((m) => problem.cohortsOf(m.booking)));
  const courses = new Set(unit.members.map((m) => courseKey(m.booking)));
  const times: TimeOption[] = unit.times.map((s) => {
    let clashes = 0;
    for (const key of cohorts)
      for (const b of cohortFixed.get(key) ?? []) if (!courses.has(courseKey(b)) && b.campus === shape.campus && sessionsOverlap(b, s)) clashes++;
    unit.clashes.push(clashes);
    const moved = unit.untimed === null && !problem.rebuild && !(s.day === shape.day && s.start === shape.start);
    return {
      days: dayMask(s.day),
      start: s.start,
      length: s.duration,
      weeks: unitWeeks,
      penalty: Math.round((clashes * weights.curriculumClash + (moved ? weights.movedMeeting : 0)) * SCALE * weighed),
    };
  });
  // Rooms: none for a meeting without one; a room not declared is kept; else the campus's that seat it.
  const current = shape.roomKey === null ? undefined : roomIndex.get(shape.roomKey);
  const students = studentsOf(unit, problem);
  const here = current === undefined ? undefined : rooms[current];
  const need = students ?? here?.capacity ?? null;
  // A room of the meeting's campus (or of none) that its department may book: the pool's, or its own.
  const bookable = (r: TermRoom, ri: number): boolean =>
    (campusOf[ri] === null || campusOf[ri] === shape.campus) && (r.department == null || r.department === shape.department);
  if (unit.untimed !== null && current === undefined && unit.untimed.needsRoom) {
    // No room listed: a declared room of its campus that seats it (none declared: a room to be decided).
    unit.rooms = rooms.flatMap((r, ri) => (r.capacity !== null && (need === null || r.capacity >= need) && bookable(r, ri) ? [ri] : []));
  } else if (current !== undefined) {
    const options =
      here?.capacity == null || need === null
        ? [current]
        : rooms.flatMap((r, ri) => (r.capacity !== null && r.capacity >= need && bookable(r, ri) ? [ri] : []));
    if (!options.includes(current)) options.push(current);
    unit.rooms = options;
  }
  const emptyShare = (ri: number): number => {
    const capacity = rooms[ri]?.capacity ?? null;
    return capacity === null || need === null || capacity < need ? 0 : (capacity - need) / capacity;
  };
  unit.rooms = fittingRooms(unit.rooms, current, emptyShare, i);
  const roomOptions = unit.rooms.map((ri) => {
    const moved = unit.untimed === null && !problem.rebuild && ri !== current;
    return { room: ri, penalty: Math.round((weights.emptySeats * emptyShare(ri) + (moved ? weights.movedRoom : 0)) * SCALE * weighed) };
  });
  const choosing = unit.untimed?.candidates;
  if (choosing === undefined) {
    unit.empty = unit.rooms.map(emptyShare);
    return { id: `${shape.course_code} ${shape.section_name} ${shape.day} ${shape.start}`, limit: -1, parent: -1, subpart: i, times, rooms: roomOptions };
  }
  // The search chooses the instructor with the room: each room (or none) with each candidate.
  const kept = new Set(unit.untimed?.keep ?? []);
  const options = (roomOptions.length > 0 ? roomOptions : [{ room: -1, penalty: 0 }]).flatMap((o) =>
    choosing.map((id) => {
      const other = kept.size > 0 && !kept.has(id);
      return {
        room: o.room,
        penalty: o.penalty + Math.round((other ? weights.keepInstructor : 0) * SCALE),
        instructors: [instructorIndex.get(id) as number],
      };
    }),
  );
  unit.chosen = options.map((o) => chooserIds[o.instructors[0] as number] as number);
  unit.rooms = options.map((o) => o.room);
  unit.empty = unit.rooms.map((ri) => (ri < 0 ? 0 : emptyShare(ri)));
  return { id: `${shape.course_code} ${shape.section_name}`, limit: -1, parent: -1, subpart: i, times, rooms: options };
}

/** Adds one rule between classes (see draftDistributions). */
type AddRule = (members: Iterable<number>, type: Distribution['type'], goal: keyof SoftWeights | null, penalty?: number, params?: number[]) => void;

/**
 * A joint group's meetings of other shapes or rooms that meet together today (with a common day and
 * week) keep meeting together as they do (keptTogether). Not two in one room, which the model gives
 * one class at a time.
 */
function keepJointGroupsTogether(units: readonly Unit[], group: AddRule): void {
  const byGroup = new Map<string, number[]>();
  units.forEach((unit, i) => {
    if (unit.untimed === null && unit.first.joint_group !== null) pushTo(byGroup, unit.first.joint_group, i);
  });
  for (const list of byGroup.values())
    for (const [x, a] of list.entries())
      for (const b of list.slice(x + 1)) {
        const ua = units[a] as Unit;
        const ub = units[b] as Unit;
        if (ua.first.roomKey !== null && ua.first.roomKey === ub.first.roomKey) continue;
        for (const m of ua.members) {
          const n = ub.members.find((other) => sectionKey(m.booking) !== sectionKey(other.booking) && meetTogether(m.booking, other.booking));
          if (n === undefined) continue;
          for (const type of keptTogether(m.booking, n.booking)) group([a, b], type, null);
          break;
        }
      }
}

/** A cohort's courses do not overlap: each pair of units of different courses once, a soft goal. */
function keepCohortsApart(byCohort: ReadonlyMap<string, { unit: number; course: string }[]>, weights: SoftWeights, group: AddRule): void {
  const cohortPairs = new Set<string>();
  for (const members of byCohort.values())
    for (let x = 0; x < members.length; x++)
      for (let y = x + 1; y < members.length; y++) {
        const a = members[x] as { unit: number; course: string };
        const b = members[y] as { unit: number; course: string };
        const key = `${Math.min(a.unit, b.unit)}|${Math.max(a.unit, b.unit)}`;
        if (a.course === b.course || a.unit === b.unit || cohortPairs.has(key)) continue;
        cohortPairs.add(key);
        group([a.unit, b.unit], 'NotOverlap', 'curriculumClash', Math.round(weights.curriculumClash * SCALE));
      }
}

/**
 * The model's rules between classes, and the soft goal each stands for (null: a hard rule): an
 * instructor's and a section's meetings apart, one course's sections apart, a joint group kept
 * meeting together, a cohort's courses not overlapping.
 */
function draftDistributions(
  problem: TermDraftProblem,
  units: readonly Unit[],
  weights: SoftWeights,
): { distributions: Distribution[]; goalOf: (keyof SoftWeights | null)[] } {
  const distributions: Distribution[] = [];
  // The soft goal each distribution stands for (null: a hard rule).
  const goalOf: (keyof SoftWeights | null)[] = [];
  // A goal of several departments' classes (an instructor's days) weighs as their mean.
  const weighed = (list: readonly number[]): number =>
    problem.departmentWeight === undefined
      ? 1
      : list.reduce((sum, i) => sum + (problem.departmentWeight?.(units[i]?.first.department ?? 0) ?? 1), 0) / Math.max(1, list.length);
  const group = (members: Iterable<number>, type: Distribution['type'], goal: keyof SoftWeights | null, penalty = 0, params: number[] = []): void => {
    const list = [...new Set(members)];
    if (list.length > 1 || (type === 'MaxDays' && list.length > 0)) {
      distributions.push({ type, params, required: goal === null, penalty: goal === null ? penalty : Math.round(penalty * weighed(list)), classes: list });
      goalOf.push(goal);
    }
  };
  const byDoctor = new Map<number, number[]>();
  const bySection = new Map<string, number[]>();
  const byCourse = new Map<string, Map<string, number[]>>();
  const byCohort = new Map<string, { unit: number; course: string }[]>();
  units.forEach((unit, i) => {
    for (const m of unit.members) {
      for (const id of m.booking.doctor_ids) pushTo(byDoctor, id, i);
      pushTo(bySection, sectionKey(m.booking), i);
      const sections = byCourse.get(courseKey(m.booking)) ?? new Map<string, number[]>();
      pushTo(sections, m.booking.section_name, i);
      byCourse.set(courseKey(m.booking), sections);
      for (const key of problem.cohortsOf(m.booking)) pushTo(byCohort, key, { unit: i, course: courseKey(m.booking) });
    }
  });
  const groupOf = (unit: number): string | null => units[unit]?.first.joint_group ?? null;
  for (const members of byDoctor.values()) {
    // One instructor: never two places at once, with the travel time between campuses (joint partners
    // aside: they meet together by design, as the rules allow).
    const list = [...new Set(members)];
    const partners = list.some((a, x) => list.some((b, y) => y > x && groupOf(a) !== null && groupOf(a) === groupOf(b)));
    if (!partners) group(list, 'SameAttendees', null);
    else
      for (const [x, a] of list.entries())
        for (const b of list.slice(x + 1)) if (groupOf(a) === null || groupOf(a) !== groupOf(b)) group([a, b], 'SameAttendees', null);
    group(members, 'MaxDays', 'teachingDays', Math.round(weights.teachingDays * SCALE), [0]);
  }
  for (const members of bySection.values()) {
    // A section's meetings apart, but for those listed overlapping today (the section meeting in different weeks).
    const list = [...new Set(members)];
    const listedTogether = (a: number, b: number): boolean => {
      const x = units[a]?.first;
      const y = units[b]?.first;
      return x !== undefined && y !== undefined && units[a]?.untimed === null && units[b]?.untimed === null && meetTogether(x, y);
    };
    if (!list.some((a, x) => list.slice(x + 1).some((b) => listedTogether(a, b)))) group(list, 'NotOverlap', null);
    else for (const [x, a] of list.entries()) for (const b of list.slice(x + 1)) if (!listedTogether(a, b)) group([a, b], 'NotOverlap', null);
  }
  for (const sections of byCourse.values()) {
    if (sections.size < 2) continue;
    // Sections of one course apart: a pair of different sections' meetings, once.
    const lists = [...sections.values()];
    for (let x = 0; x < lists.length; x++)
      for (let y = x + 1; y < lists.length; y++)
        for (const a of lists[x] ?? [])
          for (const b of lists[y] ?? []) {
            if (a === b) continue;
            group([a, b], 'DifferentTime', 'sameStart', Math.round(weights.sameStart * SCALE));
            group([a, b], 'DifferentDays', 'samePattern', Math.round(weights.samePattern * SCALE));
          }
  }
  keepJointGroupsTogether(units, group);
  keepCohortsApart(byCohort, weights, group);
  return { distributions, goalOf };
}

/** Minutes between each pair of rooms: the travel time between different campuses. */
function roomTravel(campusOf: readonly (string | null)[], minutes: number): Int32Array {
  const count = campusOf.length;
  const travel = new Int32Array(count * count);
  for (let a = 0; a < count; a++)
    for (let b = 0; b < count; b++) if (campusOf[a] !== null && campusOf[b] !== null && campusOf[a] !== campusOf[b]) travel[a * count + b] = minutes;
  return travel;
}

/** The soft goals a timetable of the model meets, counted as staff read them, and their weighted total. */
function draftGoals(
  model: TimetableProblem,
  units: readonly Unit[],
  goalOf: readonly (keyof SoftWeights | null)[],
  weights: SoftWeights,
  { busyDaysOf, sectionsTaught }: Choosers,
): (assignment: Assignment) => DraftGoals {
  return (assignment) => {
    const violations = distributionViolations(model, placedClasses(model, assignment));
    const counted = (goal: keyof SoftWeights): number => goalOf.reduce<number>((n, g, k) => (g === goal ? n + (violations[k] ?? 0) : n), 0);
    let fixedClashes = 0;
    let emptySeats = 0;
    const days = new Map<number, number>();
    const loads = new Map<number, number>();
    units.forEach((unit, i) => {
      const t = assignment.time[i] ?? -1;
      const option = assignment.room[i] ?? -1;
      if (t < 0) return;
      fixedClashes += unit.clashes[t] ?? 0;
      emptySeats += unit.empty[option] ?? 0;
      const chosen = unit.chosen?.[option];
      if (chosen === undefined) return;
      days.set(chosen, (days.get(chosen) ?? busyDaysOf(chosen)) | dayMask(unit.times[t]?.day ?? ''));
      loads.set(chosen, (loads.get(chosen) ?? sectionsTaught(chosen)) + 1);
    });
    const goals = {
      load_balance: [...loads.values()].reduce((sum, n) => sum + n * n, 0),
      same_pattern: counted('samePattern'),
      same_start: counted('sameStart'),
      curriculum_clashes: counted('curriculumClash') + fixedClashes,
      teaching_days: [...days.values()].reduce((sum, mask) => sum + bitCount(mask), 0),
      empty_seats: Math.round(emptySeats * 100) / 100,
    };
    const total =
      weights.loadBalance * goals.load_balance +
      weights.samePattern * goals.same_pattern +
      weights.sameStart * goals.same_start +
      weights.curriculumClash * goals.curriculum_clashes +
      weights.teachingDays * goals.teaching_days +
      weights.emptySeats * emptySeats;
    return { ...goals, total: Math.round(total * 100) / 100 };
  };
}

/** The term's weeks as the model's week patterns. */
type Weeks = ReturnType<typeof weekPatterns>;

export function termDraftModel(problem: TermDraftProblem): TermDraftModel {
  const weights = problem.weights ?? SOFT_WEIGHTS;
  const all = [...problem.movable.map((m) => m.booking), ...problem.fixed];
  const weeks = weekPatterns(all);
  const units = draftUnits(problem);
  const { rooms, roomIndex, campusOf } = termRooms(problem, all);
  const fixed = fixedMeetings(problem);
  const chosen = choosers(problem, units, weeks, fixed.fixedByDoctor, weights);
  const context: ClassContext = { problem, weights, weeks, day: termDay([...all, ...problem.slots]), fixed, rooms, roomIndex, campusOf, choosers: chosen };
  const classes = units.map((unit, i) => unitClass(unit, i, context));
  const { distributions, goalOf } = draftDistributions(problem, units, weights);
  const travel = roomTravel(campusOf, problem.rules.travelMinutes);
  const model: TimetableProblem = {
    name: 'auto-fill term',
    nrDays: DAY_LETTERS.length,
    nrWeeks: weeks.nrWeeks,
    slotsPerDay: DAY,
    weights: { time: 1, room: 1, distribution: 1, student: 0 },
    rooms: rooms.map((r) => ({
      id: r.name,
      capacity: r.capacity ?? 0,
      unavailable: problem.fixed
        .filter((b) => b.roomKey === r.key)
        .map((b) => ({ days: dayMask(b.day), start: b.start, length: b.duration, weeks: weeks.patternOf(b) })),
    })),
    travel,
    weekPatterns: { text: weeks.text, weeks: weeks.weeks },
    classes,
    ...oneCoursePerClass(classes.length),
    distributions,
    students: [],
    ...(chosen.specs.length > 0 ? { instructors: chosen.specs } : {}),
  };
  const initial: Assignment = {
    time: Int32Array.from(
      units.map((u) => (problem.rebuild || u.untimed !== null ? -1 : u.times.findIndex((s) => s.day === u.first.day && s.start === u.first.start))),
    ),
    room: Int32Array.from(units.map((u) => (u.first.roomKey === null ? -1 : u.rooms.indexOf(roomIndex.get(u.first.roomKey) ?? -1)))),
    students: [],
  };
  const goalsOf = draftGoals(model, units, goalOf, weights, chosen);
  const read: TermDraftModel['read'] = (assignment) => {
    const moves: DraftMove[] = [];
    const unplaced: DraftUnplaced[] = [];
    units.forEach((unit, i) => {
      const time = unit.times[assignment.time[i] ?? -1];
      const option = assignment.room[i] ?? -1;
      const roomAt = unit.rooms.length === 0 ? null : unit.rooms[option] === -1 ? null : unit.rooms[option];
      const instructor = unit.chosen?.[option];
      if (!time || roomAt === undefined) {
        const stays = unit.untimed === null ? 'it stays where it is' : 'it stays without a time';
        const reason = unit.times.length === 0 ? unplaceableReason(unit, problem, stays) : `No time and room were left free for it within the budget; ${stays}`;
        for (const m of unit.members) unplaced.push({ id: m.id, untimed: unit.untimed !== null, reason });
        return;
      }
      const room = roomAt === null ? unit.first.room : (rooms[roomAt]?.name ?? unit.first.room);
      for (const m of unit.members)
        moves.push({
          id: m.id,
          untimed: unit.untimed !== null,
          ...(instructor === undefined ? {} : { instructor }),
          day: time.day,
          start: time.start,
          duration: time.duration,
          room,
        });
    });
    return { moves, unplaced, goals: goalsOf(assignment) };
  };
  return { model, initial, read };
}

/**
 * How two joint partners that meet together today keep doing so when moved (hard): overlapping on a common day and
 * week, starting together if they do, one within the other's minutes if it is, on days within the other's if they are.
 */
function keptTogether(a: Session, b: Session): Distribution['type'][] {
  const within = (x: Session, y: Session): boolean => x.start >= y.start && x.start + x.duration <= y.start + y.duration;
  const [daysA, daysB] = [dayMask(a.day), dayMask(b.day)];
  return [
    'Overlap',
    ...(a.start === b.start ? (['SameStart'] as const) : within(a, b) || within(b, a) ? (['SameTime'] as const) : []),
    ...((daysA & daysB) === daysA || (daysA & daysB) === daysB ? (['SameDays'] as const) : []),
  ];
}

/** Why a meeting has no time at all, in a scheduler's words. */
function unplaceableReason(unit: Unit, problem: TermDraftProblem, stays: string): string {
  const names = [...new Set(unit.members.flatMap((m) => m.booking.doctor_ids))]
    .map((id) => problem.doctors.get(id)?.name)
    .filter((n): n is string => n !== undefined);
  const shape =
    unit.untimed !== null
      ? 'any standard time'
      : `any time of its shape (${unit.first.day.length} day${unit.first.day.length === 1 ? '' : 's'} a week for ${unit.first.duration} minutes)`;
  return names.length === 0
    ? `No time is free of the section's other meetings at ${shape}; ${stays}`
    : `${names.join(', ')} ${names.length === 1 ? 'is' : 'are'} not free at ${shape} outside their other meetings and hours; ${stays}`;
}
