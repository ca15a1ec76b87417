import { attendeesConflict, pairHolds, setExcess, setPenalty, type Placed } from './distributions';
import { instructorPenalty, SET_TYPES, type Assignment, type TimetableProblem } from './model';
import { TimeAlgebra } from './times';

/**
 * The competition's scoring of a timetable, part by part, from scratch and pure: every hard rule
 * checked (each violation listed in words), then the four penalty parts and their weighted sum.
 * The search keeps its own running totals; this is the judge it is checked against, and nothing
 * is reported valid that this function does not find valid.
 */

export type HardKind = 'unplaced' | 'time' | 'room' | 'room-unavailable' | 'room-clash' | 'instructor' | 'distribution' | 'class-limit' | 'sectioning';

export interface HardViolation {
  kind: HardKind;
  message: string;
}

export interface Score {
  valid: boolean;
  /** Every hard violation (the first MAX_LISTED in words; `hardCount` counts them all). */
  hard: HardViolation[];
  hardCount: number;
  time: number;
  room: number;
  distribution: number;
  student: number;
  /** time·w_time + room·w_room + distribution·w_distribution + student·w_student. */
  total: number;
}

const MAX_LISTED = 100;

/** Where each class is placed (null: not placed, or not validly). */
export function placedClasses(problem: TimetableProblem, assignment: Assignment): (Placed | null)[] {
  return problem.classes.map((c, i) => {
    const time = c.times[assignment.time[i] ?? -1];
    if (!time) return null;
    if (c.rooms.length === 0) return { time, room: -1 };
    const option = c.rooms[assignment.room[i] ?? -1];
    return option ? { time, room: option.room } : null;
  });
}

/**
 * Each distribution's violations: the pairs of its classes that break it, or a set type's excess;
 * 0 where one of its classes is not placed (that is a hard violation of its own).
 */
export function distributionViolations(
  problem: TimetableProblem,
  placed: readonly (Placed | null)[],
  algebra: TimeAlgebra = new TimeAlgebra(problem.weekPatterns),
): Int32Array {
  const out = new Int32Array(problem.distributions.length);
  problem.distributions.forEach((d, k) => {
    const members = d.classes.map((classIndex) => placed[classIndex]).filter((p): p is Placed => p !== null && p !== undefined);
    if (members.length !== d.classes.length) return;
    if (SET_TYPES.has(d.type)) {
      out[k] = setExcess(
        problem,
        algebra,
        d,
        members.map((p) => p.time),
      );
      return;
    }
    let broken = 0;
    for (let x = 0; x < members.length; x++)
      for (let y = x + 1; y < members.length; y++) if (!pairHolds(problem, algebra, d, members[x] as Placed, members[y] as Placed)) broken++;
    out[k] = broken;
  });
  return out;
}

/** Records a hard violation: counted always, its words listed up to MAX_LISTED (made only then). */
type Violate = (kind: HardKind, message: () => string) => void;

export function scoreAssignment(problem: TimetableProblem, assignment: Assignment, algebra: TimeAlgebra = new TimeAlgebra(problem.weekPatterns)): Score {
  const hard: HardViolation[] = [];
  let hardCount = 0;
  const violate: Violate = (kind, message) => {
    hardCount++;
    if (hard.length < MAX_LISTED) hard.push({ kind, message: message() });
  };
  const placed = checkedPlacements(problem, assignment, violate);
  const { time, room } = optionPenalties(problem, assignment, placed, algebra, violate);
  roomClashes(problem, placed, algebra, violate);
  const byInstructor = classesByInstructor(problem, assignment, placed);
  instructorClashes(problem, placed, byInstructor, algebra, violate);
  const distribution = distributionPenalty(problem, placed, byInstructor, algebra, violate);
  const student = studentPenalty(problem, assignment, placed, algebra, violate);
  const w = problem.weights;
  return {
    valid: hardCount === 0,
    hard,
    hardCount,
    time,
    room,
    distribution,
    student,
    total: time * w.time + room * w.room + distribution * w.distribution + student * w.student,
  };
}

