import type { SeededRandom } from '../util/random';
import type { TimetableProblem } from './model';

/**
 * Students into sections, pure: each student takes one configuration of every course they need
 * and one class of each of its subparts, a class's parent with it, never more students than a
 * class's limit. First every student is placed (balancing the classes), then — once classes have
 * times — each student's course is re-sectioned to the combination of classes that clashes least
 * with the rest of their timetable. Kept alongside: how many students each pair of classes shares,
 * which is what the timetable's student conflicts are counted from.
 */
export class Sectioning {
  private readonly enrolled: Int32Array;
  /** For each student, for each of their courses (in order), the classes they take. */
  private readonly choice: number[][][];
  /** For each class, the classes sharing students with it and how many. */
  private readonly shared: Map<number, number>[];
  /** For each class, the students in it. */
  private readonly members: Set<number>[];
  /** Per config, its subparts ordered parents first. */
  private readonly order: number[][];
  /** Nodes one course's enumeration may visit when re-sectioning a student. */
  private static readonly NODES = 2_000;

  constructor(
    private readonly problem: TimetableProblem,
    private readonly random: SeededRandom,
    private readonly clash: (a: number, b: number) => boolean,
  ) {
    this.enrolled = new Int32Array(problem.classes.length);
    this.choice = problem.students.map((s) => s.courses.map(() => []));
    this.shared = problem.classes.map(() => new Map<number, number>());
    this.members = problem.classes.map(() => new Set<number>());
    this.order = problem.configs.map((config) => {
      const depth = (sp: number): number => {
        let d = 0;
        let parent = problem.classes[problem.subparts[sp]?.classes[0] ?? -1]?.parent ?? -1;
        while (parent >= 0 && d < 50) {
          d++;
          parent = problem.classes[parent]?.parent ?? -1;
        }
        return d;
      };
      return [...config.subparts].sort((a, b) => depth(a) - depth(b));
    });
  }

  sharedWith(c: number): ReadonlyMap<number, number> {
    return this.shared[c] ?? new Map<number, number>();
  }

  enrollments(): number[][] {
    return this.choice.map((courses) => courses.flat());
  }

  private hasRoom(c: number): boolean {
    const limit = this.problem.classes[c]?.limit ?? -1;
    return limit < 0 || (this.enrolled[c] ?? 0) < limit;
  }

  private link(a: number, b: number, by: number): void {
    for (const [x, y] of [
      [a, b],
      [b, a],
    ] as const) {
      const map = this.shared[x] as Map<number, number>;
      const next = (map.get(y) ?? 0) + by;
      if (next === 0) map.delete(y);
      else map.set(y, next);
    }
  }

  /** Student `s` takes `classes` for their course number `k` (replacing what they took). */
  private take(s: number, k: number, classes: number[]): void {
    const mine = this.choice[s] as number[][];
    const others = mine.flatMap((cs, j) => (j === k ? [] : cs));
    const old = mine[k] ?? [];
    for (let x = 0; x < old.length; x++) {
      const a = old[x] as number;
      this.enrolled[a] = (this.enrolled[a] ?? 1) - 1;
      this.members[a]?.delete(s);
      for (const b of others) this.link(a, b, -1);
      for (let y = x + 1; y < old.length; y++) this.link(a, old[y] as number, -1);
    }
    for (let x = 0; x < classes.length; x++) {
      const a = classes[x] as number;
      this.enrolled[a] = (this.enrolled[a] ?? 0) + 1;
      this.members[a]?.add(s);
      for (const b of others) this.link(a, b, 1);
      for (let y = x + 1; y < classes.length; y++) this.link(a, classes[y] as number, 1);
    }
    mine[k] = classes;
  }

  /**
   * The best combination of a course's classes for a student: fewest clashes with `others` and among
   * themselves (`score` null: any, preferring the emptiest classes), within the node budget.
   */
  private best(course: number, others: readonly number[], scoreClashes: boolean): number[] | null {
    const configs = [...(this.problem.courses[course]?.configs ?? [])];
    let best: number[] | null = null;
    let bestCost = Number.POSITIVE_INFINITY;
    let nodes = 0;
    const spare = (c: number): number => {
      const limit = this.problem.classes[c]?.limit ?? -1;
      return limit < 0 ? 1e9 : limit - (this.enrolled[c] ?? 0);
    };
    for (const config of this.random.next() < 0.5 ? configs : configs.reverse()) {
      const subparts = this.order[config] ?? [];
      const chosen: number[] = [];
      const walk = (i: number, cost: number): void => {
        if (nodes++ > Sectioning.NODES || cost >= bestCost) return;
        if (i === subparts.length) {
          best = [...chosen];
          bestCost = cost;
          return;
        }
        const candidates = (this.problem.subparts[subparts[i] as number]?.classes ?? []).filter((c) => {
          const parent = this.problem.classes[c]?.parent ?? -1;
          return this.hasRoom(c) && (parent < 0 || chosen.includes(parent));
        });
        // Emptiest first: the placement balances the classes, and ties go to room to spare.
        candidates.sort((a, b) => spare(b) - spare(a) || this.random.next() - 0.5);
        for (const c of candidates) {
          let extra = 0;
          if (scoreClashes) {
            for (const o of others) if (this.clash(c, o)) extra++;
            for (const o of chosen) if (this.clash(c, o)) extra++;
          }
          chosen.push(c);
          walk(i + 1, cost + extra);
          chosen.pop();
          if (!scoreClashes && best !== null) return;
        }
      };
      walk(0, 0);
      if (!scoreClashes && best !== null) break;
    }
    return best;
  }

