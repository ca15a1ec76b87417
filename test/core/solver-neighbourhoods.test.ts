import { describe, expect, it } from 'vitest';
import { solve } from '../../core/solver';
import type { Distribution, TimeOption, TimetableProblem } from '../../core/solver/model';
import { handMadeProblem } from '../helpers/hand-made-problem';
import {
  CHAIN,
  CLEAR_WAY,
  EJECTION,
  EXACT,
  FOCUS,
  GROUP,
  KEMPE,
  MEND_GROUP,
  NeighbourhoodSelector,
  ONE_CLASS,
  REPAIR,
  selectorFor,
  fixedShares,
  SWAP,
  type Neighbourhood,
} from '../../core/solver/neighbourhoods';
import { scoreAssignment } from '../../core/solver/score';
import { Search } from '../../core/solver/search';
import { SeededRandom } from '../../core/util/random';

/**
 * The annealing's neighbourhoods on hand-made problems, each where the improvement needs two or more
 * classes to move at once: a move of one class (or an ejection of one or two) finds nothing, the
 * neighbourhood finds the best timetable, and the search's running total stays the scorer's.
 */
const MON = 1;
const at = (start: number, penalty = 0): TimeOption => ({ days: MON, start, length: 12, weeks: 0, penalty });

function problemOf(
  classes: { times: TimeOption[]; rooms?: { room: number; penalty: number }[] }[],
  distributions: Distribution[],
  rooms = 0,
): TimetableProblem {
  return handMadeProblem(classes, { name: 'hand-made', rooms, distributions });
}

/** A search started from the given times and rooms. */
function searchFrom(problem: TimetableProblem, time: number[], room: number[], seed = 1): Search {
  const search = new Search(problem, seed);
  search.sectioning.initial();
  search.restore({ time: Int32Array.from(time), room: Int32Array.from(room), students: [] });
  search.recount();
  return search;
}

/** Many moves of a neighbourhood at a temperature where only improvements are taken; answers the search's cost. */
function movesOf(neighbourhood: Neighbourhood, search: Search, moves = 2_000): number {
  for (let k = 0; k < moves; k++) neighbourhood.tryMove(search, 1e-9);
  return search.cost;
}

/**
 * The neighbourhood at `position` of the fixed mix has a share there as far as what classes paying for
 * their own time or room could save makes the total (none when they could save nothing), and is in
 * the adaptive choice as `name`.
 */
function expectSharedByPayingClasses(position: number, name: string): void {
  expect(fixedShares({ total: 500, brokenSoftCost: 0, ownPenaltySaving: 0 })[position]).toBe(0);
  const all = fixedShares({ total: 500, brokenSoftCost: 0, ownPenaltySaving: 500 });
  expect(all[position]).toBeGreaterThan(0);
  expect(all[position]).toBeLessThanOrEqual(0.05);
  expect(all.reduce((a, b) => a + b, 0)).toBeCloseTo(1, 12);
  expect(
    selectorFor('adaptive')
      .report()
      .map((n) => n.name),
  ).toContain(name);
}

const totalOf = (problem: TimetableProblem, search: Search): number => scoreAssignment(problem, search.snapshot(), search.algebra).total;

describe('the swap neighbourhood', () => {
  // Two classes that should not overlap (soft, 100); each prefers the other's time (10 at its own).
  const times = (mine: number, theirs: number): TimeOption[] => [at(mine, 10), at(theirs, 0)];
  const apart: Distribution = { type: 'NotOverlap', params: [], required: false, penalty: 100, classes: [0, 1] };

  it("exchanges two classes' times where moving either one first costs more", () => {
    const problem = problemOf([{ times: times(100, 200) }, { times: [at(200, 10), at(100, 0)] }], [apart]);
    // c0 at 100, c1 at 200: 20. Either moving alone overlaps the other (100 more).
    for (const alone of [ONE_CLASS, EJECTION]) expect(movesOf(alone, searchFrom(problem, [0, 0], [-1, -1]))).toBe(20);
    const search = searchFrom(problem, [0, 0], [-1, -1]);
    expect(movesOf(SWAP, search)).toBe(0);
    expect([search.time[0], search.time[1]]).toEqual([1, 1]);
    expect(totalOf(problem, search)).toBe(0);
  });

  it("exchanges two classes' rooms at one time, where each room holds one class", () => {
    const rooms = (preferred: number) => [0, 1].map((room) => ({ room, penalty: room === preferred ? 0 : 10 }));
    const sameTime: Distribution = { type: 'SameTime', params: [], required: false, penalty: 1, classes: [0, 1] };
    const problem = problemOf(
      [
        { times: [at(100)], rooms: rooms(1) },
        { times: [at(100)], rooms: rooms(0) },
      ],
      [sameTime],
      2,
    );
    // c0 in room 0 and c1 in room 1: 20; a room holds one class at a time (hard), so neither can move alone.
    expect(movesOf(ONE_CLASS, searchFrom(problem, [0, 0], [0, 1]))).toBe(20);
    const search = searchFrom(problem, [0, 0], [0, 1]);
    expect(movesOf(SWAP, search)).toBe(0);
    expect(totalOf(problem, search)).toBe(0);
  });
});

