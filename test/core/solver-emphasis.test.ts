import { describe, expect, it } from 'vitest';
import { solve } from '../../core/solver';
import { PartEmphasis } from '../../core/solver/emphasis';
import type { Distribution, TimeOption, TimetableProblem } from '../../core/solver/model';
import { NEIGHBOURHOODS, NeighbourhoodSelector } from '../../core/solver/neighbourhoods';
import { scoreAssignment } from '../../core/solver/score';
import { Part, Search } from '../../core/solver/search';
import { handMadeProblem } from '../helpers/hand-made-problem';

/**
 * The search's emphasis on the parts of the soft cost: the moves are judged under it, the timetable
 * always by the problem's own weights, and the running totals of both follow every kind of move.
 */
const MON = 1;
const TUE = 2;
const at = (days: number, start: number, penalty: number): TimeOption => ({ days, start, length: 12, weeks: 0, penalty });

/** Twelve classes in three rooms, each with times and rooms of different penalties, pairs kept apart or together (soft). */
function crowdedProblem(): TimetableProblem {
  const classes = Array.from({ length: 12 }, (_, i) => ({
    times: [at(MON, 100, i % 3), at(MON, 120, (i + 1) % 4), at(TUE, 100, i % 2), at(TUE, 140, 3)],
    rooms: [0, 1, 2].map((room) => ({ room, penalty: (i + room) % 3 })),
  }));
  const distributions: Distribution[] = [
    { type: 'NotOverlap', params: [], required: false, penalty: 5, classes: [0, 1, 2, 3] },
    { type: 'SameDays', params: [], required: false, penalty: 4, classes: [4, 5, 6] },
    { type: 'SameRoom', params: [], required: false, penalty: 3, classes: [7, 8] },
    { type: 'MaxDays', params: [1], required: false, penalty: 2, classes: [9, 10, 11] },
  ];
  const problem = handMadeProblem(classes, { name: 'crowded', rooms: 3, distributions });
  return { ...problem, weights: { time: 2, room: 3, distribution: 7, student: 0 } };
}

const scorerTotal = (problem: TimetableProblem, search: Search): number => scoreAssignment(problem, search.snapshot(), search.algebra).total;

/** A search of the problem with every class placed, its totals counted afresh, under an emphasis that is not the problem's. */
function stressedSearch(problem: TimetableProblem, seed: number): Search {
  const search = new Search(problem, seed);
  search.sectioning.initial();
  while (!search.complete) search.constructionStep();
  search.recount();
  search.emphasize([0.5, 2, 3, 1]);
  return search;
}

describe("the search's emphasis on the parts of the cost", () => {
  it('keeps the timetable judged by the problem’s weights and the moves by the emphasis, through every kind of move', () => {
    const problem = crowdedProblem();
    const search = stressedSearch(problem, 3);
    search.lookAtDistributions();
    const selector = new NeighbourhoodSelector(NEIGHBOURHOODS);
    for (let k = 0; k < 3_000; k++) selector.step(search, k < 1_500 ? 50 : 1, selector.shares(search));
    const stressedCost = (): number => {
      const w = problem.weights;
      const e = search.emphasis;
      const p = search.parts;
      return (
        (p[Part.time] as number) * w.time * (e[Part.time] as number) +
        (p[Part.room] as number) * w.room * (e[Part.room] as number) +
        (p[Part.distribution] as number) * w.distribution * (e[Part.distribution] as number)
      );
    };
    const moved = { total: search.total, cost: search.cost, stressed: stressedCost() };
    expect(moved.total).toBe(scorerTotal(problem, search));
    expect(moved.cost).toBeCloseTo(moved.stressed, 9);
    // Worked out again from scratch: the same.
    search.recount();
    expect(search.total).toBe(moved.total);
    expect(search.cost).toBeCloseTo(moved.cost, 9);
    // The emphasis taken away: the search's cost is the total again.
    search.emphasize([1, 1, 1, 1]);
    expect(search.cost).toBe(search.total);
  });

  it('leaves the timetable and its running totals exactly as they were when a move of several classes is not taken', () => {
    const problem = crowdedProblem();
    const search = stressedSearch(problem, 11);
    let undone = 0;
    for (let k = 0; k < 2_000; k++) {
      const classIndex = search.randomPlacedClass();
      const value = search.values(classIndex, 1)[0];
      if (!value) continue;
      const before = { time: [...search.time], room: [...search.room], cost: search.cost, parts: [...search.parts] };
      // At no temperature only improvements are taken: most ejections are undone.
      if (search.moveThrough(classIndex, value.timeIndex, value.roomIndex, 1e-9) !== null) continue;
      undone++;
      expect([...search.time]).toEqual(before.time);
      expect([...search.room]).toEqual(before.room);
      expect(search.cost).toBe(before.cost);
      expect([...search.parts]).toEqual(before.parts);
    }
    expect(undone).toBeGreaterThan(100);
    // The totals put back are the timetable's own.
    const kept = { total: search.total, cost: search.cost };
    search.recount();
    expect(search.total).toBe(kept.total);
    expect(search.cost).toBeCloseTo(kept.cost, 9);
  });

  it('answers a best timetable whose total is the scorer’s under every rule', () => {
    const problem = crowdedProblem();
    for (const emphasis of ['fixed', 'remaining'] as const) {
      const result = solve(problem, { timeBudgetMs: 60_000, seed: 5, maxIterations: 60_000, emphasis });
      expect(result.score.valid).toBe(true);
      expect(result.runningTotal).toBe(result.score.total);
    }
  });
});

describe('PartEmphasis', () => {
  it('leaves every part at its weight when fixed', () => {
    const emphasis = new PartEmphasis('fixed');
    expect(emphasis.next([50, 30, 20, 0])).toBeNull();
    expect(emphasis.next([10, 30, 20, 0])).toBeNull();
  });

  it('stresses a part that stays against one that falls, at the same cost for the timetable, at most four times the least', () => {
    const emphasis = new PartEmphasis('remaining');
    expect(emphasis.next([400, 400, 200, 0])).toEqual([1, 1, 1, 1]);
    // Time fell to a quarter, room stayed, distribution fell to 1 % (its stress bounded).
    const next = emphasis.next([100, 400, 2, 0]) as number[];
    const [time, room, distribution] = next as [number, number, number];
    expect(room).toBeGreaterThan(time);
    expect(time).toBeGreaterThan(distribution);
    expect(room / distribution).toBeCloseTo(4, 9);
    expect(100 * time + 400 * room + 2 * distribution).toBeCloseTo(502, 9);
  });
});
