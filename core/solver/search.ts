import { SeededRandom } from '../util/random';
import { attendeesConflictAt, pairHolds, setExcess, setPenalty, type Placed } from './distributions';
import { instructorPenalty, SET_TYPES, type Assignment, type ClassSpec, type Distribution, type TimeOption, type TimetableProblem } from './model';
import { distributionViolations } from './score';
import { classChecks, type ClassCheck, type ClassChecks } from './class-checks';
import { TimeAlgebra } from './times';
import { Sectioning } from './sectioning';

/**
 * The search, pure (no I/O, no clock of its own: the caller says when to stop). Two phases, as
 * UniTime's solver does:
 * 1. Iterative forward search: place classes one at a time, each at the value (time and room)
 *    that displaces the fewest others — displaced classes go back in the queue — with conflict
 *    weights so the search does not cycle, until every class is placed with no hard constraint
 *    broken.
 * 2. Simulated annealing over complete timetables: move one class to another time or room (or
 *    both), never breaking a hard constraint, accepting worse moves with a probability that falls
 *    as the temperature cools (reheated when stuck); after every few hundred moves, the students
 *    a moved class now clashes for are re-sectioned (all students now and then).
 * The running totals here are checked against the scorer (score.ts) before any result is reported.
 */

export interface SearchProgress {
  phase: 'construction' | 'optimization';
  /** Classes placed (construction) or the best complete total so far (optimization). */
  placed: number;
  classes: number;
  bestTotal: number | null;
}

export interface ValueCost {
  t: number;
  r: number;
}

/** A class's time or room when it has none. */
export const UNPLACED = -1;
/** How often a construction step takes a random value instead of the least displacing one. */
const WALK_CHANCE = 0.02;

export class Search {
  readonly algebra: TimeAlgebra;
  readonly time: Int32Array;
  readonly room: Int32Array;
  /** How many classes the problem has. */
  readonly n: number;
  /** Per class, the distributions it is in. */
  readonly constraintsOf: number[][];
  /** Per room, the classes placed in it. */
  private readonly inRoom: number[][];
  /** Per instructor (problem.instructors), the classes placed with them. */
  private readonly withInstructor: number[][];
  /** Per class: per (time, room) option, whether the room is available then (room-less classes: one column). */
  private readonly available: Uint8Array[];
  /** Per class, how many room options it has (1 when none). */
  readonly width: Int32Array;
  /** Conflict weights: how often placing a class displaced another (key c·n + d). */
  private readonly weight = new Map<number, number>();
  readonly random: SeededRandom;
  readonly sectioning: Sectioning;
  private readonly unplaced = new Set<number>();
  /**
   * Soft cost of the current timetable (classes placed only) as the search weighs it (each part's
   * weight times its emphasis), kept up to date; the moves are judged by it.
   */
  cost = 0;
  /** The current timetable's soft cost in its parts before weighting (see Part), kept up to date. */
  readonly parts = new Float64Array(PARTS);
  /**
   * How much the search stresses each part beyond the problem's own weight (1: as the problem
   * weighs it); see emphasize. The timetable's total (`total`) is always the problem's.
   */
  readonly emphasis = new Float64Array(PARTS).fill(1);
  /** Each part's weight as the problem gives it (by Part). */
  private readonly weights: Float64Array;
  /** Each part's weight as the search counts it: the problem's weight times its emphasis. */
  private readonly stressed: Float64Array;
  /** The parts of the soft cost the last softCost read (before weighting). */
  private readonly read = new Float64Array(PARTS);
  /** A one-class move's change of the parts (tryMove's, then relocate's). */
  private readonly change = new Float64Array(PARTS);
  /** Values looked at so far (each hard-constraint test and each soft cost read): the work a move costs, counted without a clock. */
  probes = 0;
  /** Each class as placed (null when not), kept with the assignment so moves allocate nothing to read it. */
  readonly placedNow: (Placed | null)[];
  /**
   * Each placed class's time as four numbers (days, first slot, end slot, weeks) at 4·c, kept with
   * the assignment (no days when not placed): the room check reads them for every class in the room,
   * the student check for every class sharing students.
   */
  private readonly placedTimes: Int32Array;
  /** Each placed class's room (-1 for none or not placed), beside placedTimes. */
  private readonly placedRoom: Int32Array;
  /** The set hardConflicts answers when only asked whether a value is free. */
  private readonly probe = new Set<number>();
  /** Per class, its required and soft distributions as checks against single partners or sets (see classChecks). */
  private readonly checksOf: ClassChecks[];
  /** Per class, its time options by what they are (days, start, length, weeks), for swapping times; made when first asked. */
  private readonly timeIndex: (Map<string, number> | undefined)[] = [];