describe('the group neighbourhood', () => {
  it('moves four classes a required SameStart holds together, where one class or an ejection of two cannot', () => {
    const together: Distribution = { type: 'SameStart', params: [], required: true, penalty: 0, classes: [0, 1, 2, 3] };
    // Each may start at 100 (5) or 200 (free); they start at 100: 20.
    const problem = problemOf(
      [0, 1, 2, 3].map(() => ({ times: [at(100, 5), at(200, 0)] })),
      [together],
    );
    for (const alone of [ONE_CLASS, EJECTION]) expect(movesOf(alone, searchFrom(problem, [0, 0, 0, 0], [-1, -1, -1, -1]))).toBe(20);
    const search = searchFrom(problem, [0, 0, 0, 0], [-1, -1, -1, -1]);
    expect(movesOf(GROUP, search)).toBe(0);
    expect([...search.time]).toEqual([1, 1, 1, 1]);
    const score = scoreAssignment(problem, search.snapshot(), search.algebra);
    expect(score.valid).toBe(true);
    expect(score.total).toBe(0);
  });

  it('makes a soft SameTime group whole where its lone member cannot join the rest and none of the rest can leave alone', () => {
    // c0–c2 meet at 100, c3 at 200 (it cannot meet at 100); all four may meet at 300. Apart: 10 a pair.
    const together: Distribution = { type: 'SameTime', params: [], required: false, penalty: 10, classes: [0, 1, 2, 3] };
    const problem = problemOf([...[0, 1, 2].map(() => ({ times: [at(100), at(300)] })), { times: [at(200), at(300)] }], [together]);
    // Three pairs apart: 30. c3 to 300 changes nothing; any of c0–c2 leaving the others breaks more pairs.
    for (const alone of [ONE_CLASS, EJECTION]) expect(movesOf(alone, searchFrom(problem, [0, 0, 0, 0], [-1, -1, -1, -1]))).toBe(30);
    const search = searchFrom(problem, [0, 0, 0, 0], [-1, -1, -1, -1]);
    expect(movesOf(GROUP, search)).toBe(0);
    expect([...search.time]).toEqual([1, 1, 1, 1]);
    expect(totalOf(problem, search)).toBe(0);
  });

  it('makes a soft SameTime group whole whose members each meet in weeks of their own', () => {
    // As above, but c0–c3 each meet in their own week of four, among 120 other starts apart from the
    // group: joining the others means the same start and days in the member's own weeks.
    const inWeek = (weeks: number, start: number): TimeOption => ({ days: MON, start, length: 12, weeks, penalty: 0 });
    const elsewhere = (weeks: number): TimeOption[] => Array.from({ length: 120 }, (_, k) => inWeek(weeks, 400 + 2 * k));
    const together: Distribution = { type: 'SameTime', params: [], required: false, penalty: 10, classes: [0, 1, 2, 3] };
    const base = problemOf(
      [0, 1, 2, 3].map((w) => ({ times: [inWeek(w, w < 3 ? 100 : 200), inWeek(w, 300), ...elsewhere(w)] })),
      [together],
    );
    const problem: TimetableProblem = { ...base, nrWeeks: 4, weekPatterns: { text: ['1000', '0100', '0010', '0001'], weeks: [[0], [1], [2], [3]] } };
    for (const alone of [ONE_CLASS, EJECTION]) expect(movesOf(alone, searchFrom(problem, [0, 0, 0, 0], [-1, -1, -1, -1]))).toBe(30);
    const search = searchFrom(problem, [0, 0, 0, 0], [-1, -1, -1, -1]);
    expect(movesOf(GROUP, search)).toBe(0);
    expect(new Set([0, 1, 2, 3].map((c) => problem.classes[c]?.times[search.time[c] ?? -1]?.start)).size).toBe(1);
    expect(totalOf(problem, search)).toBe(0);
  });

  it('is what the whole search needs to reach the best timetable of that problem, and it does', () => {
    const together: Distribution = { type: 'SameStart', params: [], required: true, penalty: 0, classes: [0, 1, 2, 3] };
    const problem = problemOf(
      [0, 1, 2, 3].map(() => ({ times: [at(100, 5), at(200, 0)] })),
      [together],
    );
    const result = solve(problem, { timeBudgetMs: 10_000, seed: 4, maxIterations: 5_000 });
    expect(result.score.valid).toBe(true);
    expect(result.score.total).toBe(0);
    expect(result.runningTotal).toBe(0);
  });
});

