/** The classes one class shares students with, and how many students each (parallel lists). */
export interface SharedStudents {
  readonly classes: readonly number[];
  readonly counts: readonly number[];
}

/**
 * For each class, the classes sharing students with it and how many: for every student, one for each
 * two of the classes they take. Kept as lists, so that the search's student check (made for every
 * value it looks at) reads them without a map's iteration, with an index for the updates: a class
 * that no longer shares any student leaves its list, the last one taking its place.
 *
 * Brought up to date when read: a student who changes classes is noted with the classes they were
 * counted in, and only what differs when the counts are next read is counted again. The sectioning
 * moves students to price a choice and puts most of them back; those cost nothing here.
 */
export class SharedStudentCounts {
  private readonly rows: { classes: number[]; counts: number[]; at: Map<number, number> }[];
  /** Students who have changed classes since the counts were last brought up to date, with the classes they are counted in. */
  private readonly counted = new Map<number, readonly number[]>();

  /** `classesOf(student)`: the classes the student takes now (a list of their own, not changed afterwards). */
  constructor(
    classCount: number,
    private readonly classesOf: (student: number) => readonly number[],
  ) {
    this.rows = Array.from({ length: classCount }, () => ({ classes: [], counts: [], at: new Map<number, number>() }));
  }

  /** Student s is about to change classes: those they take now are the ones they are counted in. */
  note(student: number): void {
    if (!this.counted.has(student)) this.counted.set(student, this.classesOf(student));
  }

  /** The classes sharing students with the class, every noted student counted in the classes they take now first. */
  of(classIndex: number): SharedStudents {
    if (this.counted.size > 0) this.settle();
    return this.rows[classIndex] ?? NONE;
  }

  private settle(): void {
    for (const [student, before] of this.counted) {
      const after = this.classesOf(student);
      // Put back where they were (a choice priced and undone, most of them): nothing to count again.
      if (sameList(before, after) && !hasRepeats(before)) continue;
      if (hasRepeats(before) || hasRepeats(after)) {
        // A course asked for twice may list a class twice: every two places, as counted.
        this.pairs(before, null, -1);
        this.pairs(after, null, 1);
      } else {
        // Two classes the student keeps are counted as they were.
        this.pairs(before, after, -1);
        this.pairs(after, before, 1);
      }
    }
    this.counted.clear();
  }

  /** Each two places of `classes` count `by`, but for two classes both in `kept` (when given). */
  private pairs(classes: readonly number[], kept: readonly number[] | null, by: number): void {
    for (let x = 0; x < classes.length; x++) {
      const a = classes[x] as number;
      const aKept = kept !== null && kept.includes(a);
      for (let y = x + 1; y < classes.length; y++) {
        const b = classes[y] as number;
        if (aKept && kept.includes(b)) continue;
        this.linkOneWay(a, b, by);
        this.linkOneWay(b, a, by);
      }
    }
  }

  private linkOneWay(x: number, y: number, by: number): void {
    const row = this.rows[x];
    if (!row) return;
    const i = row.at.get(y);
    if (i === undefined) {
      row.at.set(y, row.classes.length);
      row.classes.push(y);
      row.counts.push(by);
      return;
    }
    const next = (row.counts[i] as number) + by;
    if (next !== 0) {
      row.counts[i] = next;
      return;
    }
    const last = row.classes.length - 1;
    const moved = row.classes[last] as number;
    row.classes[i] = moved;
    row.counts[i] = row.counts[last] as number;
    row.at.set(moved, i);
    row.classes.pop();
    row.counts.pop();
    row.at.delete(y);
  }
}

const sameList = (a: readonly number[], b: readonly number[]): boolean => a.length === b.length && a.every((classIndex, x) => classIndex === b[x]);

const hasRepeats = (classes: readonly number[]): boolean => classes.some((classIndex, x) => classes.indexOf(classIndex) !== x);

const NONE: SharedStudents = { classes: [], counts: [] };
