import { SeededRandom } from '../util/random';
import { pairHolds, setPenalty, type Placed } from './distributions';
import { SET_TYPES, type Assignment, type ClassSpec, type Distribution, type TimeOption, type TimetableProblem } from './model';
import { distributionViolations } from './score';
import { classChecks } from './class-checks';
import { TimeAlgebra } from './times';
import { Sectioning, type ExchangeUndo } from './sectioning';
import { Placement, UNPLACED } from './placement';
import { HardRules, type SearchWork } from './hard-rules';
import { addParts, Part, PARTS, SoftCosts, type CostMark } from './soft-costs';

export { UNPLACED } from './placement';
export { Part } from './soft-costs';

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

/** A value of a class, as cpsolver calls a placement: its time option and its room option (-1 when it takes no room). */
export interface ClassValue {
  timeIndex: number;
  roomIndex: number;
}

/** How often a construction step takes a random value instead of the least displacing one. */
const WALK_CHANCE = 0.02;

/**
 * The search over a problem: the placement (placement.ts), the hard rules read against it
 * (hard-rules.ts) and its running soft cost (soft-costs.ts), as cpsolver keeps the assignment, the
 * model's constraints and its total apart; here the moves that change them, and the answers the
 * neighbourhoods (neighbourhoods.ts) build their own moves from.
 */
export class Search {
  readonly algebra: TimeAlgebra;
  readonly placement: Placement;
  readonly rules: HardRules;
  readonly costs: SoftCosts;
  /** Per class, its time option (UNPLACED when not placed). */
  readonly time: Int32Array;
  /** Per class, its room option. */
  readonly room: Int32Array;
  /** Each class as placed (null when not). */
  readonly placedNow: (Placed | null)[];
  /** How many classes the problem has. */
  readonly n: number;
  /** Per class, the distributions it is in. */
  readonly constraintsOf: number[][];
  /** Per class, how many room options it has (1 when none). */
  readonly width: Int32Array;
  /** Conflict weights: how often placing a class displaced another (key c·n + d). */
  private readonly weight = new Map<number, number>();
  readonly random: SeededRandom;
  readonly sectioning: Sectioning;
  private readonly work: SearchWork = { probes: 0 };
  /** A one-class move's change of the parts (tryMove's, then relocate's). */
  private readonly change: Float64Array;
  /** Per class, its time options by what they are (days, start, length, weeks), for swapping times; made when first asked. */
  private readonly timeIndex: (Map<string, number> | undefined)[] = [];

  constructor(
    readonly problem: TimetableProblem,
    seed: number,
  ) {
    this.algebra = new TimeAlgebra(problem.weekPatterns);
    this.n = problem.classes.length;
    this.random = new SeededRandom(seed);
    this.constraintsOf = problem.classes.map(() => []);
    problem.distributions.forEach((d, k) => {
      for (const classIndex of new Set(d.classes)) this.constraintsOf[classIndex]?.push(k);
    });
    this.placement = new Placement(problem, this.algebra);
    this.time = this.placement.time;
    this.room = this.placement.room;
    this.placedNow = this.placement.placedNow;
    const checksOf = classChecks(problem);
    this.rules = new HardRules(problem, this.algebra, this.placement, checksOf, this.work);
    this.width = this.rules.width;
    this.sectioning = new Sectioning(problem, this.random, this.placement);
    this.costs = new SoftCosts(problem, this.algebra, this.placement, checksOf, this.sectioning, this.work);
    this.change = new Float64Array(this.costs.parts.length);
  }

  /** Soft cost of the current timetable (classes placed only) as the search weighs it: the moves are judged by it. */
  get cost(): number {
    return this.costs.cost;
  }

  /** The current timetable's soft cost in its parts before weighting (see Part). */
  get parts(): Float64Array {
    return this.costs.parts;
  }

  /** The running totals at the start of a move of several classes, for verdict and putBack. */
  mark(): CostMark {
    return this.costs.mark();
  }

  /** How much the search stresses each part beyond the problem's own weight (see SoftCosts.emphasis). */
  get emphasis(): Float64Array {
    return this.costs.emphasis;
  }