describe('the mend-group neighbourhood (a broken soft day-and-time group placed again together)', () => {
  const TUE = 2;
  const WED = 4;
  const on = (days: number, start: number, penalty = 0): TimeOption => ({ days, start, length: 12, weeks: 0, penalty });
  // Each class also has 120 times on a day of its own (Thursday, Friday, Saturday): a group move that
  // samples a few of a member's values rarely draws the one day all three share.
  const elsewhere = (first: number): TimeOption[] => Array.from({ length: 120 }, (_, k) => on(8 << (first % 10), first + 3 * k));
  const sameDays: Distribution = { type: 'SameDays', params: [], required: false, penalty: 10, classes: [0, 1, 2] };
  // c0 and c1 meet on Monday, c2 on Tuesday (it cannot meet on Monday); all three may meet on Wednesday,
  // each at its own start, at 1 each (so that no class goes there alone for nothing). Apart: 10 a pair, two pairs: 20.
  const problem = problemOf(
    [
      { times: [on(MON, 100), on(WED, 100, 1), ...elsewhere(400)] },
      { times: [on(MON, 200), on(WED, 200, 1), ...elsewhere(401)] },
      { times: [on(TUE, 300), on(WED, 300, 1), ...elsewhere(402)] },
    ],
    [sameDays],
  );
  const broken = (): Search => {
    const search = searchFrom(problem, [0, 0, 0], [-1, -1, -1]);
    search.lookAtDistributions();
    return search;
  };

  it('moves three classes to the one day they all share, where a move of one class, an ejection or a repair cannot', () => {
    for (const alone of [ONE_CLASS, EJECTION, REPAIR]) expect(movesOf(alone, broken())).toBe(20);
    const search = broken();
    expect(MEND_GROUP.tryMove(search, 1e-9)).toBe(-17);
    expect([...search.time]).toEqual([1, 1, 1]);
    expect(totalOf(problem, search)).toBe(3);
    expect(search.cost).toBe(3);
  });

  it('mends a SameTime group whose members each have a start grid of their own only where all of them fit', () => {
    // c0 (12 slots) and c1 (6 slots) overlap at 100; c2 cannot meet there: SameTime holds when one
    // lies within the other. All three fit within c0 at 300 (at 1 each, as above).
    const timeOf = (start: number, length: number, penalty = 0): TimeOption => ({ days: MON, start, length, weeks: 0, penalty });
    const sameTime: Distribution = { type: 'SameTime', params: [], required: false, penalty: 10, classes: [0, 1, 2] };
    const grids = problemOf(
      [
        { times: [timeOf(100, 12), timeOf(300, 12, 1), ...elsewhere(500)] },
        { times: [timeOf(102, 6), timeOf(303, 6, 1), ...elsewhere(501)] },
        { times: [timeOf(200, 6), timeOf(303, 8, 1), ...elsewhere(502)] },
      ],
      [sameTime],
    );
    const search = searchFrom(grids, [0, 0, 0], [-1, -1, -1]);
    search.lookAtDistributions();
    expect(search.cost).toBe(20);
    for (const alone of [ONE_CLASS, EJECTION, REPAIR]) {
      const other = searchFrom(grids, [0, 0, 0], [-1, -1, -1]);
      other.lookAtDistributions();
      expect(movesOf(alone, other)).toBe(20);
    }
    expect(MEND_GROUP.tryMove(search, 1e-9)).toBe(-17);
    expect([...search.time]).toEqual([1, 1, 1]);
    expect(totalOf(grids, search)).toBe(3);
  });

  it('makes no move where the group holds, nor one that costs more than the group does', () => {
    const whole = searchFrom(problem, [1, 1, 1], [-1, -1, -1]);
    whole.lookAtDistributions();
    expect(MEND_GROUP.tryMove(whole, 1e9)).toBeNull();
    // Wednesday costs each class 50: apart (20) is cheaper; at a temperature that takes only improvements, no move.
    const dear = problemOf([0, 1].map((c) => ({ times: [on(MON, 100 + c), on(WED, 200 + c, 50)] })).concat([{ times: [on(TUE, 300), on(WED, 300, 50)] }]), [
      sameDays,
    ]);
    const search = searchFrom(dear, [0, 0, 0], [-1, -1, -1]);
    search.lookAtDistributions();
    expect(MEND_GROUP.tryMove(search, 1e-9)).toBeNull();
    expect([...search.time]).toEqual([0, 0, 0]);
    expect(search.cost).toBe(20);
  });

  it('is in the adaptive choice, and the whole search with it keeps its running total the scorer’s', () => {
    expect(
      selectorFor('adaptive')
        .report()
        .map((n) => n.name),
    ).toContain('mend group');
    const result = solve(problem, { timeBudgetMs: 10_000, seed: 3, maxIterations: 20_000, moveChoice: 'adaptive' });
    expect(result.score.valid).toBe(true);
    expect(result.score.total).toBe(3);
    expect(result.runningTotal).toBe(result.score.total);
  });
});

describe('the ejection neighbourhood', () => {
  it('gives the displaced class the place the mover left first, among its nearly two thousand values', () => {
    // One room. c0 meets at 100 (10) and prefers 200 (free), where c1 is; c1 is free at 100 too, and
    // costs 50 at each of its other 1,918 times: a sample of 60 of them would seldom hold 100.
    const others: TimeOption[] = [];
    for (let day = 0; day < 7; day++)
      for (let start = 0; start < 276; start++) if (start !== 100 && start !== 200) others.push({ ...at(start, 50), days: 1 << day });
    const problem = problemOf([{ times: [at(100, 10), at(200)] }, { times: [at(200), at(100), ...others] }], [], 1);
    for (const c of problem.classes) c.rooms = [{ room: 0, penalty: 0 }];
    const search = searchFrom(problem, [0, 0], [0, 0]);
    expect(search.cost).toBe(10);
    // An ejection of c0 to 200 is drawn about one move in four, and each one succeeds.
    expect(movesOf(EJECTION, search, 40)).toBe(0);
    expect([search.time[0], search.time[1]]).toEqual([1, 1]);
    expect(totalOf(problem, search)).toBe(0);
  });
});

describe('the clear-the-way neighbourhood (a class paying for its time takes the one it prefers, the classes in its way placed again)', () => {
  // One room. c0 meets Monday to Friday at 100, where it pays 80, and would pay nothing at 200, where
  // c1…c5 each meet on a day of their own; each of them costs 5 anywhere else (on its day at 300).
  const WEEKDAYS = 0b11111;
  const problem = (elsewhere = 5): TimetableProblem => {
    const made = problemOf(
      [
        {
          times: [
            { ...at(100, 80), days: WEEKDAYS },
            { ...at(200), days: WEEKDAYS },
          ],
        },
        ...Array.from({ length: 5 }, (_, day) => ({
          times: [
            { ...at(200), days: 1 << day },
            { ...at(300, elsewhere), days: 1 << day },
          ],
        })),
      ],
      [],
      1,
    );
    for (const c of made.classes) c.rooms = [{ room: 0, penalty: 0 }];
    return made;
  };
  const started = (made: TimetableProblem): Search => searchFrom(made, [0, 0, 0, 0, 0, 0], [0, 0, 0, 0, 0, 0]);

  it('moves the five classes out of the way in one move, where no move of one class, ejection or exact re-placement gains', () => {
    for (const other of [ONE_CLASS, EJECTION, EXACT]) expect(movesOf(other, started(problem()), 500), other.name).toBe(80);
    const search = started(problem());
    CLEAR_WAY.observe?.(search);
    expect(CLEAR_WAY.tryMove(search, 1e-9)).toBe(25 - 80);
    expect(Array.from(search.time)).toEqual([1, 1, 1, 1, 1, 1]);
    expect(totalOf(problem(), search)).toBe(25);
  });

  it('makes no move where clearing the way costs more than the class saves, nor where no class pays more than it must', () => {
    const dearer = started(problem(20));
    CLEAR_WAY.observe?.(dearer);
    expect(movesOf(CLEAR_WAY, dearer, 200)).toBe(80);
    // Each class at a time it pays nothing for (the five free elsewhere too): no class to move.
    const settled = searchFrom(problem(0), [1, 1, 1, 1, 1, 1], [0, 0, 0, 0, 0, 0]);
    CLEAR_WAY.observe?.(settled);
    expect(CLEAR_WAY.tryMove(settled, 1e9)).toBeNull();
  });

  it('is in the fixed mix as far as such savings make the total, and the whole search with it reaches the best timetable', () => {
    expectSharedByPayingClasses(4, 'clear the way');
    const result = solve(problem(), { timeBudgetMs: 10_000, seed: 1, maxIterations: 20_000 });
    expect(result.score.total).toBe(25);
    expect(result.runningTotal).toBe(25);
  });
});

