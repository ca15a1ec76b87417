import { setExcess, setPenalty, type Placed } from './distributions';
import { instructorPenalty, type TimeOption, type TimetableProblem } from './model';
import type { ClassCheck, ClassChecks } from './class-checks';
import { pairCheckHolds, type SearchWork } from './hard-rules';
import { UNPLACED, type Placement } from './placement';
import type { Sectioning } from './sectioning';
import type { TimeAlgebra } from './times';

/** The parts of a soft cost, before weighting: each indexes `parts`, `emphasis` and the like. */
export const Part = { time: 0, room: 1, distribution: 2, student: 3 } as const;
export const PARTS = 4;

/** to += sign · from, part by part. */
export function addParts(to: Float64Array, from: Float64Array, sign: number): void {
  for (let p = 0; p < PARTS; p++) to[p] = (to[p] as number) + sign * (from[p] as number);
}

/** The running totals at the start of a move (see SoftCosts.mark), put back as they were when the move is undone. */
export interface CostMark {
  readonly cost: number;
  readonly parts: Float64Array;
}

/**
 * The timetable's soft cost, kept up to date move by move as cpsolver's model keeps its total: in
 * its parts before weighting (Part), and as the search weighs it (each part's weight times its
 * emphasis). A class's cost is read against the classes placed, never counting itself.
 */
export class SoftCosts {
  /** The current timetable's soft cost (classes placed only) as the search weighs it; the moves are judged by it. */
  cost = 0;
  /** The current timetable's soft cost in its parts before weighting (see Part). */
  readonly parts = new Float64Array(PARTS);
  /**
   * How much the search stresses each part beyond the problem's own weight (1: as the problem
   * weighs it); see emphasize. The timetable's total (`total`) is always the problem's.
   */
  readonly emphasis = new Float64Array(PARTS).fill(1);
  /** Each part's weight as the search counts it: the problem's weight times its emphasis. */
  readonly stressed: Float64Array;
  /** The parts of the soft cost the last `of` read (before weighting). */
  readonly read = new Float64Array(PARTS);
  /** Each part's weight as the problem gives it (by Part). */
  private readonly weights: Float64Array;

  constructor(
    private readonly problem: TimetableProblem,
    private readonly algebra: TimeAlgebra,
    private readonly placement: Placement,
    private readonly checksOf: readonly ClassChecks[],
    private readonly sectioning: Sectioning,
    private readonly work: SearchWork,
  ) {
    const w = problem.weights;
    this.weights = Float64Array.of(w.time, w.room, w.distribution, w.student);
    this.stressed = this.weights.slice();
  }

  /** The running totals now, for putting back a move that is undone (see restore). */
  mark(): CostMark {
    return { cost: this.cost, parts: this.parts.slice() };
  }

  /**
   * The running totals as `mark` read them: for a move undone by putting its classes back where they
   * were at the mark, which costs what it cost then, without reading any class's cost again.
   */
  restore(mark: CostMark): void {
    this.cost = mark.cost;
    this.parts.set(mark.parts);
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

  /** A change already read (`delta` as the search weighs it, `parts` its change of each part, times `sign`), into the running totals. */
  add(delta: number, parts: Float64Array, sign = 1): void {
    this.cost += delta;
    addParts(this.parts, parts, sign);
  }

  /** Starts the running totals again from nothing (every class then placed anew). */
  clear(): void {
    this.cost = 0;
    this.parts.fill(0);
  }

  /**
   * The soft cost the class adds at (`timeIndex`, `roomIndex`) against the placed classes (its own penalties, soft
   * distributions, students), as the search weighs it; its parts before weighting are left in `read`.
   */
  of(classIndex: number, timeIndex: number, roomIndex: number): number {
    this.work.probes++;
    const read = this.read;
    const spec = this.problem.classes[classIndex];
    if (!spec) {
      read.fill(0);
      return 0;
    }
    const me = this.placement.placedAs(classIndex, timeIndex, roomIndex);
    const timePenalty = spec.times[timeIndex]?.penalty ?? 0;
    const roomPenalty = roomIndex >= 0 ? (spec.rooms[roomIndex]?.penalty ?? 0) : 0;
    read[Part.time] = timePenalty;
    read[Part.room] = roomPenalty;
    let distribution = this.distributionCost(classIndex, me);
    // Instructors chosen with the room: the days and the load this class adds to theirs.
    for (const instructor of this.placement.instructorsAt(classIndex, roomIndex)) distribution += this.instructorCost(instructor, classIndex, me.time.days);
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

  /** What the class placed as `me` adds to the soft distributions it is in, before weighting. */
  private distributionCost(classIndex: number, me: Placed): number {
    let distribution = 0;
    const checks = this.checksOf[classIndex]?.soft ?? [];
    for (let i = 0; i < checks.length; i++) {
      const check = checks[i] as ClassCheck;
      const dist = check.dist;
      if (check.partner < 0) {
        const { others, penalty } = this.setWithout(check, classIndex);
        others.push(me.time);
        distribution += setPenalty(this.problem, dist, setExcess(this.problem, this.algebra, dist, others)) - penalty;
        others.pop();
        continue;
      }
      const other = this.placement.placedNow[check.partner];
      if (!other) continue;
      if (!pairCheckHolds(this.problem, this.algebra, check, me, other)) distribution += check.penalty;
    }
    return distribution;
  }

  /**
   * A set constraint's other placed classes' times and its penalty from them alone, read again only
   * once a class has moved since (a search weighs many values of one class between two moves).
   */
  private setWithout(check: ClassCheck, classIndex: number): SetWithout {
    const known = this.setsWithout.get(check);
    if (known && known.revision === this.placement.revision) return known;
    const dist = check.dist;
    const time = this.placement.time;
    const others = dist.classes.filter((member) => member !== classIndex && (time[member] ?? UNPLACED) >= 0).map((member) => this.placement.timeOf(member));
    const read = { revision: this.placement.revision, others, penalty: setPenalty(this.problem, dist, setExcess(this.problem, this.algebra, dist, others)) };
    this.setsWithout.set(check, read);
    return read;
  }

  private readonly setsWithout = new Map<ClassCheck, SetWithout>();

  /** The student conflicts the class has at a place against the placed classes, as its students are sectioned. */
  studentClashes(classIndex: number, me: Placed): number {
    if (this.problem.weights.student <= 0) return 0;
    const { days, start, length, weeks } = me.time;
    const end = start + length;
    const room = me.room;
    const { classes, counts } = this.sectioning.sharedWith(classIndex);
    let clashes = 0;
    for (let i = 0; i < classes.length; i++)
      if (this.placement.clashesWithPlaced(days, start, end, weeks, room, classes[i] as number)) clashes += counts[i] as number;
    return clashes;
  }

  /** What the class on `days` adds to the instructor's soft cost, beside their other classes. */
  private instructorCost(instructor: number, classIndex: number, days: number): number {
    const spec = this.problem.instructors?.[instructor];
    if (!spec || ((spec.dayPenalty ?? 0) === 0 && (spec.loadPenalty ?? 0) === 0)) return 0;
    const theirs = this.placement.withInstructor[instructor] ?? [];
    let count = 0;
    let taught = 0;
    for (let i = 0; i < theirs.length; i++) {
      const other = theirs[i] as number;
      if (other === classIndex) continue;
      count++;
      taught |= (this.placement.placedNow[other] as Placed).time.days;
    }
    return instructorPenalty(spec, count + 1, taught | days) - instructorPenalty(spec, count, taught);
  }
}

/** What setWithout read, at the placement's revision. */
interface SetWithout {
  revision: number;
  others: TimeOption[];
  penalty: number;
}