  /** Values looked at so far (each hard-constraint test and each soft cost read): the work a move costs, counted without a clock. */
  get probes(): number {
    return this.work.probes;
  }

  set probes(probes: number) {
    this.work.probes = probes;
  }

  /** The current timetable's soft cost as the problem weighs it (whatever the search's emphasis). */
  get total(): number {
    return this.costs.total;
  }

  /** The current timetable's parts, each weighted as the problem weighs it (by Part). */
  weightedParts(): number[] {
    return this.costs.weightedParts();
  }

  /** Sets how much the search stresses each part beyond the problem's weight (see SoftCosts.emphasize). */
  emphasize(emphasis: ArrayLike<number>): void {
    this.costs.emphasize(emphasis);
  }

  /** A re-sectioning's change of student conflicts, into the running totals. */
  addStudentConflicts(change: number): void {
    this.costs.addStudentConflicts(change);
  }

  /** A class's time option `timeIndex` (its current one by default). */
  timeOf(classIndex: number, timeIndex: number = this.time[classIndex] ?? UNPLACED): TimeOption {
    return this.placement.timeOf(classIndex, timeIndex);
  }

  placedAs(classIndex: number, timeIndex: number, roomIndex: number): Placed {
    return this.placement.placedAs(classIndex, timeIndex, roomIndex);
  }

  /** Whether two placed classes would clash for a student attending both (never when either is not placed). */
  studentsClash(firstClass: number, secondClass: number): boolean {
    return this.placement.studentsClash(firstClass, secondClass);
  }

  get complete(): boolean {
    return this.placement.complete;
  }

  get placedCount(): number {
    return this.placement.placedCount;
  }

  /** The placed classes that must leave for the class to take (`timeIndex`, `roomIndex`); see HardRules.conflicts. */
  hardConflicts(classIndex: number, timeIndex: number, roomIndex: number, firstOnly = false): Set<number> | null {
    return this.rules.conflicts(classIndex, timeIndex, roomIndex, firstOnly);
  }

  /** The soft cost the class adds at (`timeIndex`, `roomIndex`) against the placed classes, as the search weighs it; see SoftCosts.of. */
  softCost(classIndex: number, timeIndex: number, roomIndex: number): number {
    return this.costs.of(classIndex, timeIndex, roomIndex);
  }

  assign(classIndex: number, timeIndex: number, roomIndex: number): void {
    if ((this.time[classIndex] ?? UNPLACED) >= 0) this.unassign(classIndex);
    const cost = this.costs.of(classIndex, timeIndex, roomIndex);
    this.costs.add(cost, this.costs.read);
    this.placement.put(classIndex, timeIndex, roomIndex);
  }

  unassign(classIndex: number): void {
    const timeIndex = this.time[classIndex] ?? UNPLACED;
    if (timeIndex < 0) return;
    const roomIndex = this.room[classIndex] ?? UNPLACED;
    this.placement.take(classIndex);
    const cost = this.costs.of(classIndex, timeIndex, roomIndex);
    this.costs.add(-cost, this.costs.read, -1);
  }

  /** All (time, room) options of a class, or a sample of them when there are many. */
  values(classIndex: number, limit: number): ClassValue[] {
    const spec = this.problem.classes[classIndex];
    if (!spec) return [];
    const width = this.width[classIndex] ?? 1;
    const total = spec.times.length * width;
    const available = this.rules.available[classIndex];
    const roomless = spec.rooms.length === 0;
    const out: ClassValue[] = [];
    if (total <= limit) {
      for (let timeIndex = 0; timeIndex < spec.times.length; timeIndex++)
        for (let column = 0; column < width; column++) if (available?.[timeIndex * width + column]) out.push({ timeIndex, roomIndex: roomless ? -1 : column });
      return out;
    }
    for (let drawn = 0; drawn < limit; drawn++) {
      const option = Math.floor(this.random.next() * total);
      if (available?.[option]) out.push({ timeIndex: Math.floor(option / width), roomIndex: roomless ? -1 : option % width });
    }
    return out;
  }

