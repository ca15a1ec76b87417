import { describe, expect, it } from 'vitest';
import { scoreAssignment } from '../../core/solver/score';
import { setExcess } from '../../core/solver/distributions';
import { TimeAlgebra } from '../../core/solver/times';
import { SeededRandom } from '../../core/util/random';
import type { Distribution, DistributionType, TimeOption, TimetableProblem } from '../../core/solver/model';

/**
 * The competition's scoring, worked out by hand on problems of two or three classes: for every
 * distribution type one case that holds and one that breaks (with the penalty as the rules count
 * it), the hard version of each, travel, student conflicts, rooms and sectioning.
 */
const MON = 1;
const TUE = 2;
const WED = 4;
const THU = 8;
const FRI = 16;
/** Week patterns of these problems: 0 = both weeks, 1 = week 1, 2 = week 2. */
const BOTH = 0;
const WEEK1 = 1;
const WEEK2 = 2;

const at = (days: number, start: number, length: number, weeks = BOTH, penalty = 0): TimeOption => ({ days, start, length, weeks, penalty });

interface Setup {
  times: TimeOption[];
  rooms?: number[];
  distribution?: { type: DistributionType; params?: number[]; required?: boolean; penalty?: number };
  travel?: number;
}

/** Classes with one time (and room) each, placed there, and one distribution over all of them in order. */
function problemOf(setup: Setup): TimetableProblem {
  const roomCount = 3;
  const distributions: Distribution[] = setup.distribution
    ? [
        {
          type: setup.distribution.type,
          params: setup.distribution.params ?? [],
          required: setup.distribution.required ?? false,
          penalty: setup.distribution.penalty ?? 7,
          classes: setup.times.map((_, i) => i),
        },
      ]
    : [];
  return {
    name: 'hand-made',
    nrDays: 7,
    nrWeeks: 2,
    slotsPerDay: 288,
    weights: { time: 1, room: 1, distribution: 1, student: 1 },
    rooms: Array.from({ length: roomCount }, (_, r) => ({ id: `r${r}`, capacity: 30, unavailable: [] })),
    travel: Int32Array.from({ length: roomCount * roomCount }, (_, i) => (Math.floor(i / roomCount) === i % roomCount ? 0 : (setup.travel ?? 0))),
    weekPatterns: { text: ['11', '10', '01'], weeks: [[0, 1], [0], [1]] },
    classes: setup.times.map((time, i) => ({
      id: `c${i}`,
      limit: 10,
      parent: -1,
      subpart: i,
      times: [time],
      rooms: setup.rooms ? [{ room: setup.rooms[i] ?? 0, penalty: 0 }] : [],
    })),
    subparts: setup.times.map((_, i) => ({ id: `s${i}`, config: i, classes: [i] })),
    configs: setup.times.map((_, i) => ({ id: `f${i}`, course: i, subparts: [i] })),
    courses: setup.times.map((_, i) => ({ id: `k${i}`, configs: [i] })),
    distributions,
    students: [],
  };
}

function scored(setup: Setup): ReturnType<typeof scoreAssignment> {
  const problem = problemOf(setup);
  const n = setup.times.length;
  return scoreAssignment(problem, { time: new Int32Array(n).fill(0), room: new Int32Array(n).fill(setup.rooms ? 0 : -1), students: [] });
}