describe('the ejection-chain neighbourhood (each class in the way takes the place of the next, the last a free one)', () => {
  // One room. c0 meets at 100, where it pays 80, and would pay nothing at 200, where c1 is; c1 may
  // meet only at 200 and at 300 (5), where c2 is; c2 may meet at 300 and at 400 (5), which is free.
  const problem = (last = 5): TimetableProblem => {
    const made = problemOf([{ times: [at(100, 80), at(200)] }, { times: [at(200), at(300, 5)] }, { times: [at(300), at(400, last)] }], [], 1);
    for (const c of made.classes) c.rooms = [{ room: 0, penalty: 0 }];
    return made;
  };
  /** Every class at its first time in room 0, the paying classes looked at. */
  const started = (made: TimetableProblem): Search => {
    const firsts = made.classes.map(() => 0);
    const search = searchFrom(made, firsts, firsts);
    CLEAR_WAY.observe?.(search);
    return search;
  };

  it('moves the three classes in one move, where no move of one class, ejection or clearing of the way gains', () => {
    for (const other of [ONE_CLASS, EJECTION, CLEAR_WAY]) expect(movesOf(other, started(problem()), 500), other.name).toBe(80);
    const search = started(problem());
    expect(CHAIN.tryMove(search, 1e-9)).toBe(5 + 5 - 80);
    expect(Array.from(search.time)).toEqual([1, 1, 1]);
    expect(totalOf(problem(), search)).toBe(10);
    expect(search.cost).toBe(10);
  });

  it('makes no move where the chain costs more than the class saves, and leaves the timetable as it was', () => {
    const search = started(problem(100));
    expect(movesOf(CHAIN, search, 200)).toBe(80);
    expect(Array.from(search.time)).toEqual([0, 0, 0]);
    expect(totalOf(problem(100), search)).toBe(80);
  });

  it('goes through a required distribution as through a room: three classes without rooms that must not overlap', () => {
    const apart: Distribution = { type: 'NotOverlap', params: [], required: true, penalty: 0, classes: [0, 1, 2] };
    const roomless = problemOf([{ times: [at(100, 80), at(200)] }, { times: [at(200), at(300, 5)] }, { times: [at(300), at(400, 5)] }], [apart]);
    const search = searchFrom(roomless, [0, 0, 0], [-1, -1, -1]);
    CLEAR_WAY.observe?.(search);
    expect(movesOf(EJECTION, searchFrom(roomless, [0, 0, 0], [-1, -1, -1]), 500)).toBe(80);
    expect(CHAIN.tryMove(search, 1e-9)).toBe(5 + 5 - 80);
    expect(Array.from(search.time)).toEqual([1, 1, 1]);
    expect(scoreAssignment(roomless, search.snapshot(), search.algebra)).toMatchObject({ valid: true, total: 10 });
  });

  it('displaces at most five classes: a line of six is moved in one move, a line of seven is left as it was', () => {
    // c0 pays 80 where it is; each class holds the next one's cheaper time; the last has a free one (5).
    const line = (n: number): TimetableProblem => {
      const made = problemOf(
        Array.from({ length: n }, (_, k) => ({ times: k === 0 ? [at(20, 80), at(40)] : [at(20 * (k + 1)), at(20 * (k + 2), 5)] })),
        [],
        1,
      );
      for (const c of made.classes) c.rooms = [{ room: 0, penalty: 0 }];
      return made;
    };
    const six = started(line(6));
    expect(CHAIN.tryMove(six, 1e-9)).toBe(5 * 5 - 80);
    expect(Array.from(six.time)).toEqual([1, 1, 1, 1, 1, 1]);
    expect(totalOf(line(6), six)).toBe(25);
    const seven = started(line(7));
    expect(movesOf(CHAIN, seven, 200)).toBe(80);
    expect(Array.from(seven.time)).toEqual([0, 0, 0, 0, 0, 0, 0]);
    expect(totalOf(line(7), seven)).toBe(80);
  });

  it('is in the fixed mix as far as what paying classes could save makes the total, and the whole search with it reaches the best timetable', () => {
    expectSharedByPayingClasses(5, 'ejection chain');
    const result = solve(problem(), { timeBudgetMs: 10_000, seed: 1, maxIterations: 20_000 });
    expect(result.score.total).toBe(10);
    expect(result.runningTotal).toBe(10);
  });
});