  /**
   * One step of iterative forward search: an unplaced class takes the value that displaces the
   * least (weighted by how often it displaced those classes before), soft cost breaking ties.
   */
  constructionStep(): void {
    const pool = this.placement.unplacedClasses();
    // The hardest of a few drawn at random: fewest values first.
    let classIndex = pool[Math.floor(this.random.next() * pool.length)] as number;
    for (let drawn = 0; drawn < 2; drawn++) {
      const other = pool[Math.floor(this.random.next() * pool.length)] as number;
      if ((this.rules.available[other]?.length ?? 0) < (this.rules.available[classIndex]?.length ?? 0)) classIndex = other;
    }
    let best: (ClassValue & { out: Set<number>; score: number }) | null = null;
    let ties = 0;
    // Now and then a random value, whatever it displaces: a walk out of a cycle the weights do not break.
    const walk = this.random.next() < WALK_CHANCE;
    for (const value of this.values(classIndex, walk ? 20 : 400)) {
      const out = this.hardConflicts(classIndex, value.timeIndex, value.roomIndex);
      if (!out) continue;
      if (walk) {
        best = { ...value, out, score: 0 };
        break;
      }
      let score = 0;
      for (const displaced of out) score += 1 + (this.weight.get(classIndex * this.n + displaced) ?? 0);
      score = score * 1e6 + (out.size === 0 ? this.softCost(classIndex, value.timeIndex, value.roomIndex) : 0);
      if (!best || score < best.score) {
        best = { ...value, out, score };
        ties = 1;
      } else if (score === best.score && this.random.next() * ++ties < 1) best = { ...value, out, score };
    }
    if (!best) return; // no value of this class can ever hold (reported by the scorer)
    for (const displaced of best.out) {
      this.unassign(displaced);
      this.weight.set(classIndex * this.n + displaced, (this.weight.get(classIndex * this.n + displaced) ?? 0) + 1);
    }
    this.assign(classIndex, best.timeIndex, best.roomIndex);
  }

  /**
   * One move of the annealing: a random placed class to a random other value that breaks no hard
   * constraint. Answers the change of cost when applied, or null when no move was made.
   */
  tryMove(temperature: number): number | null {
    const classIndex = Math.floor(this.random.next() * this.n);
    const spec = this.problem.classes[classIndex];
    const fromTime = this.time[classIndex] ?? UNPLACED;
    if (!spec || fromTime < 0) return null;
    const { timeIndex, roomIndex } = this.drawValue(classIndex);
    if (timeIndex === fromTime && roomIndex === this.room[classIndex]) return null;
    return this.tryValue(classIndex, timeIndex, roomIndex, temperature);
  }

  /** Another value for the placed class, drawn as the one-class move does: a new time, a new room, or both. */
  drawValue(classIndex: number): ClassValue {
    const spec = this.problem.classes[classIndex] as ClassSpec;
    const fromTime = this.time[classIndex] ?? UNPLACED;
    const fromRoom = this.room[classIndex] ?? UNPLACED;
    const kind = this.random.next();
    const timeIndex = spec.rooms.length > 0 && kind < 0.3 ? fromTime : Math.floor(this.random.next() * spec.times.length);
    const roomIndex = spec.rooms.length === 0 ? -1 : kind >= 0.3 && kind < 0.6 ? fromRoom : Math.floor(this.random.next() * (this.width[classIndex] ?? 1));
    return { timeIndex, roomIndex };
  }