/** [type, params, times that hold, times that break, penalty of the breaking case (penalty 7 each)]. */
const CASES: [DistributionType, number[], Setup, Setup, number][] = [
  ['SameStart', [], { times: [at(MON, 10, 10), at(TUE, 10, 5)] }, { times: [at(MON, 10, 10), at(MON, 12, 5)] }, 7],
  ['SameTime', [], { times: [at(MON, 10, 10), at(TUE, 12, 6)] }, { times: [at(MON, 10, 10), at(MON, 15, 10)] }, 7],
  ['DifferentTime', [], { times: [at(MON, 10, 10), at(TUE, 20, 10)] }, { times: [at(MON, 10, 10), at(TUE, 19, 6)] }, 7],
  ['SameDays', [], { times: [at(MON | WED | FRI, 10, 10), at(MON | WED, 30, 10)] }, { times: [at(MON | WED, 10, 10), at(MON | TUE, 30, 10)] }, 7],
  ['DifferentDays', [], { times: [at(MON | WED, 10, 10), at(TUE | THU, 10, 10)] }, { times: [at(MON | WED, 10, 10), at(WED | FRI, 30, 10)] }, 7],
  ['SameWeeks', [], { times: [at(MON, 10, 10, BOTH), at(TUE, 10, 10, WEEK1)] }, { times: [at(MON, 10, 10, WEEK1), at(MON, 30, 10, WEEK2)] }, 7],
  ['DifferentWeeks', [], { times: [at(MON, 10, 10, WEEK1), at(MON, 10, 10, WEEK2)] }, { times: [at(MON, 10, 10, BOTH), at(TUE, 10, 10, WEEK1)] }, 7],
  ['Overlap', [], { times: [at(MON, 10, 10), at(MON, 15, 10)] }, { times: [at(MON, 10, 10), at(TUE, 15, 10)] }, 7],
  ['NotOverlap', [], { times: [at(MON, 10, 10), at(MON, 20, 10)] }, { times: [at(MON, 10, 10), at(MON, 19, 10)] }, 7],
  ['SameRoom', [], { times: [at(MON, 10, 10), at(TUE, 10, 10)], rooms: [1, 1] }, { times: [at(MON, 10, 10), at(TUE, 10, 10)], rooms: [1, 2] }, 7],
  ['DifferentRoom', [], { times: [at(MON, 10, 10), at(TUE, 10, 10)], rooms: [1, 2] }, { times: [at(MON, 10, 10), at(TUE, 10, 10)], rooms: [1, 1] }, 7],
  // Travel 3 slots between rooms 1 and 2: a gap of 3 is enough, 2 is not.
  [
    'SameAttendees',
    [],
    { times: [at(MON, 10, 10), at(MON, 23, 10)], rooms: [1, 2], travel: 3 },
    { times: [at(MON, 10, 10), at(MON, 22, 10)], rooms: [1, 2], travel: 3 },
    7,
  ],
  ['Precedence', [], { times: [at(MON, 10, 10), at(MON, 20, 10)] }, { times: [at(TUE, 10, 10), at(MON, 30, 10)] }, 7],
  ['WorkDay', [20], { times: [at(MON, 10, 10), at(MON, 25, 5)] }, { times: [at(MON, 10, 10), at(MON, 25, 6)] }, 7],
  ['MinGap', [5], { times: [at(MON, 10, 10), at(MON, 25, 5)] }, { times: [at(MON, 10, 10), at(MON, 24, 5)] }, 7],
  // Three days used, two allowed: 7 × 1.
  ['MaxDays', [2], { times: [at(MON | WED, 10, 10), at(WED, 30, 10)] }, { times: [at(MON | WED, 10, 10), at(FRI, 30, 10)] }, 7],
  // Monday carries 15 + 10 = 25 slots in both weeks, 20 allowed: ⌊7 × (5 + 5) / 2 weeks⌋ = 35.
  ['MaxDayLoad', [20], { times: [at(MON, 10, 15), at(TUE, 30, 10)] }, { times: [at(MON, 10, 15), at(MON, 30, 10)] }, 35],
  // A 10-slot gap (> 5) makes two blocks, one break more than the 0 allowed, in both weeks: ⌊7 × 2 / 2⌋ = 7.
  ['MaxBreaks', [0, 5], { times: [at(MON, 10, 10), at(MON, 24, 10)] }, { times: [at(MON, 10, 10), at(MON, 30, 10)] }, 7],
  // One block 10–40 (a gap of 2 ≤ 5) of 30 slots, 25 allowed, in week 1 only: ⌊7 × 1 / 2⌋ = 3.
  ['MaxBlock', [25, 5], { times: [at(MON, 10, 10, WEEK1), at(MON, 30, 10, WEEK1)] }, { times: [at(MON, 10, 10, WEEK1), at(MON, 22, 18, WEEK1)] }, 3],
];

