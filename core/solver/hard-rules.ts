import { pairHolds, setExcess, type Placed } from './distributions';
import type { Distribution, TimeOption, TimetableProblem } from './model';
import type { ClassCheck, ClassChecks } from './class-checks';
import { UNPLACED, type Placement } from './placement';
import type { TimeAlgebra } from './times';

/** The search's count of the values it looked at (each rule test and each cost read): its work, counted without a clock. */
export interface SearchWork {
  probes: number;
}

/** Whether a pair check of a class placed as `me` holds with its partner placed as `other` (in the distribution's order). */
export function pairCheckHolds(problem: TimetableProblem, algebra: TimeAlgebra, check: ClassCheck, me: Placed, other: Placed): boolean {
  return check.partnerAfter ? pairHolds(problem, algebra, check.dist, me, other) : pairHolds(problem, algebra, check.dist, other, me);
}

/**
 * The hard rules against the placement: a room's and an instructor's unavailability, one class per
 * room at a time, an instructor in one place at a time and within their limit, and the required
 * distributions. Read as cpsolver's model reads its hard constraints: which placed classes a value
 * would displace.
 */
export class HardRules {
  /** Per class: per (time, room) option, whether the room (and its instructors) are available then (room-less classes: one column). */
  readonly available: Uint8Array[];
  /** Per class, how many room options it has (1 when none). */
  readonly width: Int32Array;
  /** The set `conflicts` answers when only asked whether a value is free. */
  private readonly probe = new Set<number>();

  constructor(
    private readonly problem: TimetableProblem,
    private readonly algebra: TimeAlgebra,
    private readonly placement: Placement,
    private readonly checksOf: readonly ClassChecks[],
    private readonly work: SearchWork,
  ) {
    this.width = new Int32Array(problem.classes.length);
    this.available = problem.classes.map((c, i) => {
      const width = Math.max(1, c.rooms.length);
      this.width[i] = width;
      const table = new Uint8Array(c.times.length * width);
      c.times.forEach((t, timeIndex) => {
        if (c.rooms.length === 0) table[timeIndex] = 1;
        else
          c.rooms.forEach((r, roomIndex) => {
            const room = problem.rooms[r.room];
            const roomBusy = room !== undefined && room.unavailable.some((u) => algebra.overlaps(t, u));
            const instructorBusy = (r.instructors ?? []).some((k) => (problem.instructors?.[k]?.unavailable ?? []).some((u) => algebra.overlaps(t, u)));
            table[timeIndex * width + roomIndex] = roomBusy || instructorBusy ? 0 : 1;
          });
      });
      return table;
    });
  }

  /**
   * The placed classes that must leave for the class to take (`timeIndex`, `roomIndex`): those in the room then, those
   * a required distribution forbids beside it. Null when the class cannot take it even alone. With
   * `firstOnly`, the set holds the first such class found (enough to know that the value is not free).
   */
  conflicts(classIndex: number, timeIndex: number, roomIndex: number, firstOnly = false): Set<number> | null {
    this.work.probes++;
    const spec = this.problem.classes[classIndex];
    if (!spec || (this.available[classIndex]?.[timeIndex * (this.width[classIndex] ?? 1) + Math.max(0, roomIndex)] ?? 0) === 0) return null;
    const me = this.placement.placedAs(classIndex, timeIndex, roomIndex);
    // A value only asked whether it is free reuses one set: its callers keep nothing of it.
    const out = firstOnly ? this.probe : new Set<number>();
    if (out.size > 0) out.clear();
    if (this.roomTaken(classIndex, me, out, firstOnly) && firstOnly) return out;
    const instructors = this.instructorsBusy(classIndex, roomIndex, me, out, firstOnly);
    if (instructors === null) return null;
    if (instructors && firstOnly) return out;
    return this.requiredBroken(classIndex, me, out, firstOnly);
  }