  /**
   * The placed class to (`timeIndex`, `roomIndex`) when that breaks no hard constraint, taken or not as the annealing
   * decides (a move worse only by the students it makes clash priced again with them re-sectioned,
   * now and then): the change of cost when taken, or null.
   */
  tryValue(classIndex: number, timeIndex: number, roomIndex: number, temperature: number): number | null {
    const currentTime = this.time[classIndex] ?? UNPLACED;
    const currentRoom = this.room[classIndex] ?? UNPLACED;
    const out = this.hardConflicts(classIndex, timeIndex, roomIndex, true);
    if (!out || out.size > 0) return null;
    // A class's soft cost never counts the class itself, so both sides are read with it where it is.
    const delta = this.measureMove(classIndex, timeIndex, roomIndex, currentTime, currentRoom);
    const taken = acceptance(this.random, temperature);
    if (taken(delta)) {
      this.relocate(classIndex, timeIndex, roomIndex, delta, this.change);
      return delta;
    }
    // Worse with the students where they are: priced again with those it makes clash re-sectioned
    // when it would be an improvement without their clashes.
    const clashes = this.costs.studentClashes(classIndex, this.placedAs(classIndex, timeIndex, roomIndex));
    if (clashes === 0 || delta - (this.costs.stressed[Part.student] as number) * clashes > 0 || this.random.next() >= RESECTION_PRICED) return null;
    this.relocate(classIndex, timeIndex, roomIndex, delta, this.change);
    const change = this.withStudentsResectioned([classIndex], delta, taken);
    if (change === null) this.relocate(classIndex, currentTime, currentRoom, -delta, this.change, -1);
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
    this.change.set(this.costs.read);
    const from = this.softCost(classIndex, fromTime, fromRoom);
    addParts(this.change, this.costs.read, -1);
    return to - from;
  }

  /**
   * A move of `classes` already made, worth `delta` with the students where they are, priced again
   * with the students it makes clash re-sectioned, and those still clashing then exchanging whole
   * courses with students of full classes (Sectioning.exchangeStudents: where the one combination
   * that would not clash for them is full, and its students would fit where they are): answers the
   * change of cost when `taken` at that price (the students staying re-sectioned), else null with
   * every student put back, those who made room too (the classes are the caller's to put back).
   */
  private withStudentsResectioned(classes: readonly number[], delta: number, taken: (cost: number) => boolean): number | null {
    const students = this.sectioning.clashingIn(classes);
    if (students.length === 0) return null;
    const kept = this.sectioning.choicesOf(students);
    const undo: ExchangeUndo[] = [];
    let conflicts = this.sectioning.improveStudents(students);
    conflicts += this.sectioning.exchangeStudents(students, undo);
    const change = (this.costs.stressed[Part.student] as number) * conflicts;
    if (change < 0 && taken(delta + change)) {
      this.addStudentConflicts(conflicts);
      return delta + change;
    }
    this.sectioning.putBackExchanges(undo);
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
    this.placement.move(classIndex, timeIndex, roomIndex);
    this.costs.add(delta, parts, sign);
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
    const before = this.mark();
    const saved = this.valuesOf([classIndex, ...out]);
    const left = this.placedNow[classIndex] as Placed;
    for (const displaced of out) this.unassign(displaced);
    this.assign(classIndex, timeIndex, roomIndex);
    for (const displaced of out) if (!this.placeCheapest(displaced, this.placesLeft(displaced, left, saved))) return this.putBack(saved, before);
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
      const member = members[j] as number;
      const other = this.placedNow[member];
      if (member === classIndex || !other) continue;
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
    return [...classes].map((classIndex) => [classIndex, this.time[classIndex] ?? UNPLACED, this.room[classIndex] ?? UNPLACED]);
  }

  /**
   * Puts back the values a move changed, and the running totals as they were at `before`, the mark
   * taken when `saved` was (answers null, a move not made). Every class the move changed must be in
   * `saved`: the timetable is then the one the mark read, so no class's cost is read again.
   */
  putBack(saved: readonly (readonly [number, number, number])[], before: CostMark): null {
    for (const [classIndex] of saved) if ((this.time[classIndex] ?? UNPLACED) >= 0) this.placement.take(classIndex);
    for (const [classIndex, timeIndex, roomIndex] of saved) if (timeIndex >= 0) this.placement.put(classIndex, timeIndex, roomIndex);
    this.costs.restore(before);
    return null;
  }

  /**
   * The annealing's verdict on a move of several classes made since the mark `before`: its change
   * of cost when taken, else the values put back and null.
   */
  verdict(before: CostMark, temperature: number, saved: readonly (readonly [number, number, number])[]): number | null {
    const delta = this.cost - before.cost;
    const taken = acceptance(this.random, temperature);
    const moved = saved.flatMap(([classIndex, timeIndex]) => (this.time[classIndex] !== timeIndex ? [classIndex] : []));
    let change: number | null = taken(delta) ? delta : null;
    // Worse: in some cases priced again with the students it makes clash re-sectioned, as a
    // one-class move is (a group coming together may move many students' classes at once).
    if (change === null && this.problem.students.length > 0 && this.random.next() < RESECTION_PRICED)
      change = this.withStudentsResectioned(moved, delta, taken);
    if (change === null) return this.putBack(saved, before);
    for (const classIndex of moved) this.moved.add(classIndex);
    return change;
  }