describe('the repair neighbourhood (directed by a broken distribution)', () => {
  // c0 meets at 100 alone; c1 may meet at 100 or at any of 120 times that overlap it, and at one that
  // does not (200, at 3). They should not overlap (soft, 100).
  const apart: Distribution = { type: 'NotOverlap', params: [], required: false, penalty: 100, classes: [0, 1] };
  const overlapping = Array.from({ length: 120 }, (_, k) => at(95 + (k % 10), k % 7));
  const twoClasses = (): TimetableProblem => problemOf([{ times: [at(100)] }, { times: [at(100), ...overlapping, at(200, 3)] }], [apart]);

  it('mends the distribution in one move: of the class’s 122 times, the one that keeps the two apart', () => {
    const problem = twoClasses();
    const search = searchFrom(problem, [0, 0], [-1, -1]);
    search.lookAtDistributions();
    expect(search.cost).toBe(100);
    expect(search.brokenSoftCost).toBe(100);
    expect(REPAIR.tryMove(search, 1e-9)).toBe(-97);
    expect(search.time[1]).toBe(121);
    expect(totalOf(problem, search)).toBe(3);
    expect(search.cost).toBe(3);
  });

  it('goes through a clash when the value that mends it is taken: the class in the way moves to its free time', () => {
    // c0 in room 1; c1 and c2 share room 0, where c2 meets at 200 (and may at 300, at 1).
    const separate = problemOf([{ times: [at(100)] }, { times: [at(100), ...overlapping, at(200, 3)] }, { times: [at(200), at(300, 1)] }], [apart], 2);
    separate.classes.forEach((c, i) => (c.rooms = [{ room: i === 0 ? 1 : 0, penalty: 0 }]));
    const mending = searchFrom(separate, [0, 0, 0], [0, 0, 0]);
    mending.lookAtDistributions();
    expect(mending.cost).toBe(100);
    expect(REPAIR.tryMove(mending, 1e-9)).toBe(-96);
    expect([mending.time[1], mending.time[2]]).toEqual([121, 1]);
    expect(totalOf(separate, mending)).toBe(4);
  });

  it('makes no move where no soft distribution is broken, nor a worse one where it cannot mend one', () => {
    const problem = twoClasses();
    const mended = searchFrom(problem, [0, 121], [-1, -1]);
    mended.lookAtDistributions();
    expect(mended.brokenSoftCost).toBe(0);
    expect(REPAIR.tryMove(mended, 1e9)).toBeNull();
    // The time that mends it costs more than the distribution: not taken, however hot.
    const costly = problemOf([{ times: [at(100)] }, { times: [at(100), at(200, 500)] }], [apart]);
    const search = searchFrom(costly, [0, 0], [-1, -1]);
    search.lookAtDistributions();
    expect(REPAIR.tryMove(search, 1e9)).toBeNull();
    expect(search.cost).toBe(100);
  });

  it('is one of the neighbourhoods the adaptive choice picks from, and beside the fixed mix as far as broken distributions cost', () => {
    expect(
      selectorFor('adaptive')
        .report()
        .map((n) => n.name),
    ).toContain('repair');
    expect(
      selectorFor('fixed')
        .report()
        .map((n) => n.name),
    ).toEqual(['one class', 'ejection', 'group', 'repair', 'clear the way', 'ejection chain']);
    // No broken soft distribution: the fixed mix alone, as it was.
    expect(fixedShares({ total: 500, brokenSoftCost: 0, ownPenaltySaving: 0 })).toEqual([0.88, 0.1, 0.02, 0, 0, 0]);
    // A total that is all broken distributions: the most repair, the mix's own proportions kept.
    const all = fixedShares({ total: 500, brokenSoftCost: 500, ownPenaltySaving: 0 });
    const half = fixedShares({ total: 500, brokenSoftCost: 250, ownPenaltySaving: 0 });
    expect(all[3]).toBeGreaterThan(half[3] as number);
    expect(half[3]).toBeGreaterThan(0);
    expect(all[3]).toBeLessThanOrEqual(0.05);
    for (const shares of [all, half]) {
      expect(shares.reduce((a, b) => a + b, 0)).toBeCloseTo(1, 12);
      expect((shares[0] as number) / (shares[1] as number)).toBeCloseTo(8.8, 12);
    }
    expect(fixedShares({ total: 0, brokenSoftCost: 0, ownPenaltySaving: 0 })[3]).toBe(0);
  });

  it('makes repair moves within the fixed mix while distributions are broken, the running total still the scorer’s', () => {
    // Ten classes, each pair of neighbours soft-apart (NotOverlap, 100) and all started at one time:
    // the fixed mix (its repair moves among them) at a temperature that takes only improvements.
    const n = 10;
    const apartPairs: Distribution[] = Array.from({ length: n - 1 }, (_, k) => ({
      type: 'NotOverlap',
      params: [],
      required: false,
      penalty: 100,
      classes: [k, k + 1],
    }));
    const problem = problemOf(
      Array.from({ length: n }, () => ({ times: [at(100), at(200)] })),
      apartPairs,
    );
    const search = searchFrom(
      problem,
      Array.from({ length: n }, () => 0),
      Array.from({ length: n }, () => -1),
    );
    const selector = selectorFor('fixed');
    selector.observe(search);
    for (let k = 0; k < 3_000; k++) {
      selector.step(search, 1e-9, selector.shares(search));
      if (k % 200 === 0) selector.observe(search);
    }
    expect(search.total).toBe(0);
    expect(totalOf(problem, search)).toBe(0);
    expect(selector.report().find((r) => r.name === 'repair')?.attempts).toBeGreaterThan(0);
  });
});

