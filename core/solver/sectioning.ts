import type { SeededRandom } from '../util/random';
import type { TimetableProblem } from './model';
import { SharedStudentCounts, type SharedStudents } from './shared-students';

/** What the sectioning asks of the placed classes (the search's Placement answers it). */
export interface StudentClashes {
  /** Whether the two placed classes clash for a student attending both. */
  studentsClash(firstClass: number, secondClass: number): boolean;
  /** How many of `classes` (but `without` and the class itself) clash with the placed class. */
  clashCount(classIndex: number, classes: readonly number[], without: number): number;
}

/** A student's course number k as it was before an exchange moved them (see Sectioning.exchangeStudents). */
export interface ExchangeUndo {
  student: number;
  k: number;
  classes: readonly number[];
}

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
  private readonly shared: SharedStudentCounts;
  /** For each class, the students in it. */
  private readonly members: Set<number>[];
  /** Per class, its course. */
  private readonly courseOf: number[];
  /** Per config, its subparts ordered parents first. */
  private readonly order: number[][];
  /** Nodes one course's enumeration may visit when re-sectioning a student. */
  private static readonly NODES = 2_000;

  constructor(
    private readonly problem: TimetableProblem,
    private readonly random: SeededRandom,
    private readonly clashes: StudentClashes,
  ) {
    this.enrolled = new Int32Array(problem.classes.length);
    this.choice = problem.students.map((s) => s.courses.map(() => []));
    this.flat = problem.students.map(() => null);
    this.shared = new SharedStudentCounts(problem.classes.length, (student) => this.classesOf(student));
    this.members = problem.classes.map(() => new Set<number>());
    this.courseOf = problem.classes.map((spec) => problem.configs[problem.subparts[spec.subpart]?.config ?? -1]?.course ?? -1);
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

  sharedWith(classIndex: number): SharedStudents {
    return this.shared.of(classIndex);
  }

  /**
   * Each student's classes, a copy that is never changed: the same copy again while no student has
   * changed classes, else the last one with the students who have changed copied again (a search's best
   * timetable is kept after each of its improving moves, and most move only classes).
   */
  enrollments(): number[][] {
    if (this.copied === null) this.copied = this.choice.map((_, student) => this.classesOf(student));
    else if (this.changed.size > 0) {
      this.copied = [...this.copied];
      for (const student of this.changed) this.copied[student] = this.classesOf(student);
    }
    this.changed.clear();
    return this.copied;
  }

  /** The students who have taken other classes (see take) since enrollments' last copy. */
  private readonly changed = new Set<number>();
  private copied: number[][] | null = null;

  /** Per student, their classes in one list until they take others (a list is never changed: take drops it). */
  private readonly flat: (number[] | null)[];

  /** The student's classes, all their courses' in one list (never to be changed). */
  private classesOf(student: number): number[] {
    return (this.flat[student] ??= (this.choice[student] ?? []).flat());
  }

  /**
   * Whether any two of the student's classes clash. When none do, re-sectioning, trading and
   * exchanging have nothing to lower for them, so each pass asks this first and leaves them.
   */
  private clashesAny(student: number): boolean {
    const classes = this.classesOf(student);
    for (let x = 0; x < classes.length; x++)
      for (let y = x + 1; y < classes.length; y++) if (this.clashes.studentsClash(classes[x] as number, classes[y] as number)) return true;
    return false;
  }

  private hasRoom(classIndex: number): boolean {
    const limit = this.problem.classes[classIndex]?.limit ?? -1;
    return limit < 0 || (this.enrolled[classIndex] ?? 0) < limit;
  }

  /** The student takes `classes` for their course number `k` (replacing what they took). */
  private take(student: number, k: number, classes: number[]): void {
    const mine = this.choice[student] as number[][];
    this.shared.note(student);
    const old = mine[k] ?? [];
    for (let x = 0; x < old.length; x++) {
      const a = old[x] as number;
      this.enrolled[a] = (this.enrolled[a] ?? 1) - 1;
      this.members[a]?.delete(student);
    }
    for (let x = 0; x < classes.length; x++) {
      const a = classes[x] as number;
      this.enrolled[a] = (this.enrolled[a] ?? 0) + 1;
      this.members[a]?.add(student);
    }
    mine[k] = classes;
    this.flat[student] = null;
    this.changed.add(student);
  }

  /**
   * The best combination of a course's classes for a student: fewest clashes with `others` and among
   * themselves (`scoreClashes` false: any, preferring the emptiest classes), within the node budget;
   * with `withinLimits` false, full classes count as open too.
   */
  private best(course: number, others: readonly number[], scoreClashes: boolean, withinLimits = true): number[] | null {
    const configs = [...(this.problem.courses[course]?.configs ?? [])];
    let best: number[] | null = null;
    let bestCost = Number.POSITIVE_INFINITY;
    let nodes = 0;
    const spare = (classIndex: number): number => {
      const limit = this.problem.classes[classIndex]?.limit ?? -1;
      return limit < 0 ? 1e9 : limit - (this.enrolled[classIndex] ?? 0);
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
        const candidates = (this.problem.subparts[subparts[i] as number]?.classes ?? []).filter((classIndex) => {
          const parent = this.problem.classes[classIndex]?.parent ?? -1;
          return (!withinLimits || this.hasRoom(classIndex)) && (parent < 0 || chosen.includes(parent));
        });
        // Emptiest first: the placement balances the classes, and ties go to room to spare.
        candidates.sort((a, b) => spare(b) - spare(a) || this.random.next() - 0.5);
        for (const classIndex of candidates) {
          let extra = 0;
          if (scoreClashes) {
            for (const o of others) if (this.clashes.studentsClash(classIndex, o)) extra++;
            for (const o of chosen) if (this.clashes.studentsClash(classIndex, o)) extra++;
          }
          chosen.push(classIndex);
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

  /** The classes each of `students` takes, course by course (for restoreChoices). */
  choicesOf(students: readonly number[]): number[][][] {
    return students.map((student) => (this.choice[student] ?? []).map((classes) => [...classes]));
  }

  /** Puts `students` back in the classes choicesOf answered for them. */
  restoreChoices(students: readonly number[], choices: readonly (readonly number[][])[]): void {
    students.forEach((student, i) =>
      choices[i]?.forEach((classes, k) => {
        const now = this.choice[student]?.[k] ?? [];
        if (now.length !== classes.length || now.some((classIndex, x) => classIndex !== classes[x])) this.take(student, k, classes);
      }),
    );
  }

  /** Takes each student's classes as given (as enrollments() answers them), in place of what they took. */
  adopt(enrollments: readonly (readonly number[])[]): void {
    enrollments.forEach((classes, student) => {
      (this.problem.students[student]?.courses ?? []).forEach((course, k) =>
        this.take(
          student,
          k,
          classes.filter((classIndex) => this.courseOf[classIndex] === course),
        ),
      );
    });
  }

  /** Places every student in every course they need; answers how many course requests could not be placed. */
  initial(): number {
    let missed = 0;
    const order = this.problem.students.map((_, student) => student).sort(() => this.random.next() - 0.5);
    for (const student of order) {
      (this.problem.students[student]?.courses ?? []).forEach((course, k) => {
        const classes = this.best(course, [], false);
        if (classes) this.take(student, k, classes);
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
    return this.improveStudents(this.problem.students.map((_, student) => student).sort(() => this.random.next() - 0.5));
  }

  /**
   * Every student's timetable improved with the classes' times fixed: each course re-sectioned
   * (improve), then trades along chains of one class (trade), then whole-course exchanges
   * (exchangeCourses). Answers the change in student conflicts (≤ 0).
   */
  improveAll(): number {
    return this.improve() + this.trade() + this.exchangeCourses();
  }

  /** The students of any of `classes` for whom it clashes with another of their classes (each once, in the order met). */
  clashingIn(classes: Iterable<number>): number[] {
    const out = new Set<number>();
    for (const classIndex of classes)
      for (const student of this.members[classIndex] ?? []) {
        if (out.has(student)) continue;
        if (this.clashes.clashCount(classIndex, this.classesOf(student), classIndex) > 0) out.add(student);
      }
    return [...out];
  }

  /** improve() for the students given, in that order. */
  improveStudents(order: readonly number[]): number {
    let change = 0;
    for (const student of order) {
      if (!this.clashesAny(student)) continue;
      const mine = this.choice[student] as number[][];
      mine.forEach((current, k) => {
        const course = this.problem.students[student]?.courses[k] ?? -1;
        const others = this.othersOf(student, k);
        const before = this.clashesOf(current, others);
        if (before === 0) return;
        // Free the student's seats while looking, so their own classes count as open.
        for (const classIndex of current) this.enrolled[classIndex] = (this.enrolled[classIndex] ?? 1) - 1;
        const found = this.best(course, others, true);
        for (const classIndex of current) this.enrolled[classIndex] = (this.enrolled[classIndex] ?? 0) + 1;
        if (!found) return;
        const after = this.clashesOf(found, others);
        if (after < before) {
          this.take(student, k, found);
          change += after - before;
        }
      });
    }
    return change;
  }

  /** The classes the student takes for their courses other than number k. */
  private othersOf(student: number, k: number): number[] {
    const others: number[] = [];
    const mine = this.choice[student] ?? [];
    for (let j = 0; j < mine.length; j++) if (j !== k) for (const classIndex of mine[j] as number[]) others.push(classIndex);
    return others;
  }

  /** The clashes `classes` would have with a student's `others` and among themselves. */
  private clashesOf(classes: readonly number[], others: readonly number[]): number {
    let n = 0;
    for (let x = 0; x < classes.length; x++) {
      for (const o of others) if (this.clashes.studentsClash(classes[x] as number, o)) n++;
      for (let y = x + 1; y < classes.length; y++) if (this.clashes.studentsClash(classes[x] as number, classes[y] as number)) n++;
    }
    return n;
  }

  /**
   * Whole-course exchanges between two students: a student whose course clashes takes the course's
   * least-clashing combination although one of its classes is full, and a student in the full
   * classes (in all of them) makes room, re-sectioned to their own best combination with room — the
   * places the first student left among them. The best such pair is taken when the two clash less
   * in all; trade() moves one class at a time, this moves a whole course. Answers the change in
   * student conflicts (≤ 0).
   */
  exchangeCourses(): number {
    return this.exchangeStudents(this.problem.students.map((_, student) => student).sort(() => this.random.next() - 0.5));
  }

  /**
   * exchangeCourses() for the students given, in that order (those who clash): the change in student
   * conflicts (≤ 0). Each student of a full class who made room is noted in `undo` (when given) with
   * the classes they took before (the first note of a student is where they were), for putBackExchanges.
   */
  exchangeStudents(order: readonly number[], undo?: ExchangeUndo[]): number {
    let change = 0;
    for (const student of order) {
      if (!this.clashesAny(student)) continue;
      for (let k = 0; k < (this.choice[student]?.length ?? 0); k++) change += this.exchangeFrom(student, k, undo);
    }
    return change;
  }

  /** Puts the students exchangeStudents moved to make room back where `undo` says they were. */
  putBackExchanges(undo: readonly ExchangeUndo[]): void {
    for (let x = undo.length - 1; x >= 0; x--) {
      const { student, k, classes } = undo[x] as ExchangeUndo;
      this.take(student, k, [...classes]);
    }
  }

  /** Students of a full class exchangeFrom looks at, at most. */
  private static readonly EXCHANGE_PEERS = 40;

  /** exchangeCourses() for the student's course number k: the change it made in student conflicts. */
  private exchangeFrom(student: number, k: number, undo?: ExchangeUndo[]): number {
    const course = this.problem.students[student]?.courses[k] ?? -1;
    const current = this.choice[student]?.[k] ?? [];
    const others = this.othersOf(student, k);
    const before = this.clashesOf(current, others);
    if (before === 0) return 0;
    this.take(student, k, []);
    const wanted = this.best(course, others, true, false);
    const gain = wanted === null ? 0 : this.clashesOf(wanted, others) - before;
    const full = (wanted ?? []).filter((classIndex) => !this.hasRoom(classIndex));
    if (wanted === null || gain >= 0 || full.length === 0) {
      // No combination clashes less (or one with room does, which improveStudents takes).
      this.take(student, k, current);
      return 0;
    }
    let chosen: { peer: number; kt: number; classes: number[]; gain: number } | null = null;
    for (const peer of [...(this.members[full[0] as number] ?? [])].slice(0, Sectioning.EXCHANGE_PEERS)) {
      const kt = this.courseNumberWith(peer, full[0] as number);
      if (peer === student || kt < 0) continue;
      const theirs = this.choice[peer]?.[kt] ?? [];
      if (!full.every((classIndex) => theirs.includes(classIndex))) continue;
      const theirOthers = this.othersOf(peer, kt);
      const theirsBefore = this.clashesOf(theirs, theirOthers);
      this.take(peer, kt, []);
      this.take(student, k, wanted);
      const found = this.best(this.problem.students[peer]?.courses[kt] ?? -1, theirOthers, true);
      const total = found === null ? 0 : gain + this.clashesOf(found, theirOthers) - theirsBefore;
      this.take(student, k, []);
      this.take(peer, kt, theirs);
      if (found !== null && total < 0 && (chosen === null || total < chosen.gain)) chosen = { peer, kt, classes: found, gain: total };
    }
    if (chosen === null) {
      this.take(student, k, current);
      return 0;
    }
    undo?.push({ student: chosen.peer, k: chosen.kt, classes: [...(this.choice[chosen.peer]?.[chosen.kt] ?? [])] });
    this.take(chosen.peer, chosen.kt, []);
    this.take(student, k, wanted);
    this.take(chosen.peer, chosen.kt, chosen.classes);
    return chosen.gain;
  }

  /**
   * Students trade places along a short chain where the class a student would clash less in is full:
   * a student with clashes moves to a sibling class (one subpart, one parent) where they clash less;
   * when it is full, one of its students moves on to another sibling, and so on, until one moves into
   * a class with room or into the place the first student left (a plain swap), at most CHAIN students.
   * A chain is taken when it lowers the clashes of its students in all. A class with a child the
   * student takes is never left, so parents stay with their children. Answers the change in student
   * conflicts (≤ 0).
   */
  trade(): number {
    let change = 0;
    const order = this.problem.students.map((_, student) => student).sort(() => this.random.next() - 0.5);
    for (const s of order) {
      if (!this.clashesAny(s)) continue;
      const mine = this.choice[s] as number[][];
      mine.forEach((classes, k) => {
        for (const x of [...classes]) {
          if (this.clashesAt(s, x, x) === 0 || !this.tradable(s, k, x)) continue;
          const chain = this.chainFrom(s, k, x);
          if (!chain) continue;
          for (const move of chain.moves)
            this.take(
              move.student,
              move.k,
              (this.choice[move.student]?.[move.k] ?? []).map((classIndex) => (classIndex === move.from ? move.to : classIndex)),
            );
          change += chain.gain;
          return;
        }
      });
    }
    return change;
  }

  /** Students a trade may move along one chain. */
  private static readonly CHAIN = 3;
  /** Steps one chain's search may take. */
  private static readonly CHAIN_NODES = 5_000;

  /** How many of the student's classes (other than `without` and the class itself) clash with the class. */
  private clashesAt(student: number, classIndex: number, without: number): number {
    return this.clashes.clashCount(classIndex, this.classesOf(student), without);
  }

  /** The number k of the student's course whose classes include the class (-1: none). */
  private courseNumberWith(student: number, classIndex: number): number {
    const course = this.courseOf[classIndex] ?? -1;
    const courses = this.problem.students[student]?.courses ?? [];
    const mine = this.choice[student] ?? [];
    for (let k = 0; k < courses.length; k++) if (courses[k] === course && (mine[k] ?? []).includes(classIndex)) return k;
    return -1;
  }

  /** Whether the student may leave the class of their course k (they take no child of it). */
  private tradable(student: number, k: number, classIndex: number): boolean {
    return !(this.choice[student]?.[k] ?? []).some((o) => this.problem.classes[o]?.parent === classIndex);
  }

  /** The other classes of the class's subpart with its parent (worked out once a class). */
  private siblingsOf(classIndex: number): readonly number[] {
    const known = this.siblings[classIndex];
    if (known) return known;
    const spec = this.problem.classes[classIndex];
    const subpart = this.problem.subparts[spec?.subpart ?? -1]?.classes ?? [];
    const found = subpart.filter((y) => y !== classIndex && this.problem.classes[y]?.parent === spec?.parent);
    this.siblings[classIndex] = found;
    return found;
  }

  /** Per class, siblingsOf's answer once asked. */
  private readonly siblings: (readonly number[] | undefined)[] = [];

  /** The best chain of trades that starts with the student leaving class x of course k (see trade), or null. */
  private chainFrom(s: number, k: number, x: number): { moves: { student: number; k: number; from: number; to: number }[]; gain: number } | null {
    type Move = { student: number; k: number; from: number; to: number };
    let best: { moves: Move[]; gain: number } | null = null;
    let nodes = 0;
    const students = new Set<number>([s]);
    const classes = new Set<number>([x]);
    const moves: Move[] = [];
    const visit = (student: number, sk: number, from: number, gain: number): void => {
      const leaving = this.clashesAt(student, from, from);
      for (const y of this.siblingsOf(from)) {
        if (nodes++ > Sectioning.CHAIN_NODES) return;
        if (classes.has(y) && y !== x) continue;
        const delta = this.clashesAt(student, y, from) - leaving;
        // The first student moves to clash less; those after never clash more.
        if (moves.length === 0 ? delta >= 0 : delta > 0) continue;
        const total = gain + delta;
        moves.push({ student, k: sk, from, to: y });
        if (y === x || this.hasRoom(y)) {
          if (total < 0 && (!best || total < best.gain)) best = { moves: [...moves], gain: total };
        } else if (moves.length < Sectioning.CHAIN) {
          classes.add(y);
          for (const peer of this.members[y] ?? []) {
            // Once the budget is spent no peer is looked at (each would only find that out).
            if (nodes > Sectioning.CHAIN_NODES) break;
            if (students.has(peer)) continue;
            const tk = this.courseNumberWith(peer, y);
            if (tk < 0 || !this.tradable(peer, tk, y)) continue;
            students.add(peer);
            visit(peer, tk, y, total);
            students.delete(peer);
          }
          classes.delete(y);
        }
        moves.pop();
      }
    };
    visit(s, k, x, 0);
    return best;
  }
}
