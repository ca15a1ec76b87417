import { attendeesConflictAt, longestTravel, type Placed } from './distributions';
import type { TimeOption, TimetableProblem } from './model';
import type { TimeAlgebra } from './times';

/** A class's time or room when it has none. */
export const UNPLACED = -1;

/**
 * Where each class is: its time and room option, and the same as read by the rules (its time as
 * four numbers, its room, the classes in each room and with each instructor). The assignment alone,
 * as cpsolver keeps it apart from the model: no costs (soft-costs.ts) and no rules (hard-rules.ts).
 */
export class Placement {
  /** Per class, its time option (UNPLACED when not placed). */
  readonly time: Int32Array;
  /** The problem's longest travel time between two rooms (classes further apart never clash). */
  private readonly longestTravel: number;
  /** How many times a class has been placed, moved or taken out (see revision). */
  private changes = 0;
  /** Per class, its room option (UNPLACED when not placed or when it takes no room). */
  readonly room: Int32Array;
  /** Each class as placed (null when not), kept with the assignment so moves allocate nothing to read it. */
  readonly placedNow: (Placed | null)[];
  /**
   * Each placed class's time as four numbers (days, first slot, end slot, weeks) at 4·c, kept with
   * the assignment (no days when not placed): the room check reads them for every class in the room,
   * the student check for every class sharing students.
   */
  readonly placedTimes: Int32Array;
  /** Each placed class's room (-1 for none or not placed), beside placedTimes. */
  readonly placedRoom: Int32Array;
  /** Per room, the classes placed in it. */
  readonly inRoom: number[][];
  /** Per instructor (problem.instructors), the classes placed with them. */
  readonly withInstructor: number[][];
  private readonly unplaced = new Set<number>();

  constructor(
    readonly problem: TimetableProblem,
    readonly algebra: TimeAlgebra,
  ) {
    const classes = problem.classes.length;
    this.longestTravel = longestTravel(problem);
    this.time = new Int32Array(classes).fill(UNPLACED);
    this.room = new Int32Array(classes).fill(UNPLACED);
    this.placedNow = problem.classes.map(() => null);
    this.placedTimes = new Int32Array(4 * classes);
    this.placedRoom = new Int32Array(classes).fill(-1);
    this.inRoom = problem.rooms.map(() => []);
    this.withInstructor = (problem.instructors ?? []).map(() => []);
    for (let classIndex = 0; classIndex < classes; classIndex++) this.unplaced.add(classIndex);
  }

  /** Counts the changes to where classes are: a reading kept beside an equal revision still holds. */
  get revision(): number {
    return this.changes;
  }

  get complete(): boolean {
    return this.unplaced.size === 0;
  }

  get placedCount(): number {
    return this.time.length - this.unplaced.size;
  }

  /** The classes not placed, in no particular order. */
  unplacedClasses(): number[] {
    return [...this.unplaced];
  }

  /** A class's time option `timeIndex` (its current one by default). */
  timeOf(classIndex: number, timeIndex: number = this.time[classIndex] ?? UNPLACED): TimeOption {
    return this.problem.classes[classIndex]?.times[timeIndex] as TimeOption;
  }

  /** The class as it would be placed at (`timeIndex`, `roomIndex`). */
  placedAs(classIndex: number, timeIndex: number, roomIndex: number): Placed {
    const spec = this.problem.classes[classIndex];
    return { time: spec?.times[timeIndex] as TimeOption, room: roomIndex < 0 ? -1 : (spec?.rooms[roomIndex]?.room ?? -1) };
  }

  /** The instructors the class takes with its room option `roomIndex`. */
  instructorsAt(classIndex: number, roomIndex: number): readonly number[] {
    return (roomIndex >= 0 ? this.problem.classes[classIndex]?.rooms[roomIndex]?.instructors : undefined) ?? [];
  }

  /** Whether two placed classes would clash for a student attending both (never when either is not placed). */
  studentsClash(firstClass: number, secondClass: number): boolean {
    const at = this.placedTimes;
    const x = 4 * firstClass;
    return this.clashesWithPlaced(
      at[x] as number,
      at[x + 1] as number,
      at[x + 2] as number,
      at[x + 3] as number,
      this.placedRoom[firstClass] as number,
      secondClass,
    );
  }