  constructor(
    readonly problem: TimetableProblem,
    seed: number,
  ) {
    this.algebra = new TimeAlgebra(problem.weekPatterns);
    this.n = problem.classes.length;
    this.time = new Int32Array(this.n).fill(UNPLACED);
    this.room = new Int32Array(this.n).fill(UNPLACED);
    this.random = new SeededRandom(seed);
    this.constraintsOf = problem.classes.map(() => []);
    problem.distributions.forEach((d, k) => {
      for (const c of new Set(d.classes)) this.constraintsOf[c]?.push(k);
    });
    this.inRoom = problem.rooms.map(() => []);
    this.withInstructor = (problem.instructors ?? []).map(() => []);
    this.placedNow = problem.classes.map(() => null);
    this.placedTimes = new Int32Array(4 * this.n);
    this.placedRoom = new Int32Array(this.n).fill(-1);
    this.checksOf = classChecks(problem);
    this.width = new Int32Array(this.n);
    this.available = problem.classes.map((c, i) => {
      const width = Math.max(1, c.rooms.length);
      this.width[i] = width;
      const table = new Uint8Array(c.times.length * width);
      c.times.forEach((t, ti) => {
        if (c.rooms.length === 0) table[ti] = 1;
        else
          c.rooms.forEach((r, ri) => {
            const room = problem.rooms[r.room];
            const roomBusy = room !== undefined && room.unavailable.some((u) => this.algebra.overlaps(t, u));
            const instructorBusy = (r.instructors ?? []).some((k) => (problem.instructors?.[k]?.unavailable ?? []).some((u) => this.algebra.overlaps(t, u)));
            table[ti * width + ri] = roomBusy || instructorBusy ? 0 : 1;
          });
      });
      return table;
    });
    for (let c = 0; c < this.n; c++) this.unplaced.add(c);
    this.sectioning = new Sectioning(problem, this.random, (a, b) => this.studentsClash(a, b));
    const w = problem.weights;
    this.weights = Float64Array.of(w.time, w.room, w.distribution, w.student);
    this.stressed = this.weights.slice();
  }

  /** The current timetable's soft cost as the problem weighs it (whatever the search's emphasis). */
  get total(): number {
    let total = 0;
    for (let p = 0; p < PARTS; p++) total += (this.parts[p] as number) * (this.weights[p] as number);
    return total;
  }

  /** The current timetable's parts, each weighted as the problem weighs it (by Part). */
  weightedParts(): number[] {
    return Array.from(this.parts, (part, p) => part * (this.weights[p] as number));
  }

  /**
   * Sets how much the search stresses each part beyond the problem's weight, and counts the running
   * cost again under it (from the parts, without reading the timetable again).
   */
  emphasize(emphasis: ArrayLike<number>): void {
    let cost = 0;
    for (let p = 0; p < PARTS; p++) {
      this.emphasis[p] = emphasis[p] ?? 1;
      this.stressed[p] = (this.weights[p] as number) * (this.emphasis[p] as number);
      cost += (this.stressed[p] as number) * (this.parts[p] as number);
    }
    this.cost = cost;
  }

  /** A re-sectioning's change of student conflicts, into the running totals. */
  addStudentConflicts(change: number): void {
    this.parts[Part.student] = (this.parts[Part.student] as number) + change;
    this.cost += (this.stressed[Part.student] as number) * change;
  }

  /** A class's time option `timeIndex` (its current one by default). */
  timeOf(classIndex: number, timeIndex: number = this.time[classIndex] ?? UNPLACED): TimeOption {
    return this.problem.classes[classIndex]?.times[timeIndex] as TimeOption;
  }