  /** Places every student in every course they need; answers how many course requests could not be placed. */
  initial(): number {
    let missed = 0;
    const order = this.problem.students.map((_, s) => s).sort(() => this.random.next() - 0.5);
    for (const s of order) {
      (this.problem.students[s]?.courses ?? []).forEach((course, k) => {
        const classes = this.best(course, [], false);
        if (classes) this.take(s, k, classes);
        else missed++;
      });
    }
    return missed;
  }

  /**
   * One pass over the students: each course re-sectioned to its least-clashing combination given
   * the classes' current times. Answers the change in student conflicts (≤ 0).
   */
  improve(): number {
    return this.improveStudents(this.problem.students.map((_, s) => s).sort(() => this.random.next() - 0.5));
  }

  /** The students of any of `classes` for whom it clashes with another of their classes (each once, in the order met). */
  clashingIn(classes: Iterable<number>): number[] {
    const out = new Set<number>();
    for (const c of classes)
      for (const s of this.members[c] ?? []) {
        if (out.has(s)) continue;
        const mine = this.choice[s] ?? [];
        if (mine.some((cs) => cs.some((o) => o !== c && this.clash(c, o)))) out.add(s);
      }
    return [...out];
  }

  /** improve() for the students given, in that order. */
  improveStudents(order: readonly number[]): number {
    let change = 0;
    for (const s of order) {
      const mine = this.choice[s] as number[][];
      mine.forEach((current, k) => {
        const course = this.problem.students[s]?.courses[k] ?? -1;
        const others = mine.flatMap((cs, j) => (j === k ? [] : cs));
        const clashesOf = (classes: readonly number[]): number => {
          let n = 0;
          for (let x = 0; x < classes.length; x++) {
            for (const o of others) if (this.clash(classes[x] as number, o)) n++;
            for (let y = x + 1; y < classes.length; y++) if (this.clash(classes[x] as number, classes[y] as number)) n++;
          }
          return n;
        };
        const before = clashesOf(current);
        if (before === 0) return;
        // Free the student's seats while looking, so their own classes count as open.
        for (const c of current) this.enrolled[c] = (this.enrolled[c] ?? 1) - 1;
        const found = this.best(course, others, true);
        for (const c of current) this.enrolled[c] = (this.enrolled[c] ?? 0) + 1;
        if (!found) return;
        const after = clashesOf(found);
        if (after < before) {
          this.take(s, k, found);
          change += after - before;
        }
      });
    }
    return change;
  }

  /**
   * Swaps of two students between classes of one subpart, where one class is full: a student with
   * clashes trades places with one in a sibling class when both end up clashing less in all (a class
   * with a child the student takes is never traded, so parents stay with their children). Answers
   * the change in student conflicts (≤ 0).
   */
  swap(): number {
    let change = 0;
    const order = this.problem.students.map((_, s) => s).sort(() => this.random.next() - 0.5);
    const clashes = (student: number, c: number, without: number): number => {
      let n = 0;
      for (const courses of this.choice[student] ?? []) for (const o of courses) if (o !== without && o !== c && this.clash(c, o)) n++;
      return n;
    };
    const tradable = (student: number, k: number, c: number): boolean => !(this.choice[student]?.[k] ?? []).some((o) => this.problem.classes[o]?.parent === c);
    for (const s of order) {
      const mine = this.choice[s] as number[][];
      mine.forEach((classes, k) => {
        for (const x of [...classes]) {
          const here = clashes(s, x, x);
          if (here === 0 || !tradable(s, k, x)) continue;
          const spec = this.problem.classes[x];
          const siblings = (this.problem.subparts[spec?.subpart ?? -1]?.classes ?? []).filter(
            (y) => y !== x && this.problem.classes[y]?.parent === spec?.parent,
          );
          let best: { y: number; t: number | null; gain: number } | null = null;
          for (const y of siblings) {
            const there = clashes(s, y, x);
            if (there >= here) continue;
            if (this.hasRoom(y)) {
              const gain = there - here;
              if (!best || gain < best.gain) best = { y, t: null, gain };
              continue;
            }
            for (const t of this.members[y] ?? []) {
              const tk = (this.choice[t] ?? []).findIndex((cs) => cs.includes(y));
              if (t === s || tk < 0 || !tradable(t, tk, y) || (this.choice[t] ?? []).some((cs) => cs.includes(x))) continue;
              const gain = there - here + clashes(t, x, y) - clashes(t, y, y);
              if (gain < 0 && (!best || gain < best.gain)) best = { y, t, gain };
            }
          }
          if (!best) continue;
          const { y, t, gain } = best;
          this.take(
            s,
            k,
            (mine[k] ?? []).map((c) => (c === x ? y : c)),
          );
          if (t !== null) {
            const tk = (this.choice[t] ?? []).findIndex((cs) => cs.includes(y));
            this.take(
              t,
              tk,
              (this.choice[t]?.[tk] ?? []).map((c) => (c === y ? x : c)),
            );
          }
          change += gain;
          return;
        }
      });
    }
    return change;
  }
}