describe('the competition scoring of every distribution type', () => {
  for (const [type, params, holds, breaks, penalty] of CASES) {
    it(`${type}${params.length ? `(${params.join(',')})` : ''}: holds at no cost, breaks at ${penalty}, and broken while required is a hard violation`, () => {
      const good = scored({ ...holds, distribution: { type, params } });
      expect(good).toMatchObject({ valid: true, distribution: 0 });
      const bad = scored({ ...breaks, distribution: { type, params } });
      expect(bad).toMatchObject({ valid: true, distribution: penalty, total: penalty });
      const hard = scored({ ...breaks, distribution: { type, params, required: true } });
      expect(hard.valid).toBe(false);
      expect(hard.distribution).toBe(0);
      expect(hard.hard[0]?.message).toContain(type);
      expect(scored({ ...holds, distribution: { type, params, required: true } }).valid).toBe(true);
    });
  }

  it('counts a pair constraint once per broken pair, and Precedence in the listed order over every pair', () => {
    // Three classes that should all start together: c0 and c1 do, c2 does not → 2 broken pairs.
    expect(scored({ times: [at(MON, 10, 5), at(TUE, 10, 5), at(WED, 11, 5)], distribution: { type: 'SameStart' } }).distribution).toBe(14);
    // c0 after c1, c1 after c2: (0,1), (0,2) and (1,2) all broken.
    expect(scored({ times: [at(MON, 50, 5), at(MON, 30, 5), at(MON, 10, 5)], distribution: { type: 'Precedence' } }).distribution).toBe(21);
    // An earlier week wins over a later day.
    expect(scored({ times: [at(FRI, 10, 5, WEEK1), at(MON, 10, 5, WEEK2)], distribution: { type: 'Precedence' } }).distribution).toBe(0);
  });

  it('ignores a class alone in its block for MaxBlock, however long', () => {
    expect(scored({ times: [at(MON, 10, 60, WEEK1), at(TUE, 30, 10, WEEK1)], distribution: { type: 'MaxBlock', params: [25, 5] } }).distribution).toBe(0);
  });
});

describe('rooms, times, students', () => {
  it('adds time and room penalties with the weights, and refuses two classes in one room at once or a room while unavailable', () => {
    const problem = problemOf({ times: [at(MON, 10, 10, BOTH, 3), at(MON, 15, 10, WEEK2, 4)], rooms: [1, 1] });
    problem.classes[0]?.rooms.push({ room: 2, penalty: 5 });
    problem.weights = { time: 2, room: 3, distribution: 1, student: 1 };
    const apart = scoreAssignment(problem, { time: Int32Array.from([0, 0]), room: Int32Array.from([1, 0]), students: [] });
    expect(apart).toMatchObject({ valid: true, time: 7, room: 5, total: 7 * 2 + 5 * 3 });
    const together = scoreAssignment(problem, { time: Int32Array.from([0, 0]), room: Int32Array.from([0, 0]), students: [] });
    expect(together.valid).toBe(false);
    expect(together.hard[0]).toMatchObject({ kind: 'room-clash' });
    problem.rooms[2]?.unavailable.push({ days: MON, start: 0, length: 12, weeks: WEEK1 });
    expect(scoreAssignment(problem, { time: Int32Array.from([0, 0]), room: Int32Array.from([1, 0]), students: [] }).hard[0]).toMatchObject({
      kind: 'room-unavailable',
    });
  });

  it('counts a student conflict once per pair of classes that overlap or leave too little time to walk between rooms', () => {
    const problem = problemOf({ times: [at(MON, 10, 10), at(MON, 21, 10), at(MON, 15, 2)], rooms: [1, 2, 0], travel: 2 });
    problem.students = [{ id: 's1', courses: [0, 1, 2] }];
    problem.weights.student = 5;
    // c0–c1: a 1-slot gap, 2 slots to walk; c0–c2 overlap; c1–c2 are apart: 2 conflicts.
    const result = scoreAssignment(problem, { time: new Int32Array(3), room: new Int32Array(3), students: [[0, 1, 2]] });
    expect(result).toMatchObject({ valid: true, student: 2, total: 10 });
  });

  it('refuses a student in a class of a course they do not need, without its parent, in two of one subpart, or over a limit', () => {
    const problem = problemOf({ times: [at(MON, 10, 10), at(TUE, 10, 10), at(WED, 10, 10)] });
    // c1 and c2 are two classes of course 1's subpart, c2's parent is c0.
    problem.subparts = [
      { id: 's0', config: 0, classes: [0] },
      { id: 's1', config: 1, classes: [1, 2] },
    ];
    problem.classes.forEach((c, i) => (c.subpart = i === 0 ? 0 : 1));
    problem.classes[2] = { ...(problem.classes[2] as TimetableProblem['classes'][number]), parent: 0, limit: 1 };
    problem.configs = [
      { id: 'f0', course: 0, subparts: [0] },
      { id: 'f1', course: 1, subparts: [1] },
    ];
    problem.courses = [
      { id: 'k0', configs: [0] },
      { id: 'k1', configs: [1] },
    ];
    problem.students = [
      { id: 'a', courses: [1] },
      { id: 'b', courses: [0, 1] },
    ];
    const base = { time: new Int32Array(3), room: new Int32Array(3).fill(-1) };
    expect(scoreAssignment(problem, { ...base, students: [[1], [0, 2]] }).valid).toBe(true);
    const kinds = (students: number[][]): string[] => scoreAssignment(problem, { ...base, students }).hard.map((h) => h.message);
    expect(
      kinds([
        [1, 0],
        [0, 2],
      ]),
    ).toContainEqual(expect.stringContaining('of a course they do not need'));
    expect(kinds([[2], [0, 2]])).toEqual(
      expect.arrayContaining([expect.stringContaining('without its parent class c0'), expect.stringContaining('more than its limit of 1')]),
    );
    expect(
      kinds([
        [1, 2],
        [0, 1],
      ]),
    ).toContainEqual(expect.stringContaining('has 2 classes of subpart s1'));
    expect(kinds([[], [0, 1]])).toContainEqual(expect.stringContaining('is in 0 configurations of course k1'));
  });
});

