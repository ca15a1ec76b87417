import { describe, expect, it } from 'vitest';
import { attendeesConflict } from '../../core/solver/distributions';
import type { TimeOption } from '../../core/solver/model';
import { Placement } from '../../core/solver/placement';
import { TimeAlgebra } from '../../core/solver/times';
import { SeededRandom } from '../../core/util/random';
import { handMadeProblem } from '../helpers/hand-made-problem';

/**
 * The placement answers whether two placed classes clash for a student from typed arrays, and skips
 * the travel when the classes meet at once or are further apart than the problem's longest travel:
 * it must answer as the rule read from the placed classes themselves does, travel and all.
 */
const ROOMS = 4;

function placedAtRandom(seed: number, longest: number): { placement: Placement; classes: number } {
  const g = new SeededRandom(seed);
  const classes = Array.from({ length: 60 }, () => {
    const time: TimeOption = { days: g.int(1, 7), start: 96 + 6 * g.int(0, 20), length: 6 * g.int(1, 4), weeks: 0, penalty: 0 };
    // One class in five needs no room (no travel to any other).
    return { times: [time], rooms: g.int(0, 4) === 0 ? [] : [{ room: g.int(0, ROOMS - 1), penalty: 0 }] };
  });
  const problem = handMadeProblem(classes, { name: 'travel', rooms: ROOMS });
  for (let a = 0; a < ROOMS; a++)
    for (let b = a + 1; b < ROOMS; b++) {
      const minutes = g.int(0, longest);
      problem.travel[a * ROOMS + b] = minutes;
      problem.travel[b * ROOMS + a] = minutes;
    }
  const placement = new Placement(problem, new TimeAlgebra(problem.weekPatterns));
  classes.forEach((c, i) => placement.put(i, 0, c.rooms.length > 0 ? 0 : -1));
  return { placement, classes: classes.length };
}

describe('whether two placed classes clash for a student', () => {
  it.each([0, 3, 12])('answers as the rule read from the classes, the travel between rooms at most %i slots', (longest) => {
    for (const seed of [1, 2, 3]) {
      const { placement, classes } = placedAtRandom(seed, longest);
      let clashing = 0;
      let apartByTravel = 0;
      for (let a = 0; a < classes; a++)
        for (let b = 0; b < classes; b++) {
          if (a === b) continue;
          const [x, y] = [placement.placedNow[a], placement.placedNow[b]];
          if (!x || !y) throw new Error('every class is placed');
          const rule = attendeesConflict(placement.problem, placement.algebra, x, y);
          expect(placement.studentsClash(a, b), `${seed}: ${a} and ${b}`).toBe(rule);
          if (rule) clashing++;
          const gap = Math.max(y.time.start - (x.time.start + x.time.length), x.time.start - (y.time.start + y.time.length));
          if (rule && gap >= 0 && (x.time.days & y.time.days) !== 0) apartByTravel++;
        }
      expect(clashing).toBeGreaterThan(0);
      // With travel, some classes clash only because there is no time to walk between them.
      if (longest > 0) expect(apartByTravel).toBeGreaterThan(0);
      else expect(apartByTravel).toBe(0);
    }
  });

  it('counts the classes of a list that clash with one, but the class itself and the one left out', () => {
    const { placement, classes } = placedAtRandom(4, 12);
    const all = Array.from({ length: classes }, (_, i) => i);
    for (let c = 0; c < classes; c++) {
      const without = (c + 7) % classes;
      const expected = all.filter((o) => o !== c && o !== without && placement.studentsClash(c, o)).length;
      expect(placement.clashCount(c, all, without)).toBe(expected);
    }
  });
});