/** Each class's time and room, as the assignment gives them among its options; null, and a violation saying why, where it does not. */
function checkedPlacements(problem: TimetableProblem, assignment: Assignment, violate: Violate): (Placed | null)[] {
  return problem.classes.map((c, i) => {
    const timeIndex = assignment.time[i] ?? -1;
    const roomIndex = assignment.room[i] ?? -1;
    const time = c.times[timeIndex];
    if (timeIndex < 0 || !time) {
      violate(timeIndex < 0 ? 'unplaced' : 'time', () => `class ${c.id} has ${timeIndex < 0 ? 'no time' : 'a time not among its options'}`);
      return null;
    }
    if (c.rooms.length === 0) {
      if (roomIndex >= 0) violate('room', () => `class ${c.id} needs no room but has one`);
      return { time, room: -1 };
    }
    const option = c.rooms[roomIndex];
    if (roomIndex < 0 || !option) {
      violate('room', () => `class ${c.id} has ${roomIndex < 0 ? 'no room' : 'a room not among its options'}`);
      return null;
    }
    return { time, room: option.room };
  });
}

/** The time and room options' penalties, and a violation for each class in a room while it is unavailable. */
function optionPenalties(
  problem: TimetableProblem,
  assignment: Assignment,
  placed: readonly (Placed | null)[],
  algebra: TimeAlgebra,
  violate: Violate,
): { time: number; room: number } {
  let time = 0;
  let room = 0;
  problem.classes.forEach((c, i) => {
    const p = placed[i];
    if (!p) return;
    time += c.times[assignment.time[i] ?? -1]?.penalty ?? 0;
    // An option's penalty counts even when it chooses only instructors (no room).
    if (c.rooms.length > 0) room += c.rooms[assignment.room[i] ?? -1]?.penalty ?? 0;
    if (p.room >= 0) {
      const r = problem.rooms[p.room];
      for (const u of r?.unavailable ?? [])
        if (algebra.overlaps(p.time, u)) violate('room-unavailable', () => `class ${c.id} is in room ${r?.id ?? ''} while it is unavailable`);
    }
  });
  return { time, room };
}

/** Two classes in one room at overlapping times. */
function roomClashes(problem: TimetableProblem, placed: readonly (Placed | null)[], algebra: TimeAlgebra, violate: Violate): void {
  const byRoom = new Map<number, number[]>();
  placed.forEach((p, i) => {
    if (!p || p.room < 0) return;
    const list = byRoom.get(p.room) ?? [];
    list.push(i);
    byRoom.set(p.room, list);
  });
  for (const [roomIndex, list] of byRoom) {
    for (let x = 0; x < list.length; x++)
      for (let y = x + 1; y < list.length; y++) {
        const a = placed[list[x] as number] as Placed;
        const b = placed[list[y] as number] as Placed;
        if (algebra.overlaps(a.time, b.time))
          violate(
            'room-clash',
            () =>
              `classes ${problem.classes[list[x] as number]?.id} and ${problem.classes[list[y] as number]?.id} are both in room ${problem.rooms[roomIndex]?.id} at overlapping times`,
          );
      }
  }
}

/** The classes each instructor teaches, as chosen with the classes' rooms. */
function classesByInstructor(problem: TimetableProblem, assignment: Assignment, placed: readonly (Placed | null)[]): Map<number, number[]> {
  const byInstructor = new Map<number, number[]>();
  placed.forEach((p, i) => {
    if (!p) return;
    for (const k of problem.classes[i]?.rooms[assignment.room[i] ?? -1]?.instructors ?? []) byInstructor.set(k, [...(byInstructor.get(k) ?? []), i]);
  });
  return byInstructor;
}

/** Instructors chosen with the rooms: never unavailable, never two places at once, never over their limit. */
function instructorClashes(
  problem: TimetableProblem,
  placed: readonly (Placed | null)[],
  byInstructor: ReadonlyMap<number, number[]>,
  algebra: TimeAlgebra,
  violate: Violate,
): void {
  for (const [k, list] of byInstructor) {
    const who = problem.instructors?.[k];
    const name = who?.id ?? String(k);
    for (const i of list)
      for (const u of who?.unavailable ?? [])
        if (algebra.overlaps((placed[i] as Placed).time, u))
          violate('instructor', () => `class ${problem.classes[i]?.id} is taught by ${name} while unavailable`);
    for (let x = 0; x < list.length; x++)
      for (let y = x + 1; y < list.length; y++)
        if (attendeesConflict(problem, algebra, placed[list[x] as number] as Placed, placed[list[y] as number] as Placed))
          violate(
            'instructor',
            () => `${name} teaches classes ${problem.classes[list[x] as number]?.id} and ${problem.classes[list[y] as number]?.id} at once`,
          );
    const limit = who?.maxClasses ?? null;
    if (limit !== null && list.length > limit) violate('instructor', () => `${name} teaches ${list.length} classes, more than ${limit}`);
  }
}

