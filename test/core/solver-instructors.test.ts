import { describe, expect, it } from 'vitest';
import { solve } from '../../core/solver';
import { scoreAssignment } from '../../core/solver/score';
import type { InstructorSpec, TimeOption, TimetableProblem } from '../../core/solver/model';
import { handMadeProblem } from '../helpers/hand-made-problem';

/**
 * Instructors chosen by the search (Termwise's extension of the competition's model): a class's
 * room options carry the instructors it takes with them, and the search keeps each instructor in
 * one place at a time, out of their unavailable times and within their limit of classes.
 */
const MON = 1;
const at = (start: number, length = 12, days = MON): TimeOption => ({ days, start, length, weeks: 0, penalty: 0 });

function problemOf(
  classes: { times: TimeOption[]; options: { room: number; instructors: number[]; penalty?: number }[] }[],
  instructors: InstructorSpec[],
  rooms = 3,
): TimetableProblem {
  const specs = classes.map((c) => ({ times: c.times, rooms: c.options.map((o) => ({ room: o.room, penalty: o.penalty ?? 0, instructors: o.instructors })) }));
  return handMadeProblem(specs, { name: 'instructors', rooms, instructors });
}

const person = (id: string, unavailable: Omit<TimeOption, 'penalty'>[] = [], maxClasses: number | null = null): InstructorSpec => ({
  id,
  unavailable,
  maxClasses,
});

describe('the solver choosing instructors', () => {
  it('gives two classes at one time two instructors, though one of them is cheaper for both', () => {
    // Both classes can only meet at 100; instructor 0 costs nothing, instructor 1 costs 5.
    const options = [0, 1].flatMap((room) => [
      { room, instructors: [0] },
      { room, instructors: [1], penalty: 5 },
    ]);
    const problem = problemOf(
      [
        { times: [at(100)], options },
        { times: [at(100)], options },
      ],
      [person('A'), person('B')],
    );
    const result = solve(problem, { timeBudgetMs: 5_000, seed: 1, maxIterations: 5_000 });
    expect(result.score.valid).toBe(true);
    const chosen = [0, 1].map((c) => problem.classes[c]?.rooms[result.assignment.room[c] ?? -1]?.instructors?.[0]);
    expect(chosen.sort()).toEqual([0, 1]);
    expect(result.score.total).toBe(5);
  });

  it('keeps an instructor out of their unavailable times and within their limit of classes', () => {
    const anyone = [0, 1, 2].map((k) => ({ room: 0, instructors: [k], penalty: k }));
    // Three classes at three different times; A is away at 200, and may take one class only.
    const problem = problemOf(
      [
        { times: [at(100)], options: anyone },
        { times: [at(200)], options: anyone },
        { times: [at(300)], options: anyone },
      ],
      [person('A', [{ days: MON, start: 190, length: 30, weeks: 0 }], 1), person('B', [], 1), person('C')],
    );
    const result = solve(problem, { timeBudgetMs: 5_000, seed: 2, maxIterations: 5_000 });
    expect(result.score.valid).toBe(true);
    const who = [0, 1, 2].map((c) => problem.classes[c]?.rooms[result.assignment.room[c] ?? -1]?.instructors?.[0]);
    expect(who[1]).not.toBe(0);
    expect(who.filter((k) => k === 0)).toHaveLength(1);
    expect(who.filter((k) => k === 1)).toHaveLength(1);
    // The cheapest that holds: A (0) and B (1) once each, C (2) once: 0 + 1 + 2.
    expect(result.score.total).toBe(3);
  });

  it('scores an instructor in two places at once, while unavailable, or over their limit as hard violations', () => {
    const problem = problemOf(
      [
        { times: [at(100)], options: [{ room: 0, instructors: [0] }] },
        { times: [at(100)], options: [{ room: 1, instructors: [0] }] },
      ],
      [person('A', [{ days: MON, start: 100, length: 5, weeks: 0 }], 1)],
    );
    const score = scoreAssignment(problem, { time: Int32Array.from([0, 0]), room: Int32Array.from([0, 0]), students: [] });
    expect(score.valid).toBe(false);
    expect(score.hard.filter((h) => h.kind === 'instructor').map((h) => h.message)).toEqual([
      'class c0 is taught by A while unavailable',
      'class c1 is taught by A while unavailable',
      'A teaches classes c0 and c1 at once',
      'A teaches 2 classes, more than 1',
    ]);
  });

  it('spreads classes over instructors (squared load) and keeps each one to few days, counting what they teach already', () => {
    const TUE = 2;
    // Four classes, each on Monday or Tuesday at 100 or 200; A or B may take any of them.
    const options = [0, 1, 2, 3].flatMap((room) => [
      { room, instructors: [0] },
      { room, instructors: [1] },
    ]);
    const times = [at(100, 12, MON), at(200, 12, MON), at(100, 12, TUE), at(200, 12, TUE)];
    // A already teaches one class on Monday; B teaches nothing yet. A day costs 10, a unit of squared load 1.
    const soft = { dayPenalty: 10, loadPenalty: 1 };
    const problem = problemOf(
      [0, 1, 2, 3].map(() => ({ times, options })),
      [
        { ...person('A'), ...soft, load: 1, busyDays: MON },
        { ...person('B'), ...soft, load: 0, busyDays: 0 },
      ],
      4,
    );
    const result = solve(problem, { timeBudgetMs: 5_000, seed: 3, maxIterations: 5_000 });
    expect(result.score.valid).toBe(true);
    const who = [0, 1, 2, 3].map((c) => problem.classes[c]?.rooms[result.assignment.room[c] ?? -1]?.instructors?.[0]);
    const days = [0, 1, 2, 3].map((c) => problem.classes[c]?.times[result.assignment.time[c] ?? -1]?.days);
    // The best: two classes each (loads 3 and 2: 3² − 1² + 2² = 12), each on one day (A on Monday, free; B on one day: 10).
    expect(who.filter((k) => k === 0)).toHaveLength(2);
    expect(days.filter((_, c) => who[c] === 0).every((d) => d === MON)).toBe(true);
    expect(new Set(days.filter((_, c) => who[c] === 1)).size).toBe(1);
    expect(result.score.distribution).toBe(22);
    // The search's own running total is the scorer's.
    expect(result.runningTotal).toBe(result.score.total);
  });

  it('leaves out what cannot be placed and still improves the rest, when a partial timetable is asked for', () => {
    // Three classes only A may teach, A at most two; each has a cheap and a dear time.
    const options = [{ room: 0, instructors: [0] }];
    const times = [
      { ...at(100), penalty: 0 },
      { ...at(200), penalty: 0 },
      { ...at(300), penalty: 7 },
    ];
    const problem = problemOf(
      [0, 1, 2].map(() => ({ times, options })),
      [person('A', [], 2)],
    );
    const strict = solve(problem, { timeBudgetMs: 5_000, seed: 1, maxIterations: 500 });
    expect(strict.score.valid).toBe(false);
    const partial = solve(problem, { timeBudgetMs: 5_000, seed: 1, maxIterations: 500, partial: true });
    const placed = [0, 1, 2].filter((c) => (partial.assignment.time[c] ?? -1) >= 0);
    expect(placed).toHaveLength(2);
    expect(partial.score.hard.map((h) => h.kind)).toEqual(['unplaced']);
    // The two placed take the two free times.
    expect(partial.score.time).toBe(0);
    expect(partial.firstValidMs).toBeNull();
  });
});