  placedAs(classIndex: number, timeIndex: number, roomIndex: number): Placed {
    const spec = this.problem.classes[classIndex];
    return { time: spec?.times[timeIndex] as TimeOption, room: roomIndex < 0 ? -1 : (spec?.rooms[roomIndex]?.room ?? -1) };
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

  /** Whether a class at (days, first slot, end slot, weeks, room) clashes with `placedClass` for a student (or instructor) attending both. */
  private clashesWithPlaced(days: number, start: number, end: number, weeks: number, room: number, placedClass: number): boolean {
    const at = this.placedTimes;
    const y = 4 * placedClass;
    const dDays = at[y] as number;
    const dStart = at[y + 1] as number;
    const dEnd = at[y + 2] as number;
    const dWeeks = at[y + 3] as number;
    return attendeesConflictAt(this.problem, this.algebra, days, start, end, weeks, room, dDays, dStart, dEnd, dWeeks, this.placedRoom[placedClass] as number);
  }

  get complete(): boolean {
    return this.unplaced.size === 0;
  }

  get placedCount(): number {
    return this.n - this.unplaced.size;
  }

  /**
   * The placed classes that must leave for the class to take (`timeIndex`, `roomIndex`): those in the room then, those
   * a required distribution forbids beside it. Null when the class cannot take it even alone. With
   * `firstOnly`, the set holds the first such class found (enough to know that the value is not free).
   */
  hardConflicts(classIndex: number, timeIndex: number, roomIndex: number, firstOnly = false): Set<number> | null {
    this.probes++;
    const spec = this.problem.classes[classIndex];
    if (!spec || (this.available[classIndex]?.[timeIndex * (this.width[classIndex] ?? 1) + Math.max(0, roomIndex)] ?? 0) === 0) return null;
    const me = this.placedAs(classIndex, timeIndex, roomIndex);
    // A value only asked whether it is free reuses one set: its callers keep nothing of it.
    const out = firstOnly ? this.probe : new Set<number>();
    if (out.size > 0) out.clear();
    if (me.room >= 0) {
      const occupants = this.inRoom[me.room] ?? [];
      const { days, start, length, weeks } = me.time;
      const end = start + length;
      const at = this.placedTimes;
      for (let i = 0; i < occupants.length; i++) {
        const d = occupants[i] as number;
        const x = d * 4;
        if (
          d !== classIndex &&
          this.algebra.overlapsAt(days, start, end, weeks, at[x] as number, at[x + 1] as number, at[x + 2] as number, at[x + 3] as number)
        ) {
          out.add(d);
          if (firstOnly) return out;
        }
      }
    }
    // Instructors chosen with the room: never two places at once, never over their limit.
    for (const k of (roomIndex >= 0 ? spec.rooms[roomIndex]?.instructors : undefined) ?? []) {
      const theirs = this.withInstructor[k] ?? [];
      const { days, start, length, weeks } = me.time;
      for (let i = 0; i < theirs.length; i++) {
        const d = theirs[i] as number;
        if (d !== classIndex && this.clashesWithPlaced(days, start, start + length, weeks, me.room, d)) {
          out.add(d);
          if (firstOnly) return out;
        }
      }
      const limit = this.problem.instructors?.[k]?.maxClasses ?? null;
      if (limit !== null) {
        if (limit <= 0) return null;
        let staying = 0;
        for (let i = 0; i < theirs.length; i++) if (theirs[i] !== classIndex && !out.has(theirs[i] as number)) staying++;
        // The earliest placed leave first, until the limit holds.
        for (let i = 0, leaving = staying - limit + 1; i < theirs.length && leaving > 0; i++) {
          const d = theirs[i] as number;
          if (d === classIndex || out.has(d)) continue;
          out.add(d);
          leaving--;
          if (firstOnly) return out;
        }
      }
    }
    const checks = this.checksOf[classIndex]?.required ?? [];
    for (let i = 0; i < checks.length; i++) {
      const check = checks[i] as ClassCheck;
      const dist = check.dist;
      if (check.partner < 0) {
        if (!this.displaceForSet(classIndex, me, dist, out, firstOnly)) return null;
        if (firstOnly && out.size > 0) return out;
        continue;
      }
      const d = check.partner;
      const other = this.placedNow[d];
      // Asked only whether the value is free, nothing has been displaced yet (the first would have answered).
      if (!other || (!firstOnly && out.has(d))) continue;
      if (!this.pairCheckHolds(check, me, other)) {
        out.add(d);
        if (firstOnly) return out;
      }
    }
    return out;
  }

  /**
   * A required set constraint (MaxDays, MaxDayLoad and the like) beside the class at `me`: adds to `out`
   * the classes whose leaving lowers its excess most, until it holds (the excess left is the one found
   * for the class displaced, not worked out again); with `firstOnly`, stops at the first. False when
   * the class breaks it even alone.
   */
  private displaceForSet(classIndex: number, me: Placed, dist: Distribution, out: Set<number>, firstOnly: boolean): boolean {
    let others = dist.classes.filter((d) => d !== classIndex && (this.time[d] ?? UNPLACED) >= 0 && !out.has(d));
    const times = (without: number): TimeOption[] => [me.time, ...others.filter((d) => d !== without).map((d) => this.timeOf(d))];
    let excess = setExcess(this.problem, this.algebra, dist, times(-1));
    if (excess === 0) return true;
    if (setExcess(this.problem, this.algebra, dist, [me.time]) > 0) return false;
    while (others.length > 0 && excess > 0) {
      let best = others[0] as number;
      let bestExcess = Number.POSITIVE_INFINITY;
      for (const d of others) {
        const without = setExcess(this.problem, this.algebra, dist, times(d));
        if (without < bestExcess) {
          bestExcess = without;
          best = d;
        }
      }
      out.add(best);
      if (firstOnly) return true;
      others = others.filter((d) => d !== best);
      excess = bestExcess;
    }
    return true;
  }

  /**
   * The soft cost the class adds at (`timeIndex`, `roomIndex`) against the placed classes (its own penalties, soft
   * distributions, students), as the search weighs it; its parts before weighting are left in `read`.
   */
  softCost(classIndex: number, timeIndex: number, roomIndex: number): number {
    this.probes++;
    const read = this.read;
    const spec = this.problem.classes[classIndex];
    if (!spec) {
      read.fill(0);
      return 0;
    }
    const me = this.placedAs(classIndex, timeIndex, roomIndex);
    const timePenalty = spec.times[timeIndex]?.penalty ?? 0;
    const roomPenalty = roomIndex >= 0 ? (spec.rooms[roomIndex]?.penalty ?? 0) : 0;
    read[Part.time] = timePenalty;
    read[Part.room] = roomPenalty;
    let distribution = 0;
    const checks = this.checksOf[classIndex]?.soft ?? [];
    for (let i = 0; i < checks.length; i++) {
      const check = checks[i] as ClassCheck;
      const dist = check.dist;
      if (check.partner < 0) {
        const others = dist.classes.filter((d) => d !== classIndex && (this.time[d] ?? UNPLACED) >= 0).map((d) => this.timeOf(d));
        distribution +=
          setPenalty(this.problem, dist, setExcess(this.problem, this.algebra, dist, [...others, me.time])) -
          setPenalty(this.problem, dist, setExcess(this.problem, this.algebra, dist, others));
        continue;
      }
      const other = this.placedNow[check.partner];
      if (!other) continue;
      if (!this.pairCheckHolds(check, me, other)) distribution += check.penalty;
    }
    // Instructors chosen with the room: the days and the load this class adds to theirs.
    for (const k of this.instructorsAt(classIndex, roomIndex)) distribution += this.instructorCost(k, classIndex, me.time.days);
    const students = this.studentClashes(classIndex, me);
    read[Part.distribution] = distribution;
    read[Part.student] = students;
    const w = this.stressed;
    return (
      timePenalty * (w[Part.time] as number) +
      roomPenalty * (w[Part.room] as number) +
      distribution * (w[Part.distribution] as number) +
      students * (w[Part.student] as number)
    );
  }

  /** The student conflicts the class has at a place against the placed classes, as its students are sectioned. */
  private studentClashes(classIndex: number, me: Placed): number {
    if (this.problem.weights.student <= 0) return 0;
    const { days, start, length, weeks } = me.time;
    const end = start + length;
    const room = me.room;
    const { classes, counts } = this.sectioning.sharedWith(classIndex);
    let clashes = 0;
    for (let i = 0; i < classes.length; i++) if (this.clashesWithPlaced(days, start, end, weeks, room, classes[i] as number)) clashes += counts[i] as number;
    return clashes;
  }

  /** Whether a pair check of a class placed as `me` holds with its partner placed as `other` (in the distribution's order). */
  private pairCheckHolds(check: ClassCheck, me: Placed, other: Placed): boolean {
    return check.partnerAfter ? pairHolds(this.problem, this.algebra, check.dist, me, other) : pairHolds(this.problem, this.algebra, check.dist, other, me);
  }

  /** The class as placed at (`timeIndex`, `roomIndex`), in placedNow and placedTimes. */
  private place(classIndex: number, timeIndex: number, roomIndex: number): void {
    const placed = this.placedAs(classIndex, timeIndex, roomIndex);
    this.placedNow[classIndex] = placed;
    const at = this.placedTimes;
    at[4 * classIndex] = placed.time.days;
    at[4 * classIndex + 1] = placed.time.start;
    at[4 * classIndex + 2] = placed.time.start + placed.time.length;
    at[4 * classIndex + 3] = placed.time.weeks;
    this.placedRoom[classIndex] = placed.room;
  }

  assign(classIndex: number, timeIndex: number, roomIndex: number): void {
    if ((this.time[classIndex] ?? UNPLACED) >= 0) this.unassign(classIndex);
    this.cost += this.softCost(classIndex, timeIndex, roomIndex);
    addTo(this.parts, this.read, 1);
    this.time[classIndex] = timeIndex;
    this.room[classIndex] = roomIndex;
    this.place(classIndex, timeIndex, roomIndex);
    const room = roomIndex >= 0 ? (this.problem.classes[classIndex]?.rooms[roomIndex]?.room ?? -1) : -1;
    if (room >= 0) this.inRoom[room]?.push(classIndex);
    for (const k of this.instructorsAt(classIndex, roomIndex)) this.withInstructor[k]?.push(classIndex);
    this.unplaced.delete(classIndex);
  }

  unassign(classIndex: number): void {
    const t = this.time[classIndex] ?? UNPLACED;
    if (t < 0) return;
    const r = this.room[classIndex] ?? UNPLACED;
    const room = r >= 0 ? (this.problem.classes[classIndex]?.rooms[r]?.room ?? -1) : -1;
    if (room >= 0) {
      const list = this.inRoom[room] as number[];
      const at = list.indexOf(classIndex);
      if (at >= 0) list.splice(at, 1);
    }
    this.leaveInstructors(classIndex, r);
    this.time[classIndex] = UNPLACED;
    this.room[classIndex] = UNPLACED;
    this.placedNow[classIndex] = null;
    this.placedTimes[4 * classIndex] = 0;
    this.placedRoom[classIndex] = -1;
    this.cost -= this.softCost(classIndex, t, r);
    addTo(this.parts, this.read, -1);
    this.unplaced.add(classIndex);
  }

  /** What the class on `days` adds to the instructor's soft cost, beside their other classes. */
  private instructorCost(instructor: number, classIndex: number, days: number): number {
    const spec = this.problem.instructors?.[instructor];
    if (!spec || ((spec.dayPenalty ?? 0) === 0 && (spec.loadPenalty ?? 0) === 0)) return 0;
    const theirs = this.withInstructor[instructor] ?? [];
    let count = 0;
    let taught = 0;
    for (let i = 0; i < theirs.length; i++) {
      const d = theirs[i] as number;
      if (d === classIndex) continue;
      count++;
      taught |= (this.placedNow[d] as Placed).time.days;
    }
    return instructorPenalty(spec, count + 1, taught | days) - instructorPenalty(spec, count, taught);
  }

  /** The instructors the class takes with its room option `roomIndex`. */
  private instructorsAt(classIndex: number, roomIndex: number): readonly number[] {
    return (roomIndex >= 0 ? this.problem.classes[classIndex]?.rooms[roomIndex]?.instructors : undefined) ?? [];
  }

  private leaveInstructors(classIndex: number, roomIndex: number): void {
    for (const k of this.instructorsAt(classIndex, roomIndex)) {
      const list = this.withInstructor[k] as number[];
      const at = list.indexOf(classIndex);
      if (at >= 0) list.splice(at, 1);
    }
  }

  /** All (time, room) options of a class, or a sample of them when there are many. */
  values(classIndex: number, limit: number): ValueCost[] {
    const spec = this.problem.classes[classIndex];
    if (!spec) return [];
    const width = this.width[classIndex] ?? 1;
    const total = spec.times.length * width;
    const out: ValueCost[] = [];
    if (total <= limit) {
      for (let t = 0; t < spec.times.length; t++)
        for (let r = 0; r < width; r++) if (this.available[classIndex]?.[t * width + r]) out.push({ t, r: spec.rooms.length === 0 ? -1 : r });
      return out;
    }
    for (let k = 0; k < limit; k++) {
      const v = Math.floor(this.random.next() * total);
      if (this.available[classIndex]?.[v]) out.push({ t: Math.floor(v / width), r: spec.rooms.length === 0 ? -1 : v % width });
    }
    return out;
  }

  /**
   * One step of iterative forward search: an unplaced class takes the value that displaces the
   * least (weighted by how often it displaced those classes before), soft cost breaking ties.
   */
  constructionStep(): void {
    const pool = [...this.unplaced];
    // The hardest of a few drawn at random: fewest values first.
    let c = pool[Math.floor(this.random.next() * pool.length)] as number;
    for (let k = 0; k < 2; k++) {
      const other = pool[Math.floor(this.random.next() * pool.length)] as number;
      if ((this.available[other]?.length ?? 0) < (this.available[c]?.length ?? 0)) c = other;
    }
    let best: { t: number; r: number; out: Set<number>; score: number } | null = null;
    let ties = 0;
    // Now and then a random value, whatever it displaces: a walk out of a cycle the weights do not break.
    const walk = this.random.next() < WALK_CHANCE;
    for (const v of this.values(c, walk ? 20 : 400)) {
      const out = this.hardConflicts(c, v.t, v.r);
      if (!out) continue;
      if (walk) {
        best = { ...v, out, score: 0 };
        break;
      }
      let score = 0;
      for (const d of out) score += 1 + (this.weight.get(c * this.n + d) ?? 0);
      score = score * 1e6 + (out.size === 0 ? this.softCost(c, v.t, v.r) : 0);
      if (!best || score < best.score) {
        best = { ...v, out, score };
        ties = 1;
      } else if (score === best.score && this.random.next() * ++ties < 1) best = { ...v, out, score };
    }
    if (!best) return; // no value of this class can ever hold (reported by the scorer)
    for (const d of best.out) {
      this.unassign(d);
      this.weight.set(c * this.n + d, (this.weight.get(c * this.n + d) ?? 0) + 1);
    }
    this.assign(c, best.t, best.r);
  }

  /**
   * One move of the annealing: a random placed class to a random other value that breaks no hard
   * constraint. Answers the change of cost when applied, or null when no move was made.
   */
  tryMove(temperature: number): number | null {
    const c = Math.floor(this.random.next() * this.n);
    const spec = this.problem.classes[c];
    const t0 = this.time[c] ?? UNPLACED;
    if (!spec || t0 < 0) return null;
    const { t, r } = this.drawValue(c);
    if (t === t0 && r === this.room[c]) return null;
    return this.tryValue(c, t, r, temperature);
  }

  /** Another value for the placed class, drawn as the one-class move does: a new time, a new room, or both. */
  drawValue(classIndex: number): ValueCost {
    const spec = this.problem.classes[classIndex] as ClassSpec;
    const t0 = this.time[classIndex] ?? UNPLACED;
    const r0 = this.room[classIndex] ?? UNPLACED;
    const kind = this.random.next();
    const t = spec.rooms.length > 0 && kind < 0.3 ? t0 : Math.floor(this.random.next() * spec.times.length);
    const r = spec.rooms.length === 0 ? -1 : kind >= 0.3 && kind < 0.6 ? r0 : Math.floor(this.random.next() * (this.width[classIndex] ?? 1));
    return { t, r };
  }

  /**
   * The placed class to (`timeIndex`, `roomIndex`) when that breaks no hard constraint, taken or not as the annealing
   * decides (a move worse only by the students it makes clash priced again with them re-sectioned,
   * now and then): the change of cost when taken, or null.
   */
  tryValue(classIndex: number, timeIndex: number, roomIndex: number, temperature: number): number | null {
    const t0 = this.time[classIndex] ?? UNPLACED;
    const r0 = this.room[classIndex] ?? UNPLACED;
    const out = this.hardConflicts(classIndex, timeIndex, roomIndex, true);
    if (!out || out.size > 0) return null;
    // A class's soft cost never counts the class itself, so both sides are read with it where it is.
    const delta = this.measureMove(classIndex, timeIndex, roomIndex, t0, r0);
    const taken = acceptance(this.random, temperature);
    if (taken(delta)) {
      this.relocate(classIndex, timeIndex, roomIndex, delta, this.change);
      return delta;
    }
    // Worse with the students where they are: priced again with those it makes clash re-sectioned
    // when it would be an improvement without their clashes.
    const clashes = this.studentClashes(classIndex, this.placedAs(classIndex, timeIndex, roomIndex));
    if (clashes === 0 || delta - (this.stressed[Part.student] as number) * clashes > 0 || this.random.next() >= RESECTION_PRICED) return null;
    this.relocate(classIndex, timeIndex, roomIndex, delta, this.change);
    const change = this.withStudentsResectioned([classIndex], delta, taken);
    if (change === null) this.relocate(classIndex, t0, r0, -delta, this.change, -1);
    return change;
  }

  /** Moves the placed class to (`timeIndex`, `roomIndex`), its change of cost read first: answers that change, as the search weighs it. */
  moveTo(classIndex: number, timeIndex: number, roomIndex: number): number {
    const delta = this.measureMove(classIndex, timeIndex, roomIndex, this.time[classIndex] ?? UNPLACED, this.room[classIndex] ?? UNPLACED);
    this.relocate(classIndex, timeIndex, roomIndex, delta, this.change);
    return delta;
  }

  /**
   * What moving the placed class from (`fromTime`, `fromRoom`) to (`timeIndex`, `roomIndex`) changes, as the search weighs it; its change
   * of each part is left in `change` (for relocate).
   */
  private measureMove(classIndex: number, timeIndex: number, roomIndex: number, fromTime: number, fromRoom: number): number {
    const to = this.softCost(classIndex, timeIndex, roomIndex);
    this.change.set(this.read);
    const from = this.softCost(classIndex, fromTime, fromRoom);
    addTo(this.change, this.read, -1);
    return to - from;
  }

  /**
   * A move of `classes` already made, worth `delta` with the students where they are, priced again
   * with the students it makes clash re-sectioned: answers the change of cost when `taken` at that
   * price (the students staying re-sectioned), else null with the students put back (the classes are
   * the caller's to put back).
   */
  private withStudentsResectioned(classes: readonly number[], delta: number, taken: (cost: number) => boolean): number | null {
    const students = this.sectioning.clashingIn(classes);
    if (students.length === 0) return null;
    const kept = this.sectioning.choicesOf(students);
    const conflicts = this.sectioning.improveStudents(students);
    const change = (this.stressed[Part.student] as number) * conflicts;
    if (change < 0 && taken(delta + change)) {
      this.addStudentConflicts(conflicts);
      return delta + change;
    }
    this.sectioning.restoreChoices(students, kept);
    return null;
  }

  /** Classes given a new time since last asked (see takeMoved), for re-sectioning their students. */
  private readonly moved = new Set<number>();

  /** Notes a class a move gave another time, for re-sectioning its students. */
  markMoved(classIndex: number): void {
    this.moved.add(classIndex);
  }

  /** The classes moved to another time since last asked, and forgets them. */
  takeMoved(): number[] {
    const out = [...this.moved];
    this.moved.clear();
    return out;
  }

  /**
   * Moves a placed class to (`timeIndex`, `roomIndex`) whose change of cost is already known (no cost read again): `delta`
   * as the search weighs it, `parts` (times `sign`) its change of each part (see measureMove).
   */
  private relocate(classIndex: number, timeIndex: number, roomIndex: number, delta: number, parts: Float64Array, sign = 1): void {
    if (timeIndex !== this.time[classIndex]) this.moved.add(classIndex);
    const rooms = this.problem.classes[classIndex]?.rooms ?? [];
    const from = rooms[this.room[classIndex] ?? UNPLACED]?.room ?? -1;
    if (from >= 0) {
      const list = this.inRoom[from] as number[];
      const at = list.indexOf(classIndex);
      if (at >= 0) list.splice(at, 1);
    }
    this.leaveInstructors(classIndex, this.room[classIndex] ?? UNPLACED);
    this.time[classIndex] = timeIndex;
    this.room[classIndex] = roomIndex;
    this.place(classIndex, timeIndex, roomIndex);
    const to = rooms[roomIndex]?.room ?? -1;
    if (to >= 0) this.inRoom[to]?.push(classIndex);
    for (const k of this.instructorsAt(classIndex, roomIndex)) this.withInstructor[k]?.push(classIndex);
    this.cost += delta;
    addTo(this.parts, parts, sign);
  }

  /**
   * The class takes (`timeIndex`, `roomIndex`), displacing the classes in its way (one or two; at most `mostDisplaced`),
   * each placed again at its cheapest value that clashes with nothing (the place it left looked at
   * first). Taken or undone as the annealing decides; null when more are in the way, or a displaced
   * one finds no place.
   */
  moveThrough(classIndex: number, timeIndex: number, roomIndex: number, temperature: number, mostDisplaced = 2): number | null {
    const out = this.hardConflicts(classIndex, timeIndex, roomIndex);
    if (!out || out.size === 0 || out.size > mostDisplaced) return null;
    const before = this.cost;
    const saved = this.valuesOf([classIndex, ...out]);
    const left = this.placedNow[classIndex] as Placed;
    for (const d of out) this.unassign(d);
    this.assign(classIndex, timeIndex, roomIndex);
    for (const d of out) if (!this.placeCheapest(d, this.placesLeft(d, left, saved))) return this.putBack(saved);
    return this.verdict(before, temperature, saved);
  }

  private brokenAtLastLook: number[] = [];
  private brokenAtLastLookCost = 0;

  /** Soft distributions the timetable broke at the last look (see lookAtDistributions). */
  get brokenSoft(): readonly number[] {
    return this.brokenAtLastLook;
  }

  /** What the soft distributions broken at the last look cost, weighted. */
  get brokenSoftCost(): number {
    return this.brokenAtLastLookCost;
  }

  /** Looks over every distribution for the soft ones the timetable breaks now, for the repair moves. */
  lookAtDistributions(): void {
    const violations = distributionViolations(this.problem, this.placedNow, this.algebra);
    const brokenNow: number[] = [];
    let cost = 0;
    this.problem.distributions.forEach((d, k) => {
      const broken = violations[k] ?? 0;
      if (d.required || broken === 0) return;
      brokenNow.push(k);
      cost += SET_TYPES.has(d.type) ? setPenalty(this.problem, d, broken) : d.penalty * broken;
    });
    this.probes += this.problem.distributions.length;
    this.brokenAtLastLook = brokenNow;
    this.brokenAtLastLookCost = cost * this.problem.weights.distribution;
  }

  /** The pairs of a pair distribution that the class, listed at `position` and placed as `me`, breaks with the placed others. */
  pairsBroken(dist: Distribution, classIndex: number, position: number, me: Placed): number {
    const members = dist.classes;
    let broken = 0;
    for (let j = 0; j < members.length; j++) {
      const d = members[j] as number;
      const other = this.placedNow[d];
      if (d === classIndex || !other) continue;
      if (!(j > position ? pairHolds(this.problem, this.algebra, dist, me, other) : pairHolds(this.problem, this.algebra, dist, other, me))) broken++;
    }
    return broken;
  }

  /**
   * The class's option meeting on `time`'s days from its start: in `weeks` (any weeks with `anyWeeks`,
   * the closest first: `weeks`, then `time`'s own), of `time`'s length when it has one, the cheapest
   * of those; undefined when it has none. A Kempe chain's side asks for its weeks; a group coming
   * together asks for a member's own weeks, since SameTime and SameDays leave each its own weeks.
   */
  timeLike(classIndex: number, time: TimeOption, weeks: number, anyWeeks: boolean): number | undefined {
    let best: number | undefined;
    let bestRank = Number.POSITIVE_INFINITY;
    (this.problem.classes[classIndex]?.times ?? []).forEach((o, k) => {
      if (o.start !== time.start || o.days !== time.days || (!anyWeeks && o.weeks !== weeks)) return;
      const rank = ((o.weeks === weeks ? 0 : o.weeks === time.weeks ? 1 : 2) * 2 + (o.length === time.length ? 0 : 1)) * 1e9 + o.penalty;
      if (rank < bestRank) [best, bestRank] = [k, rank];
    });
    return best;
  }

  /**
   * The values at which a `displaced` class would take the place a mover left: the mover's old time
   * in its own room and in the room the mover left (when it may use it). Pairs of time and room.
   */
  placesLeft(displaced: number, left: Placed, saved: readonly [number, number, number][]): number[] {
    const t = this.timeIndexOf(displaced, left.time);
    if (t === undefined) return [];
    const own = this.roomAfter(displaced, saved);
    if (own < 0 || left.room < 0) return [t, own];
    const theirs = this.problem.classes[displaced]?.rooms.findIndex((o) => o.room === left.room) ?? -1;
    return theirs < 0 || theirs === own ? [t, own] : [t, own, t, theirs];
  }

  /** Classes' values before a move, [class, time, room] each (time -1: not placed). */
  valuesOf(classes: Iterable<number>): [number, number, number][] {
    return [...classes].map((c) => [c, this.time[c] ?? UNPLACED, this.room[c] ?? UNPLACED]);
  }

  /** Puts back the values a move changed (answers null, a move not made). */
  putBack(saved: readonly (readonly [number, number, number])[]): null {
    for (const [c] of saved) this.unassign(c);
    for (const [c, t, r] of saved) if (t >= 0) this.assign(c, t, r);
    return null;
  }

  /**
   * The annealing's verdict on a move of several classes made since the cost was `before`: its change
   * of cost when taken, else the values put back and null.
   */
  verdict(before: number, temperature: number, saved: readonly (readonly [number, number, number])[]): number | null {
    const delta = this.cost - before;
    const taken = acceptance(this.random, temperature);
    const moved = saved.flatMap(([c, t]) => (this.time[c] !== t ? [c] : []));
    let change: number | null = taken(delta) ? delta : null;
    // Worse: in some cases priced again with the students it makes clash re-sectioned, as a
    // one-class move is (a group coming together may move many students' classes at once).
    if (change === null && this.problem.students.length > 0 && this.random.next() < RESECTION_PRICED)
      change = this.withStudentsResectioned(moved, delta, taken);
    if (change === null) return this.putBack(saved);
    for (const c of moved) this.moved.add(c);
    return change;
  }

  /**
   * Places an unplaced class at its cheapest value that clashes with nothing, of the values `near`
   * (pairs of time and room, looked at first) and a sample of its others (a small one when a near
   * value is free; with `wide` false, a small one or none); false when none of them is free.
   */
  placeCheapest(classIndex: number, near: number[] = [], wide = true): boolean {
    let best: { t: number; r: number; cost: number } | null = null;
    const consider = (t: number, r: number): void => {
      const clash = this.hardConflicts(classIndex, t, r, true);
      if (!clash || clash.size > 0) return;
      const cost = this.softCost(classIndex, t, r);
      if (!best || cost < best.cost) best = { t, r, cost };
    };
    for (let i = 0; i + 1 < near.length; i += 2) consider(near[i] as number, near[i + 1] as number);
    for (const v of this.values(classIndex, best === null ? (wide ? 60 : 8) : wide ? 8 : 0)) consider(v.t, v.r);
    const found = best as { t: number; r: number } | null;
    if (!found) return false;
    this.assign(classIndex, found.t, found.r);
    return true;
  }

  /** A placed class drawn at random (-1 when none is placed). */
  randomPlacedClass(): number {
    for (let k = 0; k < 8; k++) {
      const c = Math.floor(this.random.next() * this.n);
      if ((this.time[c] ?? UNPLACED) >= 0) return c;
    }
    return -1;
  }

  /** The index of the class's time option that is `time` (whatever its penalty), if it has one. */
  timeIndexOf(classIndex: number, time: TimeOption): number | undefined {
    let index = this.timeIndex[classIndex];
    if (!index) this.timeIndex[classIndex] = index = new Map(this.problem.classes[classIndex]?.times.map((t, i) => [timeKey(t), i]));
    return index.get(timeKey(time));
  }

  /** The room option the `displaced` class had before a move (its first, when it had none). */
  roomAfter(displaced: number, saved: readonly [number, number, number][]): number {
    if ((this.problem.classes[displaced]?.rooms.length ?? 0) === 0) return -1;
    const had = saved.find(([x]) => x === displaced)?.[2] ?? UNPLACED;
    return had >= 0 ? had : 0;
  }

  snapshot(): Assignment {
    return { time: this.time.slice(), room: this.room.slice(), students: this.sectioning.enrollments() };
  }

  /** Every class out of the timetable. */
  unassignAll(): void {
    for (let c = 0; c < this.n; c++) this.unassign(c);
  }

  restore(assignment: Assignment): void {
    this.unassignAll();
    for (let c = 0; c < this.n; c++) {
      const t = assignment.time[c] ?? UNPLACED;
      if (t >= 0) this.assign(c, t, assignment.room[c] ?? UNPLACED);
    }
  }

  /**
   * Takes a timetable as a start, class by class in order, leaving out each class whose place breaks
   * a hard constraint with those already taken (or its room's unavailability): the construction then
   * places those. A valid timetable is taken whole.
   */
  restoreWhereValid(assignment: Assignment): void {
    this.unassignAll();
    for (let c = 0; c < this.n; c++) {
      const t = assignment.time[c] ?? UNPLACED;
      const r = assignment.room[c] ?? UNPLACED;
      if (t < 0 || ((this.problem.classes[c]?.rooms.length ?? 0) > 0 && r < 0)) continue;
      if (this.hardConflicts(c, t, r, true)?.size === 0) this.assign(c, t, r);
    }
  }

  /** The running soft cost worked out again from scratch (it drifts by no more than rounding). */
  recount(): void {
    const kept = this.snapshot();
    this.unassignAll();
    this.cost = 0;
    this.parts.fill(0);
    this.restore(kept);
  }
}

/**
 * The share of rejected moves priced again with the students they make clash re-sectioned: of
 * one-class moves, those worse only by those students; of moves of several classes, any. Each costs a
 * few moves' time: pricing every one-class move made a move about three times slower, and every move
 * of several classes twice as slow, for no lower totals; one in ten costs 5–15 % and, at equal move
 * budgets (seeds 1–4), cut muni-fsps-spr17's student conflicts with every seed and muni-fi-spr16's
 * total by 6 %; three in ten gained no more.
 */
const RESECTION_PRICED = 0.1;

/**
 * The annealing's test of a move's change of cost at a temperature: an improvement is taken, a worse
 * move with the chance exp(−cost / temperature). One number is drawn, and only once a move is worse,
 * so that the same move priced again (its students re-sectioned) is judged on the same draw.
 */
function acceptance(random: SeededRandom, temperature: number): (cost: number) => boolean {
  let draw = -1;
  return (cost) => {
    if (cost <= 0) return true;
    if (draw < 0) draw = random.next();
    return draw < Math.exp(-cost / temperature);
  };
}

/** The parts of a soft cost, before weighting: each indexes `parts`, `emphasis` and the like. */
export const Part = { time: 0, room: 1, distribution: 2, student: 3 } as const;
const PARTS = 4;

/** to += sign · from, part by part. */
function addTo(to: Float64Array, from: Float64Array, sign: number): void {
  for (let p = 0; p < PARTS; p++) to[p] = (to[p] as number) + sign * (from[p] as number);
}

/** A time option by what it is, whatever its penalty. */
function timeKey(time: TimeOption): string {
  return `${time.days}|${time.start}|${time.length}|${time.weeks}`;
}