describe('set constraints over weeks that hold different classes', () => {
  /** The rules read literally: every week, every day, the classes meeting then, in blocks. */
  function excessByTheRules(problem: TimetableProblem, algebra: TimeAlgebra, type: DistributionType, params: number[], times: TimeOption[]): number {
    let excess = 0;
    for (let w = 0; w < problem.nrWeeks; w++)
      for (let day = 0; day < problem.nrDays; day++) {
        const meeting = times.filter((t) => (t.days & (1 << day)) !== 0 && algebra.inWeek(t.weeks, w)).sort((a, b) => a.start - b.start);
        if (meeting.length === 0) continue;
        if (type === 'MaxDayLoad') {
          excess += Math.max(0, meeting.reduce((load, t) => load + t.length, 0) - (params[0] as number));
          continue;
        }
        const blocks: { start: number; end: number; classes: number }[] = [];
        for (const t of meeting) {
          const last = blocks[blocks.length - 1];
          if (last && last.end + (params[1] as number) >= t.start) {
            last.end = Math.max(last.end, t.start + t.length);
            last.classes++;
          } else blocks.push({ start: t.start, end: t.start + t.length, classes: 1 });
        }
        if (type === 'MaxBreaks') excess += Math.max(0, blocks.length - (params[0] as number) - 1);
        else excess += blocks.filter((b) => b.classes > 1 && b.end - b.start > (params[0] as number)).length;
      }
    return excess;
  }

  it('counts MaxDayLoad, MaxBreaks and MaxBlock as the rules do, week by week, for few classes a day and for more than thirty', () => {
    // Four weeks and five week patterns: every week, the first two, the last two, odd weeks, week 3.
    // The sets of 40 meet on Monday: more classes in a day than the count by sets of weeks takes.
    const weeks = [[0, 1, 2, 3], [0, 1], [2, 3], [0, 2], [2]];
    const problem = {
      ...problemOf({ times: [] }),
      nrWeeks: 4,
      weekPatterns: { text: weeks.map((w) => [0, 1, 2, 3].map((k) => (w.includes(k) ? '1' : '0')).join('')), weeks },
    };
    const algebra = new TimeAlgebra(problem.weekPatterns);
    const random = new SeededRandom(11);
    const pick = (n: number): number => Math.floor(random.next() * n);
    let checked = 0;
    for (const count of [1, 2, 5, 12, 40]) {
      for (let k = 0; k < 40; k++) {
        // Half the sets in one week pattern (its weeks all alike), half in patterns of their own.
        const shared = k % 2 === 0 ? pick(5) : -1;
        const times = Array.from({ length: count }, () =>
          at(
            count > 30 ? MON | [0, WED][pick(2)]! : ([MON, TUE, MON | WED, TUE | THU, FRI][pick(5)] as number),
            96 + pick(120),
            6 + pick(30),
            shared >= 0 ? shared : pick(5),
          ),
        );
        for (const [type, params] of [
          ['MaxDayLoad', [pick(80)]],
          ['MaxBreaks', [pick(3), pick(12)]],
          ['MaxBlock', [20 + pick(60), pick(12)]],
        ] as [DistributionType, number[]][]) {
          expect(setExcess(problem, algebra, { type, params }, times)).toBe(excessByTheRules(problem, algebra, type, params, times));
          checked++;
        }
      }
    }
    expect(checked).toBe(600);
  });
});