  /** How many of `classes` (but `without` and the class itself) clash with the placed class for a student attending them. */
  clashCount(classIndex: number, classes: readonly number[], without: number): number {
    let n = 0;
    for (let i = 0; i < classes.length; i++) {
      const other = classes[i] as number;
      if (other !== without && other !== classIndex && this.studentsClash(classIndex, other)) n++;
    }
    return n;
  }

  /** Whether a class at (days, first slot, end slot, weeks, room) clashes with `placedClass` for a student (or instructor) attending both. */
  clashesWithPlaced(days: number, start: number, end: number, weeks: number, room: number, placedClass: number): boolean {
    const at = this.placedTimes;
    const y = 4 * placedClass;
    const dDays = at[y] as number;
    const dStart = at[y + 1] as number;
    const dEnd = at[y + 2] as number;
    const dWeeks = at[y + 3] as number;
    const dRoom = this.placedRoom[placedClass] as number;
    return attendeesConflictAt(this.problem, this.algebra, days, start, end, weeks, room, dDays, dStart, dEnd, dWeeks, dRoom, this.longestTravel);
  }

  /** The class placed at (`timeIndex`, `roomIndex`): in its room's and its instructors' lists, and read as placed. */
  put(classIndex: number, timeIndex: number, roomIndex: number): void {
    this.time[classIndex] = timeIndex;
    this.room[classIndex] = roomIndex;
    this.place(classIndex, timeIndex, roomIndex);
    const room = roomIndex >= 0 ? (this.problem.classes[classIndex]?.rooms[roomIndex]?.room ?? -1) : -1;
    if (room >= 0) this.inRoom[room]?.push(classIndex);
    for (const k of this.instructorsAt(classIndex, roomIndex)) this.withInstructor[k]?.push(classIndex);
    this.unplaced.delete(classIndex);
  }

  /** The placed class out of the timetable. */
  take(classIndex: number): void {
    this.changes++;
    this.leaveLists(classIndex);
    this.time[classIndex] = UNPLACED;
    this.room[classIndex] = UNPLACED;
    this.placedNow[classIndex] = null;
    this.placedTimes[4 * classIndex] = 0;
    this.placedRoom[classIndex] = -1;
    this.unplaced.add(classIndex);
  }

  /** The placed class from where it is to (`timeIndex`, `roomIndex`). */
  move(classIndex: number, timeIndex: number, roomIndex: number): void {
    this.leaveLists(classIndex);
    this.time[classIndex] = timeIndex;
    this.room[classIndex] = roomIndex;
    this.place(classIndex, timeIndex, roomIndex);
    const to = this.problem.classes[classIndex]?.rooms[roomIndex]?.room ?? -1;
    if (to >= 0) this.inRoom[to]?.push(classIndex);
    for (const k of this.instructorsAt(classIndex, roomIndex)) this.withInstructor[k]?.push(classIndex);
  }

  /** The class out of its room's and its instructors' lists. */
  private leaveLists(classIndex: number): void {
    const roomIndex = this.room[classIndex] ?? UNPLACED;
    const room = roomIndex >= 0 ? (this.problem.classes[classIndex]?.rooms[roomIndex]?.room ?? -1) : -1;
    if (room >= 0) removeFrom(this.inRoom[room] as number[], classIndex);
    for (const k of this.instructorsAt(classIndex, roomIndex)) removeFrom(this.withInstructor[k] as number[], classIndex);
  }

  /** The class as placed at (`timeIndex`, `roomIndex`), in placedNow and placedTimes. */
  private place(classIndex: number, timeIndex: number, roomIndex: number): void {
    this.changes++;
    const placed = this.placedAs(classIndex, timeIndex, roomIndex);
    this.placedNow[classIndex] = placed;
    const at = this.placedTimes;
    at[4 * classIndex] = placed.time.days;
    at[4 * classIndex + 1] = placed.time.start;
    at[4 * classIndex + 2] = placed.time.start + placed.time.length;
    at[4 * classIndex + 3] = placed.time.weeks;
    this.placedRoom[classIndex] = placed.room;
  }
}

function removeFrom(list: number[], classIndex: number): void {
  const at = list.indexOf(classIndex);
  if (at >= 0) list.splice(at, 1);
}