/** The distributions' penalty (instructors' teaching days and load with them); a required one broken is a violation. */
function distributionPenalty(
  problem: TimetableProblem,
  placed: readonly (Placed | null)[],
  byInstructor: ReadonlyMap<number, number[]>,
  algebra: TimeAlgebra,
  violate: Violate,
): number {
  let distribution = 0;
  for (const [k, list] of byInstructor)
    distribution += instructorPenalty(
      problem.instructors?.[k],
      list.length,
      list.reduce((days, i) => days | (placed[i] as Placed).time.days, 0),
    );
  const violations = distributionViolations(problem, placed, algebra);
  problem.distributions.forEach((d, k) => {
    const broken = violations[k] ?? 0;
    if (broken === 0) return;
    if (SET_TYPES.has(d.type)) {
      if (d.required) violate('distribution', () => `required ${d.type}(${d.params.join(',')}) (distribution ${k + 1}) is exceeded by ${broken}`);
      else distribution += setPenalty(problem, d, broken);
      return;
    }
    if (d.required)
      violate('distribution', () => `required ${d.type} (distribution ${k + 1}) is broken by ${broken} pair${broken === 1 ? '' : 's'} of classes`);
    else distribution += d.penalty * broken;
  });
  return distribution;
}

/**
 * Students' conflicts (pairs of their classes that overlap); each student in one configuration of
 * each course, one class of each of its subparts, parents taken, and every class within its limit.
 */
function studentPenalty(problem: TimetableProblem, assignment: Assignment, placed: readonly (Placed | null)[], algebra: TimeAlgebra, violate: Violate): number {
  const enrolled = new Int32Array(problem.classes.length);
  let student = 0;
  problem.students.forEach((s, si) => {
    const classes = assignment.students[si] ?? [];
    const set = new Set(classes);
    for (const classIndex of classes) enrolled[classIndex] = (enrolled[classIndex] ?? 0) + 1;
    const courseOf = (classIndex: number): number => problem.configs[problem.subparts[problem.classes[classIndex]?.subpart ?? -1]?.config ?? -1]?.course ?? -1;
    for (const classIndex of classes) {
      if (!s.courses.includes(courseOf(classIndex)))
        violate('sectioning', () => `student ${s.id} attends class ${problem.classes[classIndex]?.id} of a course they do not need`);
      const parent = problem.classes[classIndex]?.parent ?? -1;
      if (parent >= 0 && !set.has(parent))
        violate('sectioning', () => `student ${s.id} attends class ${problem.classes[classIndex]?.id} without its parent class ${problem.classes[parent]?.id}`);
    }
    for (const course of s.courses) {
      const configs = (problem.courses[course]?.configs ?? []).filter((cfg) =>
        (problem.configs[cfg]?.subparts ?? []).some((sp) => (problem.subparts[sp]?.classes ?? []).some((classIndex) => set.has(classIndex))),
      );
      if (configs.length !== 1) {
        violate('sectioning', () => `student ${s.id} is in ${configs.length} configurations of course ${problem.courses[course]?.id} (must be one)`);
        continue;
      }
      for (const sp of problem.configs[configs[0] as number]?.subparts ?? []) {
        const taken = (problem.subparts[sp]?.classes ?? []).filter((classIndex) => set.has(classIndex)).length;
        if (taken !== 1)
          violate(
            'sectioning',
            () => `student ${s.id} has ${taken} classes of subpart ${problem.subparts[sp]?.id} of course ${problem.courses[course]?.id} (must be one)`,
          );
      }
    }
    for (let x = 0; x < classes.length; x++) {
      const a = placed[classes[x] as number];
      if (!a) continue;
      for (let y = x + 1; y < classes.length; y++) {
        const b = placed[classes[y] as number];
        if (b && attendeesConflict(problem, algebra, a, b)) student++;
      }
    }
  });
  problem.classes.forEach((c, i) => {
    if (c.limit >= 0 && (enrolled[i] ?? 0) > c.limit)
      violate('class-limit', () => `class ${c.id} has ${enrolled[i]} students, more than its limit of ${c.limit}`);
  });

  return student;
}
