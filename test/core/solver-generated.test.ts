import { describe, expect, it } from 'vitest';
import { readItcProblem } from '../../core/solver/itc-reader';
import { solve } from '../../core/solver/solve';
import type { MoveChoice } from '../../core/solver/neighbourhoods';
import type { EmphasisRule } from '../../core/solver/emphasis';
import { DISTRIBUTION_TYPES, largeProblemXml, plantedProblem, softProblemXml, UNLIKE } from '../helpers/itc-generated';

/**
 * The solver on generated problems, of kinds a university's may be and the shared competition problems
 * are not (see test/helpers/itc-generated.ts).
 */
describe("the search's running total on generated problems with every distribution type", () => {
  // The search keeps its cost as it moves, part by part: every neighbourhood's moves must keep it
  // equal to the scorer's, worked out from scratch, else the search chases a total it does not answer.
  const settings: { moveChoice: MoveChoice; emphasis: EmphasisRule }[] = [
    { moveChoice: 'fixed', emphasis: 'fixed' },
    { moveChoice: 'adaptive', emphasis: 'fixed' },
    { moveChoice: 'adaptive', emphasis: 'remaining' },
  ];
  it.each([1, 2, 3, 4])('equals the scorer on generated problem %i, with the fixed mix, every neighbourhood and the stressed parts', (seed) => {
    const problem = readItcProblem(softProblemXml(seed));
    expect(new Set(problem.distributions.map((d) => d.type)).size).toBe(DISTRIBUTION_TYPES.length);
    for (const setting of settings) {
      const result = solve(problem, { timeBudgetMs: 60_000, seed, maxIterations: 20_000, ...setting });
      expect(result.score.valid, JSON.stringify({ setting, hard: result.score.hard.slice(0, 2) })).toBe(true);
      expect(result.runningTotal, JSON.stringify(setting)).toBeCloseTo(result.score.total, 6);
      // The timetable breaks some soft constraints, so the totals compared are not both zero.
      expect(result.score.total).toBeGreaterThan(0);
    }
  });
});

describe("the search's running total with many students", () => {
  // Students are moved between classes all the time (to price a move, then mostly put back), and the
  // counts of students each two classes share, which the student conflicts are read from, are brought
  // up to date only when read: the total the search keeps must still be the scorer's.
  it.each([1, 2])('equals the scorer on a generated university-shaped problem %i, students moved as the search goes', (seed) => {
    const problem = readItcProblem(largeProblemXml(seed, { courses: 30, students: 600, rooms: 40 }));
    const result = solve(problem, { timeBudgetMs: 60_000, seed, maxIterations: 30_000 });
    expect(result.score.valid, JSON.stringify(result.score.hard.slice(0, 2))).toBe(true);
    expect(result.score.student).toBeGreaterThan(0);
    expect(result.runningTotal).toBeCloseTo(result.score.total, 6);
  });
});

describe('the problems generated unlike the shared ones (solved beside them by the itc bench)', () => {
  // Each at a tenth of its size: the part the problem puts most of its total on is the most of a timetable's total.
  it.each([
    ['unlike-students', 'student'],
    ['unlike-day-patterns', 'distribution'],
  ] as const)('%s is valid and its total is mostly its %s part, the running total the scorer’s', (name, part) => {
    const { size, shape } = UNLIKE[name] as (typeof UNLIKE)[string];
    const tenth = { courses: size.courses / 10, students: size.students / 10, rooms: size.rooms / 5 };
    const problem = readItcProblem(largeProblemXml(1, tenth, shape));
    if (name === 'unlike-day-patterns') expect(problem.distributions.filter((d) => !d.required).length).toBeGreaterThan(problem.classes.length);
    const result = solve(problem, { timeBudgetMs: 60_000, seed: 1, maxIterations: 20_000 });
    expect(result.score.valid, JSON.stringify(result.score.hard.slice(0, 2))).toBe(true);
    const weighted = {
      time: result.score.time * problem.weights.time,
      room: result.score.room * problem.weights.room,
      distribution: result.score.distribution * problem.weights.distribution,
      student: result.score.student * problem.weights.student,
    };
    expect(weighted[part]).toBeGreaterThan(result.score.total / 2);
    expect(result.runningTotal).toBeCloseTo(result.score.total, 6);
  });
});

describe('the construction on tight problems with a planted valid timetable', () => {
  it('finds a valid timetable on each, starting again where a few classes displace each other round and round', () => {
    // 300 classes on 10 rooms, every candidate constraint the planted timetable holds required, seed 2
    // and 20,000 construction steps at most: without the restart, 2 of these 20 were still short of a
    // valid timetable (problems 16 and 18; and with 200,000 steps, problem 7 on 8 rooms).
    const missed: string[] = [];
    for (let p = 1; p <= 20; p++) {
      const result = solve(plantedProblem(p, { classes: 300, rooms: 10 }), { timeBudgetMs: 60_000, seed: 2, maxIterations: 2_000 });
      if (!result.score.valid) missed.push(`problem ${p}: ${result.score.hard[0]?.message ?? ''}`);
    }
    expect(missed).toEqual([]);
  }, 60_000);
});
