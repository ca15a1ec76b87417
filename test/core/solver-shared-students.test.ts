import { describe, expect, it } from 'vitest';
import { SharedStudentCounts } from '../../core/solver/shared-students';
import { SeededRandom } from '../../core/util/random';

/**
 * How many students each two classes share, which the search's student conflicts are counted from:
 * brought up to date only when read, it must always read as a count made afresh from every student's
 * classes, however often students change and change back in between.
 */
const CLASSES = 12;

/** For each class, the classes it shares students with and how many, counted from scratch (every two places of a student's list). */
function afresh(students: readonly (readonly number[])[]): Map<number, number>[] {
  const rows = Array.from({ length: CLASSES }, () => new Map<number, number>());
  for (const classes of students)
    for (let x = 0; x < classes.length; x++)
      for (let y = x + 1; y < classes.length; y++) {
        const a = classes[x] as number;
        const b = classes[y] as number;
        rows[a]?.set(b, (rows[a]?.get(b) ?? 0) + 1);
        rows[b]?.set(a, (rows[b]?.get(a) ?? 0) + 1);
      }
  return rows;
}

const read = (counts: SharedStudentCounts, c: number): Map<number, number> => {
  const { classes, counts: shared } = counts.of(c);
  return new Map(classes.map((d, i) => [d, shared[i] as number]));
};

describe('classes sharing students', () => {
  it('reads as a count made afresh after every kind of change, a class listed twice included', () => {
    const g = new SeededRandom(11);
    const students: number[][] = Array.from({ length: 30 }, () => []);
    const counts = new SharedStudentCounts(CLASSES, (s) => [...(students[s] ?? [])]);
    let repeated = 0;
    for (let step = 0; step < 400; step++) {
      // A few students change (some twice, some back to what they had) before the counts are read.
      for (let k = g.int(1, 4); k > 0; k--) {
        const s = g.int(0, students.length - 1);
        counts.note(s);
        const kind = g.int(0, 3);
        const mine = students[s] as number[];
        if (kind === 0) mine.splice(0, mine.length);
        else if (kind === 1 && mine.length > 0) mine[g.int(0, mine.length - 1)] = g.int(0, CLASSES - 1);
        else if (kind === 2) mine.push(g.int(0, CLASSES - 1));
        else students[s] = Array.from({ length: g.int(0, 6) }, () => g.int(0, CLASSES - 1));
      }
      if (students.some((classes) => new Set(classes).size < classes.length)) repeated++;
      const expected = afresh(students);
      for (let c = 0; c < CLASSES; c++) expect(read(counts, c)).toEqual(expected[c]);
    }
    // The reads met students listing a class twice, and students without one.
    expect(repeated).toBeGreaterThan(0);
    expect(repeated).toBeLessThan(400);
  });

  it('counts a student who changes and changes back before a read as before', () => {
    const students: number[][] = [[]];
    const counts = new SharedStudentCounts(CLASSES, (s) => [...(students[s] ?? [])]);
    counts.note(0);
    students[0] = [0, 1, 2];
    expect(read(counts, 0)).toEqual(
      new Map([
        [1, 1],
        [2, 1],
      ]),
    );
    counts.note(0);
    students[0] = [5];
    students[0] = [0, 1, 2];
    expect(read(counts, 1)).toEqual(
      new Map([
        [0, 1],
        [2, 1],
      ]),
    );
    expect(read(counts, 5)).toEqual(new Map());
  });
});