describe('the focused neighbourhood (a class drawn by what it costs; in the adaptive choice)', () => {
  // 300 classes free at any of their ten times; one of them (c7) sits at a time it pays 50 for.
  const free = Array.from({ length: 10 }, (_, k) => at(100 + 20 * k));
  const problem = (): TimetableProblem =>
    problemOf(
      Array.from({ length: 300 }, (_, i) => ({ times: i === 7 ? [at(80, 50), ...free] : free })),
      [],
    );

  it('moves the one class that costs something, first time, among 300 that cost nothing', () => {
    const search = searchFrom(
      problem(),
      Array.from({ length: 300 }, () => 0),
      Array.from({ length: 300 }, () => -1),
    );
    expect(search.cost).toBe(50);
    FOCUS.observe?.(search);
    expect(FOCUS.tryMove(search, 1e-9)).toBe(-50);
    expect(search.time[7]).not.toBe(0);
    expect(Array.from(search.time).filter((t, c) => c !== 7 && t !== 0)).toEqual([]);
    expect(totalOf(problem(), search)).toBe(0);
  });

  it('makes no move where nothing costs, and keeps the running total the scorer’s at any temperature', () => {
    const settled = searchFrom(
      problem(),
      Array.from({ length: 300 }, (_, c) => (c === 7 ? 1 : 0)),
      Array.from({ length: 300 }, () => -1),
    );
    FOCUS.observe?.(settled);
    expect(FOCUS.tryMove(settled, 1e9)).toBeNull();
    // Hot: worse moves taken too; the costs drawn from are looked at again now and then, as the annealing does.
    const costly = problemOf(
      Array.from({ length: 40 }, (_, i) => ({ times: Array.from({ length: 6 }, (_, k) => at(100 + 20 * k, (i + k) % 4)) })),
      [{ type: 'NotOverlap', params: [], required: false, penalty: 7, classes: [0, 1, 2, 3] }],
    );
    const search = searchFrom(
      costly,
      Array.from({ length: 40 }, () => 0),
      Array.from({ length: 40 }, () => -1),
    );
    let moved = 0;
    for (let k = 0; k < 2_000; k++) {
      if (k % 100 === 0) FOCUS.observe?.(search);
      if (FOCUS.tryMove(search, 5) !== null) moved++;
    }
    expect(moved).toBeGreaterThan(0);
    expect(search.cost).toBeCloseTo(totalOf(costly, search), 9);
    expect(
      selectorFor('adaptive')
        .report()
        .map((n) => n.name),
    ).toContain('costly class');
  });
});

describe('the Kempe chain neighbourhood', () => {
  it('exchanges the times of a chain of four classes that must not overlap, where no smaller move is free', () => {
    // c0–c1–c2–c3, each pair of neighbours required apart; two times, 100 and 200. They alternate,
    // each at the time it likes less (10): any one class, two classes swapped, or one ejected
    // clashes with the next. All four exchanging sides costs nothing.
    const path: Distribution[] = [0, 1, 2].map((k) => ({ type: 'NotOverlap', params: [], required: true, penalty: 0, classes: [k, k + 1] }));
    const likes = (start: number) => ({ times: [at(100, start === 100 ? 0 : 10), at(200, start === 200 ? 0 : 10)] });
    const problem = problemOf([likes(200), likes(100), likes(200), likes(100)], path);
    const start = [0, 1, 0, 1];
    for (const smaller of [ONE_CLASS, EJECTION, SWAP, GROUP]) expect(movesOf(smaller, searchFrom(problem, start, [-1, -1, -1, -1]))).toBe(40);
    const search = searchFrom(problem, start, [-1, -1, -1, -1]);
    expect(movesOf(KEMPE, search, 20)).toBe(0);
    expect([...search.time]).toEqual([1, 0, 1, 0]);
    expect(totalOf(problem, search)).toBe(0);
  });

  it('is not made where a class of the chain has no option at the other time', () => {
    const apart: Distribution = { type: 'NotOverlap', params: [], required: true, penalty: 0, classes: [0, 1] };
    // c1 meets only at 200 (as it does): c0 cannot take 200 whatever the chain.
    const problem = problemOf([{ times: [at(100, 10), at(200)] }, { times: [at(200)] }], [apart]);
    const search = searchFrom(problem, [0, 0], [-1, -1]);
    expect(movesOf(KEMPE, search, 200)).toBe(10);
    expect([...search.time]).toEqual([0, 0]);
  });
});

describe('the exact re-placement neighbourhood', () => {
  it("rotates three classes through each other's times in a full room, where no move of one or two classes is better", () => {
    // One room, three times: each class is at its own time (10), wants the next one's (free), and
    // costs 30 at the third. 30 in all; every move of one or two classes costs more.
    const wants = (mine: number, next: number): TimeOption[] => [100, 200, 300].map((start) => at(start, start === mine ? 10 : start === next ? 0 : 30));
    const room = [{ room: 0, penalty: 0 }];
    const problem = problemOf(
      [
        { times: wants(100, 200), rooms: room },
        { times: wants(200, 300), rooms: room },
        { times: wants(300, 100), rooms: room },
      ],
      [],
      1,
    );
    for (const smaller of [ONE_CLASS, EJECTION, SWAP, KEMPE]) expect(movesOf(smaller, searchFrom(problem, [0, 1, 2], [0, 0, 0]))).toBe(30);
    const search = searchFrom(problem, [0, 1, 2], [0, 0, 0]);
    expect(movesOf(EXACT, search, 200)).toBe(0);
    expect([...search.time]).toEqual([1, 2, 0]);
    const score = scoreAssignment(problem, search.snapshot(), search.algebra);
    expect(score.valid).toBe(true);
    expect(score.total).toBe(0);
  });
});

/**
 * A hand-made problem with students: classes grouped into subparts (`subpartOf`, one course of one
 * configuration each), each student taking the courses listed, each class `limit` seats.
 */
function withStudents(base: TimetableProblem, subpartOf: number[], students: number[][], limit = -1): TimetableProblem {
  const subparts = [...new Set(subpartOf)];
  return {
    ...base,
    weights: { ...base.weights, student: 1 },
    classes: base.classes.map((c, i) => ({ ...c, subpart: subpartOf[i] ?? i, limit })),
    subparts: subparts.map((sp) => ({ id: String(sp), config: sp, classes: subpartOf.flatMap((x, i) => (x === sp ? [i] : [])) })),
    configs: subparts.map((sp) => ({ id: String(sp), course: sp, subparts: [sp] })),
    courses: subparts.map((sp) => ({ id: String(sp), configs: [sp] })),
    students: students.map((courses, i) => ({ id: `s${i}`, courses })),
  };
}