  /** Adds to `out` the classes in the class's room at its time; true when one was found. */
  private roomTaken(classIndex: number, me: Placed, out: Set<number>, firstOnly: boolean): boolean {
    if (me.room < 0) return false;
    const occupants = this.placement.inRoom[me.room] ?? [];
    const { days, start, length, weeks } = me.time;
    const end = start + length;
    const at = this.placement.placedTimes;
    let found = false;
    for (let i = 0; i < occupants.length; i++) {
      const other = occupants[i] as number;
      const x = other * 4;
      if (
        other !== classIndex &&
        this.algebra.overlapsAt(days, start, end, weeks, at[x] as number, at[x + 1] as number, at[x + 2] as number, at[x + 3] as number)
      ) {
        out.add(other);
        found = true;
        if (firstOnly) return true;
      }
    }
    return found;
  }

  /**
   * Adds to `out` the classes of the instructors chosen with the room that must leave: never two
   * places at once, never over their limit (the earliest placed leave first). True when one was
   * found, null when an instructor may take no class at all.
   */
  private instructorsBusy(classIndex: number, roomIndex: number, me: Placed, out: Set<number>, firstOnly: boolean): boolean | null {
    let found = false;
    const { days, start, length, weeks } = me.time;
    for (const instructor of this.placement.instructorsAt(classIndex, roomIndex)) {
      const theirs = this.placement.withInstructor[instructor] ?? [];
      for (let i = 0; i < theirs.length; i++) {
        const other = theirs[i] as number;
        if (other !== classIndex && this.placement.clashesWithPlaced(days, start, start + length, weeks, me.room, other)) {
          out.add(other);
          found = true;
          if (firstOnly) return true;
        }
      }
      const limit = this.problem.instructors?.[instructor]?.maxClasses ?? null;
      if (limit === null) continue;
      if (limit <= 0) return null;
      let staying = 0;
      for (let i = 0; i < theirs.length; i++) if (theirs[i] !== classIndex && !out.has(theirs[i] as number)) staying++;
      for (let i = 0, leaving = staying - limit + 1; i < theirs.length && leaving > 0; i++) {
        const other = theirs[i] as number;
        if (other === classIndex || out.has(other)) continue;
        out.add(other);
        found = true;
        leaving--;
        if (firstOnly) return true;
      }
    }
    return found;
  }

  /** Adds to `out` the classes the class's required distributions forbid beside it; null when it breaks one even alone. */
  private requiredBroken(classIndex: number, me: Placed, out: Set<number>, firstOnly: boolean): Set<number> | null {
    const checks = this.checksOf[classIndex]?.required ?? [];
    for (let i = 0; i < checks.length; i++) {
      const check = checks[i] as ClassCheck;
      if (check.partner < 0) {
        if (!this.displaceForSet(classIndex, me, check.dist, out, firstOnly)) return null;
        if (firstOnly && out.size > 0) return out;
        continue;
      }
      const partner = check.partner;
      const other = this.placement.placedNow[partner];
      // Asked only whether the value is free, nothing has been displaced yet (the first would have answered).
      if (!other || (!firstOnly && out.has(partner))) continue;
      if (!pairCheckHolds(this.problem, this.algebra, check, me, other)) {
        out.add(partner);
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
    const time = this.placement.time;
    let others = dist.classes.filter((member) => member !== classIndex && (time[member] ?? UNPLACED) >= 0 && !out.has(member));
    const times = (without: number): TimeOption[] => [me.time, ...others.filter((member) => member !== without).map((member) => this.placement.timeOf(member))];
    let excess = setExcess(this.problem, this.algebra, dist, times(-1));
    if (excess === 0) return true;
    if (setExcess(this.problem, this.algebra, dist, [me.time]) > 0) return false;
    while (others.length > 0 && excess > 0) {
      let best = others[0] as number;
      let bestExcess = Number.POSITIVE_INFINITY;
      for (const member of others) {
        const without = setExcess(this.problem, this.algebra, dist, times(member));
        if (without < bestExcess) {
          bestExcess = without;
          best = member;
        }
      }
      out.add(best);
      if (firstOnly) return true;
      others = others.filter((member) => member !== best);
      excess = bestExcess;
    }
    return true;
  }
}