  /**
   * Places an unplaced class at its cheapest value that clashes with nothing, of the values `near`
   * (pairs of time and room, looked at first) and a sample of its others (a small one when a near
   * value is free; with `wide` false, a small one or none); false when none of them is free.
   */
  placeCheapest(classIndex: number, near: number[] = [], wide = true): boolean {
    let best: (ClassValue & { cost: number }) | null = null;
    const bestParts = this.cheapestParts;
    const consider = (timeIndex: number, roomIndex: number): void => {
      const clash = this.hardConflicts(classIndex, timeIndex, roomIndex, true);
      if (!clash || clash.size > 0) return;
      const cost = this.softCost(classIndex, timeIndex, roomIndex);
      if (best && cost >= best.cost) return;
      best = { timeIndex, roomIndex, cost };
      bestParts.set(this.costs.read);
    };
    for (let i = 0; i + 1 < near.length; i += 2) consider(near[i] as number, near[i + 1] as number);
    for (const value of this.values(classIndex, best === null ? (wide ? 60 : 8) : wide ? 8 : 0)) consider(value.timeIndex, value.roomIndex);
    const found = best as (ClassValue & { cost: number }) | null;
    if (!found) return false;
    if ((this.time[classIndex] ?? UNPLACED) >= 0) {
      this.assign(classIndex, found.timeIndex, found.roomIndex);
      return true;
    }
    // Nothing has changed since its cost there was read.
    this.costs.add(found.cost, bestParts);
    this.placement.put(classIndex, found.timeIndex, found.roomIndex);
    return true;
  }

  /** The parts of the cheapest value placeCheapest has found so far. */
  private readonly cheapestParts = new Float64Array(PARTS);

  /** A placed class drawn at random (-1 when none is placed). */
  randomPlacedClass(): number {
    for (let k = 0; k < 8; k++) {
      const classIndex = Math.floor(this.random.next() * this.n);
      if ((this.time[classIndex] ?? UNPLACED) >= 0) return classIndex;
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
    for (let classIndex = 0; classIndex < this.n; classIndex++) this.unassign(classIndex);
  }

  restore(assignment: Assignment): void {
    this.unassignAll();
    for (let classIndex = 0; classIndex < this.n; classIndex++) {
      const timeIndex = assignment.time[classIndex] ?? UNPLACED;
      if (timeIndex >= 0) this.assign(classIndex, timeIndex, assignment.room[classIndex] ?? UNPLACED);
    }
  }

  /**
   * Takes a timetable as a start, class by class in order, leaving out each class whose place breaks
   * a hard constraint with those already taken (or its room's unavailability): the construction then
   * places those. A valid timetable is taken whole.
   */
  restoreWhereValid(assignment: Assignment): void {
    this.unassignAll();
    for (let classIndex = 0; classIndex < this.n; classIndex++) {
      const timeIndex = assignment.time[classIndex] ?? UNPLACED;
      const roomIndex = assignment.room[classIndex] ?? UNPLACED;
      if (timeIndex < 0 || ((this.problem.classes[classIndex]?.rooms.length ?? 0) > 0 && roomIndex < 0)) continue;
      if (this.hardConflicts(classIndex, timeIndex, roomIndex, true)?.size === 0) this.assign(classIndex, timeIndex, roomIndex);
    }
  }

  /** The running soft cost worked out again from scratch (it drifts by no more than rounding). */
  recount(): void {
    const kept = this.snapshot();
    this.unassignAll();
    this.costs.clear();
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

/** A time option by what it is, whatever its penalty. */
function timeKey(time: TimeOption): string {
  return `${time.days}|${time.start}|${time.length}|${time.weeks}`;
}