describe('re-sectioning the students of a moved class', () => {
  it('moves a student a time move has made clash into the sibling class that does not', () => {
    // Course 0: classes c0 (at 100) and c1 (at 200); course 1: class c2. One student takes both.
    const problem = withStudents(problemOf([{ times: [at(100)] }, { times: [at(200)] }, { times: [at(100), at(200), at(300)] }], []), [0, 0, 1], [[0, 1]]);
    const search = searchFrom(problem, [0, 0, 2], [-1, -1, -1]);
    const section = (search.sectioning.enrollments()[0] ?? []).find((c) => c < 2) as number;
    // c2 moves onto the student's section of course 0.
    search.assign(2, section, -1);
    search.recount();
    expect(search.cost).toBe(1);
    const clashing = search.sectioning.clashingIn([2]);
    expect(clashing).toEqual([0]);
    expect(search.sectioning.improveStudents(clashing)).toBe(-1);
    expect(search.sectioning.enrollments()[0]).toContain(1 - section);
    search.recount();
    expect(search.cost).toBe(0);
    expect(search.sectioning.clashingIn([2])).toEqual([]);
  });

  it('prices a time move with the students it makes clash re-sectioned, where with them where they are it is worse', () => {
    // Course 0: c0 at 100 and c1 at 200; course 1: c2, at 100 (10) or 200 (free). The student sits in c1.
    // c2 to 200 saves 10 but clashes with c1 (a student conflict, 100): worse, unless the student goes to c0.
    const base = withStudents(problemOf([{ times: [at(100)] }, { times: [at(200)] }, { times: [at(100, 10), at(200)] }], []), [0, 0, 1], [[0, 1]]);
    const problem = { ...base, weights: { ...base.weights, student: 100 } };
    const search = searchFrom(problem, [0, 0, 0], [-1, -1, -1]);
    search.sectioning.adopt([[1, 2]]);
    search.recount();
    expect(search.cost).toBe(10);
    expect(movesOf(ONE_CLASS, search)).toBe(0);
    expect(search.time[2]).toBe(1);
    expect(search.sectioning.enrollments()[0]).toEqual([0, 2]);
    expect(totalOf(problem, search)).toBe(0);
  });

  it('prices a move of two classes with the students it makes clash re-sectioned, as it does a one-class move', () => {
    // c2 and c3 share one room; each is cheaper at the other's time (10 each at its own), so only a
    // swap saves 20. The student takes c3 and course 0's c0 (100, where c3 would go): a student
    // conflict (100) unless they move to c1 (200).
    const sameRoom: Distribution = { type: 'SameRoom', params: [], required: false, penalty: 0, classes: [2, 3] };
    const room = [{ room: 0, penalty: 0 }];
    const base = withStudents(
      problemOf(
        [{ times: [at(100)] }, { times: [at(200)] }, { times: [at(100, 10), at(300)], rooms: room }, { times: [at(300, 10), at(100)], rooms: room }],
        [sameRoom],
        1,
      ),
      [0, 0, 1, 2],
      [[0, 2]],
    );
    const problem = { ...base, weights: { ...base.weights, student: 100 } };
    const search = searchFrom(problem, [0, 0, 0, 0], [-1, -1, 0, 0]);
    search.sectioning.adopt([[0, 3]]);
    search.recount();
    expect(search.cost).toBe(20);
    expect(movesOf(ONE_CLASS, search)).toBe(20);
    expect(movesOf(SWAP, search)).toBe(0);
    expect([search.time[2], search.time[3]]).toEqual([1, 1]);
    expect(search.sectioning.enrollments()[0]).toEqual([1, 3]);
    expect(totalOf(problem, search)).toBe(0);
  });

  it('trades along a chain: into a full class whose student moves on to a third with room, where neither a move nor a swap helps', () => {
    // Course 0 has three classes of one seat: a0 at 100, a1 at 200, a2 at 400. Student 0 also takes b (100)
    // and d (400); student 1 also takes c (100). Student 0 in a0 clashes with b; a1 is free for both but
    // student 1 holds it; a2 clashes for student 0; a0 would clash for student 1.
    const problem = withStudents(
      problemOf(
        [100, 200, 400, 100, 100, 400].map((start) => ({ times: [at(start)] })),
        [],
      ),
      [0, 0, 0, 1, 2, 3],
      [
        [0, 1, 3],
        [0, 2],
      ],
      1,
    );
    const search = searchFrom(problem, [0, 0, 0, 0, 0, 0], [-1, -1, -1, -1, -1, -1]);
    search.sectioning.adopt([
      [0, 3, 5],
      [1, 4],
    ]);
    search.recount();
    expect(search.cost).toBe(1);
    expect(search.sectioning.improve()).toBe(0);
    expect(search.sectioning.trade()).toBe(-1);
    expect(search.sectioning.enrollments().map((classes) => [...classes].sort((a, b) => a - b))).toEqual([
      [1, 3, 5],
      [2, 4],
    ]);
    search.recount();
    expect(search.cost).toBe(0);
    expect(scoreAssignment(problem, search.snapshot(), search.algebra).valid).toBe(true);
  });
  it('exchanges whole courses between two students: a lecture and its lab are full, and the student in them fits where the first one was', () => {
    // Course 0: lecture a0 (100) with its lab b0 (300), lecture a1 (200) with its lab b1 (400), one seat each.
    // Student 0 takes a0 + b0 and x (100): a clash; a1 + b1 would clash with nothing, but student 1 holds
    // them, and would fit in a0 + b0 (their other class y is at 500). A lecture is not left while its lab
    // is taken, and the labs have different lectures, so no trade of one class mends it.
    const base = problemOf(
      [100, 200, 300, 400, 100, 500].map((start) => ({ times: [at(start)] })),
      [],
    );
    const parent = [-1, -1, 0, 1, -1, -1];
    const subpartOf = [0, 0, 1, 1, 2, 3];
    const problem: TimetableProblem = {
      ...base,
      weights: { ...base.weights, student: 1 },
      classes: base.classes.map((c, i) => ({ ...c, subpart: subpartOf[i] as number, parent: parent[i] as number, limit: i < 4 ? 1 : -1 })),
      subparts: [0, 1, 2, 3].map((sp) => ({ id: String(sp), config: sp < 2 ? 0 : sp - 1, classes: subpartOf.flatMap((x, i) => (x === sp ? [i] : [])) })),
      configs: [
        { id: '0', course: 0, subparts: [0, 1] },
        { id: '1', course: 1, subparts: [2] },
        { id: '2', course: 2, subparts: [3] },
      ],
      courses: [0, 1, 2].map((k) => ({ id: String(k), configs: [k] })),
      students: [
        { id: 's0', courses: [0, 1] },
        { id: 's1', courses: [0, 2] },
      ],
    };
    const search = searchFrom(problem, [0, 0, 0, 0, 0, 0], [-1, -1, -1, -1, -1, -1]);
    search.sectioning.adopt([
      [0, 2, 4],
      [1, 3, 5],
    ]);
    search.recount();
    expect(search.cost).toBe(1);
    expect(search.sectioning.improve()).toBe(0);
    expect(search.sectioning.trade()).toBe(0);
    expect(search.sectioning.exchangeCourses()).toBe(-1);
    expect(search.sectioning.enrollments().map((classes) => [...classes].sort((a, b) => a - b))).toEqual([
      [1, 3, 4],
      [0, 2, 5],
    ]);
    search.recount();
    expect(search.cost).toBe(0);
    expect(scoreAssignment(problem, search.snapshot(), search.algebra).valid).toBe(true);
  });
});

