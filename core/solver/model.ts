/**
 * A university timetabling problem in the terms of the International Timetabling Competition 2019,
 * pure: classes with their allowed times and rooms (each with a penalty), rooms with unavailable
 * times and travel times, distribution constraints, and the course structure students are
 * sectioned into. The reader (itc-reader.ts), the scorer (score.ts), the search and Termwise's own
 * auto-fill all speak this model. Time is counted in slots (5 minutes in the competition's files).
 */

/** The distribution constraint types, as the competition names them. */
export const DISTRIBUTION_TYPES = [
  'SameStart',
  'SameTime',
  'DifferentTime',
  'SameDays',
  'DifferentDays',
  'SameWeeks',
  'DifferentWeeks',
  'Overlap',
  'NotOverlap',
  'SameRoom',
  'DifferentRoom',
  'SameAttendees',
  'Precedence',
  'WorkDay',
  'MinGap',
  'MaxDays',
  'MaxDayLoad',
  'MaxBreaks',
  'MaxBlock',
] as const;
export type DistributionType = (typeof DISTRIBUTION_TYPES)[number];

/** How many parameters each parameterised type takes: WorkDay(S), MinGap(G), MaxDays(D), MaxDayLoad(S), MaxBreaks(R,S), MaxBlock(M,S). */
export const DISTRIBUTION_PARAMETERS: Partial<Record<DistributionType, number>> = {
  WorkDay: 1,
  MinGap: 1,
  MaxDays: 1,
  MaxDayLoad: 1,
  MaxBreaks: 2,
  MaxBlock: 2,
};

/** Types that constrain the whole set of classes at once; every other type holds pair by pair. */
export const SET_TYPES: ReadonlySet<DistributionType> = new Set(['MaxDays', 'MaxDayLoad', 'MaxBreaks', 'MaxBlock']);

/** Types that, when required, tie their classes' times or rooms together: a member moves only with the others. */
export const GROUP_TYPES: ReadonlySet<DistributionType> = new Set(['SameStart', 'SameTime', 'SameDays', 'SameWeeks', 'SameRoom', 'Overlap']);

/**
 * A time a class may meet: days (bit d set for day d, Monday d = 0), start slot, length in slots,
 * weeks (an index into the problem's week patterns), and its penalty.
 */
export interface TimeOption {
  days: number;
  start: number;
  length: number;
  weeks: number;
  penalty: number;
}

export interface RoomOption {
  /** Index into the problem's rooms (-1: a class that needs no room, choosing only its instructors). */
  room: number;
  penalty: number;
  /**
   * Instructors (indexes into the problem's instructors) the class takes with this option: the
   * search chooses them with the room. Not in the competition's format (its problems have none).
   */
  instructors?: number[];
}

/**
 * A person the search assigns to classes through their room options (Termwise's instructors): never
 * two classes at once (with travel between rooms, as SameAttendees), never when unavailable, at most
 * `maxClasses` classes.
 */
export interface InstructorSpec {
  id: string;
  unavailable: Omit<TimeOption, 'penalty'>[];
  /** Classes they may take at most; null: no limit. */
  maxClasses: number | null;
  /**
   * Soft, counted with the distributions: `dayPenalty` per day they teach beyond `busyDays` (a days
   * mask of what they already teach), and `loadPenalty` per unit of their squared number of classes
   * beyond `load` (classes already taught), so that teaching is spread evenly.
   */
  dayPenalty?: number;
  busyDays?: number;
  loadPenalty?: number;
  load?: number;
}

/** An instructor's soft cost for `count` classes on the days of `days` (see InstructorSpec). */
export function instructorPenalty(spec: InstructorSpec | undefined, count: number, days: number): number {
  if (!spec) return 0;
  const load = spec.load ?? 0;
  return (spec.loadPenalty ?? 0) * ((load + count) ** 2 - load ** 2) + (spec.dayPenalty ?? 0) * bitCount(days & ~(spec.busyDays ?? 0));
}

export interface Room {
  /** The id the file gives it. */
  id: string;
  capacity: number;
  /** Times the room cannot be used. */
  unavailable: Omit<TimeOption, 'penalty'>[];
}

export interface ClassSpec {
  id: string;
  /** Students it may take; -1 when the file gives no limit. */
  limit: number;
  /** Index of the parent class, or -1. */
  parent: number;
  /** Index into the problem's subparts. */
  subpart: number;
  times: TimeOption[];
  /** Empty when the class needs no room. */
  rooms: RoomOption[];
}

export interface Subpart {
  id: string;
  config: number;
  classes: number[];
}

export interface Config {
  id: string;
  course: number;
  subparts: number[];
}

export interface Course {
  id: string;
  configs: number[];
}

export interface Distribution {
  type: DistributionType;
  /** WorkDay(S) → [S], MaxBreaks(R,S) → [R, S], …; none for the other types. */
  params: number[];
  required: boolean;
  /** Per violation when not required. */
  penalty: number;
  /** Class indexes, in the file's order (Precedence reads it). */
  classes: number[];
}

export interface Student {
  id: string;
  /** Course indexes. */
  courses: number[];
}

export interface Weights {
  time: number;
  room: number;
  distribution: number;
  student: number;
}

/** The distinct week patterns of a problem, with what the rules ask of them. */
export interface WeekPatterns {
  /** The pattern as the file writes it ("0101…", week 1 first). */
  text: string[];
  /** The weeks each pattern holds (0-based), ascending. */
  weeks: number[][];
}

export interface TimetableProblem {
  name: string;
  nrDays: number;
  nrWeeks: number;
  slotsPerDay: number;
  weights: Weights;
  rooms: Room[];
  /** Travel time in slots between rooms a and b at [a · rooms + b], symmetric (0 when not listed). */
  travel: Int32Array;
  weekPatterns: WeekPatterns;
  classes: ClassSpec[];
  subparts: Subpart[];
  configs: Config[];
  courses: Course[];
  distributions: Distribution[];
  students: Student[];
  /** People chosen with the rooms (see RoomOption.instructors); none in the competition's problems. */
  instructors?: InstructorSpec[];
}

/** A timetable: for each class, the index of its time and of its room (-1: none, or not yet placed). */
export interface Assignment {
  time: Int32Array;
  room: Int32Array;
  /** For each student, the classes they attend. */
  students: number[][];
}

/** The lowest set bit of a days mask (the first day), or -1. */
export function firstDay(days: number): number {
  return days === 0 ? -1 : 31 - Math.clz32(days & -days);
}

export function bitCount(mask: number): number {
  let n = mask - ((mask >>> 1) & 0x55555555);
  n = (n & 0x33333333) + ((n >>> 2) & 0x33333333);
  return (((n + (n >>> 4)) & 0x0f0f0f0f) * 0x01010101) >>> 24;
}

/** Travel time in slots between two rooms (0 for the same room or a pair the problem does not list). */
export function travelTime(problem: Pick<TimetableProblem, 'travel' | 'rooms'>, a: number, b: number): number {
  return a === b ? 0 : (problem.travel[a * problem.rooms.length + b] ?? 0);
}
