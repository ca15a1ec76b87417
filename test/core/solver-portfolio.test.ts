import { describe, expect, it } from 'vitest';
import { solve } from '../../core/solver';
import type { Assignment, TimeOption, TimetableProblem } from '../../core/solver/model';
import { solveInWorker, solveInWorkers, SEED_STEP, type Portfolio } from '../../core/solver/run';
import { scoreAssignment } from '../../core/solver/score';
import { SeededRandom } from '../../core/util/random';
import { handMadeProblem } from '../helpers/hand-made-problem';

/**
 * Two search threads that share their best timetables: at the end of each annealing round a thread
 * goes on from the best any thread has, and with a move budget the answer is still the seed's alone.
 */

/**
 * Two hundred classes, each with eighty times of random penalties and nothing between them:
 * more moves than three short rounds make to reach every class's cheapest (even with the moves aimed
 * at a class that pays for its time).
 */
function manyTimes(): TimetableProblem {
  const random = new SeededRandom(5);
  return handMadeProblem(
    Array.from({ length: 200 }, () => ({
      times: Array.from({ length: 80 }, (_, k): TimeOption => ({ days: 1, start: 96 + k, length: 12, weeks: 0, penalty: 1 + Math.floor(random.next() * 50) })),
    })),
    { name: 'many times' },
  );
}

/** Every class at its cheapest time: the best timetable. */
function cheapest(problem: TimetableProblem): Assignment {
  const time = Int32Array.from(problem.classes, (c) => c.times.reduce((best, t, k) => (t.penalty < (c.times[best]?.penalty ?? Infinity) ? k : best), 0));
  return { time, room: Int32Array.from(problem.classes, () => -1), students: [] };
}

/** Three rounds of 200 moves: each round ends after a block of moves, the last one at the budget's end. */
const THREE_ROUNDS = { timeBudgetMs: 120_000, maxIterations: 600 };

describe('a search handed a better timetable at the end of a round', () => {
  it('goes on from it, and answers it when it finds nothing better', () => {
    const problem = manyTimes();
    const best = cheapest(problem);
    const bestTotal = scoreAssignment(problem, best).total;
    const alone = solve(problem, { ...THREE_ROUNDS, seed: 2 });
    expect(alone.score.total).toBeGreaterThan(bestTotal);

    const handed: { round: number; total: number }[] = [];
    const helped = solve(problem, {
      ...THREE_ROUNDS,
      seed: 2,
      exchange: (round, mine, cost) => {
        handed.push({ round, total: cost });
        // What it hands over is its own best so far, at the scorer's total.
        expect(cost).toBeCloseTo(scoreAssignment(problem, mine).total, 6);
        return { assignment: best, cost: bestTotal };
      },
    });
    expect(handed.map((h) => h.round)).toEqual([0, 1, 2]);
    expect(helped.score.total).toBe(bestTotal);
    expect(Array.from(helped.assignment.time)).toEqual(Array.from(best.time));
    expect(helped.runningTotal).toBeCloseTo(bestTotal, 6);
  });

  it('keeps its own best when what it is handed is worse', () => {
    const problem = manyTimes();
    const worst = {
      ...cheapest(problem),
      time: Int32Array.from(problem.classes, (c) => c.times.findIndex((t) => t.penalty === Math.max(...c.times.map((x) => x.penalty)))),
    };
    const alone = solve(problem, { ...THREE_ROUNDS, seed: 2 });
    const handedWorse = solve(problem, { ...THREE_ROUNDS, seed: 2, exchange: () => ({ assignment: worst, cost: scoreAssignment(problem, worst).total }) });
    expect(handedWorse.score.total).toBe(alone.score.total);
  });
});

describe('two search threads', () => {
  it('on their own, answer the better of the two seeds they search', async () => {
    const problem = manyTimes();
    const alone = await Promise.all([3, 3 + SEED_STEP].map((seed) => solveInWorker(problem, { ...THREE_ROUNDS, seed }).result));
    expect(alone[0]?.score.total).not.toBe(alone[1]?.score.total);
    const both = await solveInWorkers(problem, { ...THREE_ROUNDS, seed: 3 }, 2, 'independent').result;
    expect(both.score.total).toBe(Math.min(...alone.map((r) => r.score.total)));
    expect(both.threads?.map((t) => t.total)).toEqual(alone.map((r) => r.score.total));
  });

  it('sharing their best, both end on the best either found, the same for a seed and a move budget', async () => {
    const problem = manyTimes();
    const runs = [await solveInWorkers(problem, { ...THREE_ROUNDS, seed: 3 }, 2).result, await solveInWorkers(problem, { ...THREE_ROUNDS, seed: 3 }, 2).result];
    const [sharing, again] = runs;
    // The last round ends with the budget, so after its exchange both threads hold the same best.
    expect(new Set(sharing?.threads?.map((t) => t.total)).size).toBe(1);
    expect(again?.score.total).toBe(sharing?.score.total);
    expect(Array.from(again?.assignment.time ?? [])).toEqual(Array.from(sharing?.assignment.time ?? []));
  });

  it('sharing their best, a pair does better than two threads alone, over five seeds', async () => {
    // Each round after the first starts from the better of the two. Over five seeds, since one seed's
    // 600 moves may go either way (seed 3 alone: 310 sharing against 292, the other four lower).
    const problem = manyTimes();
    const summed = async (portfolio: Portfolio): Promise<number> => {
      let sum = 0;
      for (const seed of [1, 2, 3, 4, 5]) sum += (await solveInWorkers(problem, { ...THREE_ROUNDS, seed }, 2, portfolio).result).score.total;
      return sum;
    };
    expect(await summed('sharing')).toBeLessThan(await summed('independent'));
  });

  it('sharing, the first thread constructs alone and the other starts once it has a valid timetable, constructing its own', async () => {
    const problem = manyTimes();
    const sharing = await solveInWorkers(problem, { ...THREE_ROUNDS, seed: 3 }, 2).result;
    const [first, second] = sharing.threads ?? [];
    expect(first?.startedAfterMs).toBe(0);
    // The second starts after the first's first valid timetable (measured from the first's own start).
    expect(second?.startedAfterMs).toBeGreaterThanOrEqual(first?.firstValidMs ?? Number.POSITIVE_INFINITY);
    expect(sharing.firstValidMs).toBe(first?.firstValidMs);
    expect(sharing.threads?.every((t) => t.valid)).toBe(true);
  });
});