/**
 * Course 0 in two configurations of one class each, c0 (at 200, `seats` seats) and c1 (at 300, one
 * seat); course 1 is c2, at 100 (10) or 200 (free). `students` take course 0 (and course 1 when
 * listed so), sitting in the classes given.
 */
function twoConfigurations(seats: number, students: { courses: number[]; sits: number[] }[]): { problem: TimetableProblem; search: Search } {
  const base = problemOf([{ times: [at(200)] }, { times: [at(300)] }, { times: [at(100, 10), at(200)] }], []);
  const problem: TimetableProblem = {
    ...base,
    weights: { ...base.weights, student: 100 },
    classes: base.classes.map((c, i) => ({ ...c, subpart: i, limit: [seats, 1, -1][i] as number })),
    subparts: [0, 1, 2].map((sp) => ({ id: String(sp), config: sp, classes: [sp] })),
    configs: [
      { id: '0', course: 0, subparts: [0] },
      { id: '1', course: 0, subparts: [1] },
      { id: '2', course: 1, subparts: [2] },
    ],
    courses: [
      { id: '0', configs: [0, 1] },
      { id: '1', configs: [2] },
    ],
    students: students.map((student, i) => ({ id: `s${i}`, courses: student.courses })),
  };
  const search = searchFrom(problem, [0, 0, 0], [-1, -1, -1]);
  search.sectioning.adopt(students.map((student) => student.sits));
  search.recount();
  return { problem, search };
}

describe('a move priced with whole-course exchanges', () => {
  it('moves a class where the student it makes clash can only go to a full configuration, whose student fits where they were', () => {
    // s0 takes both courses and sits in c0; c2 to 200 saves 10 but clashes with c0 (100). c1 would
    // not clash, but s1 (course 0 only) holds its one seat, and would fit in c0. Re-sectioning s0
    // alone, or a trade within one subpart, finds nothing; the two exchanging courses does.
    const { problem, search } = twoConfigurations(1, [
      { courses: [0, 1], sits: [0, 2] },
      { courses: [0], sits: [1] },
    ]);
    expect(search.cost).toBe(10);
    search.assign(2, 1, -1);
    expect(search.sectioning.improveStudents([0])).toBe(0);
    expect(search.sectioning.trade()).toBe(0);
    search.assign(2, 0, -1);
    search.recount();
    expect(movesOf(ONE_CLASS, search)).toBe(0);
    expect(search.time[2]).toBe(1);
    expect(search.sectioning.enrollments()).toEqual([[1, 2], [0]]);
    expect(totalOf(problem, search)).toBe(0);
  });

  it('puts every student back, those who made room too, when the move is not taken at its price', () => {
    // Two students of both courses in c0 (two seats): c2 to 200 makes both clash (200) to save 10;
    // one exchange (s0 with s2) mends one clash only, so the move costs 90 and is not taken.
    const sits = [[0, 2], [0, 2], [1]];
    const { problem, search } = twoConfigurations(2, [
      { courses: [0, 1], sits: sits[0] as number[] },
      { courses: [0, 1], sits: sits[1] as number[] },
      { courses: [0], sits: sits[2] as number[] },
    ]);
    expect(movesOf(ONE_CLASS, search)).toBe(10);
    expect(search.time[2]).toBe(0);
    expect(search.sectioning.enrollments()).toEqual(sits);
    expect(totalOf(problem, search)).toBe(10);
    search.recount();
    expect(search.cost).toBe(10);
  });
});

describe('the choice of neighbourhood', () => {
  it('gives most moves to the one that improves, and keeps a share for the others', () => {
    const improves: Neighbourhood = { name: 'improves', tryMove: () => -1 };
    const never: Neighbourhood = { name: 'never', tryMove: () => null };
    const selector = new NeighbourhoodSelector([improves, never]);
    const search = { random: new SeededRandom(7), probes: 0 } as unknown as Search;
    for (let k = 0; k < 2_000; k++) selector.step(search, 1, selector.shares(search));
    const [good, bad] = selector.shares(search);
    expect(good).toBeGreaterThan(0.85);
    expect(bad).toBeGreaterThanOrEqual(0.02);
    expect(selector.report().map((r) => r.name)).toEqual(['improves', 'never']);
  });
});
