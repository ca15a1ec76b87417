import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  courseFacts,
  DEMAND_FEATURE_COUNT,
  DEMAND_FEATURE_NAMES,
  demandFeatures,
  FEATURE_COUNT,
  FEATURE_NAMES,
  writeFeatures,
  UNKNOWN,
} from '../../core/predict/features';
import { similarityKey, type CampusHistory, type CourseInfo, type History, type TermStat } from '../../core/predict/planning-view';
import { trainCampus } from '../../core/predict/train';
import { calibrate, expectedCalibrationError, fitCalibration, UNCALIBRATED } from '../../core/predict/calibration';
import { enrollmentRange, fitIntervals, residual, INTERVAL_COVERAGE } from '../../core/predict/demand';

/**
 * The model's parts that a department's trust rests on: features that never read the term they
 * predict (or later), a confidence that means what it says, and an enrollment range that holds
 * about 80 % of what happens.
 */

const COURSES: CourseInfo[] = ['ECE110', 'ECE120', 'ECE210', 'ECE411', 'ECE412', 'PHYS211'].map((code, i) => ({
  code,
  name: code,
  prefix: /^[A-Z]+/.exec(code)?.[0] ?? '',
  prefixes: [/^[A-Z]+/.exec(code)?.[0] ?? ''],
  types: [i % 2 ? 'elective' : 'core'],
  level: Number(/\d/.exec(code)?.[0] ?? 0),
  prerequisites: i === 3 ? ['ECE210'] : [],
  studyPlan: i === 1 ? 'Computer Engineering — Year 1, Fall' : null,
  dependents: i === 2 ? 1 : 0,
}));
const TERMS = 16;

const statArb: fc.Arbitrary<TermStat | undefined> = fc.option(
  fc.record({ offered: fc.boolean(), enrolled: fc.nat({ max: 400 }), passed: fc.nat({ max: 400 }), failed: fc.nat({ max: 100 }) }),
  { nil: undefined },
);
const historyArb = fc.record({
  hasData: fc.array(fc.boolean(), { minLength: TERMS, maxLength: TERMS }),
  series: fc.array(fc.array(statArb, { minLength: TERMS, maxLength: TERMS }), { minLength: COURSES.length, maxLength: COURSES.length }),
});

function campusOf(data: { hasData: boolean[]; series: (TermStat | undefined)[][] }): CampusHistory {
  return {
    campus: 'Beirut',
    hasData: data.hasData,
    stats: new Map(COURSES.map((c, i) => [c.code, data.series[i] ?? []])),
    similarityKeys: new Map(COURSES.map((c) => [c.code, similarityKey(c)])),
  };
}

function featureRows(campus: CampusHistory, t: number): number[][] {
  return COURSES.map((course) => {
    const row = new Float32Array(FEATURE_COUNT);
    writeFeatures(row, 0, course, courseFacts(course, campus, t), t);
    return [...row];
  });
}

describe('features read only the terms before the one they predict', () => {
  it('give the same row for term t whatever happened in t and later', () => {
    fc.assert(
      fc.property(historyArb, historyArb, fc.integer({ min: 0, max: TERMS - 1 }), (past, future, t) => {
        // Same history before t; anything at all from t on (records, offerings, enrollments).
        const mixed = {
          hasData: past.hasData.map((has, i) => (i < t ? has : (future.hasData[i] ?? false))),
          series: past.series.map((series, c) => series.map((stat, i) => (i < t ? stat : future.series[c]?.[i]))),
        };
        expect(featureRows(campusOf(mixed), t)).toEqual(featureRows(campusOf(past), t));
      }),
      { numRuns: 300 },
    );
  });

  it('do change when the terms before t change (the check above can fail)', () => {
    const quiet = { hasData: Array<boolean>(TERMS).fill(true), series: COURSES.map(() => Array<TermStat | undefined>(TERMS).fill(undefined)) };
    const busy = {
      ...quiet,
      series: quiet.series.map((s, c) => s.map((_, i) => (c === 0 && i === 9 ? { offered: true, enrolled: 120, passed: 110, failed: 10 } : undefined))),
    };
    expect(featureRows(campusOf(busy), 10)).not.toEqual(featureRows(campusOf(quiet), 10));
    // …but not when the change is at t itself.
    expect(featureRows(campusOf(busy), 9)).toEqual(featureRows(campusOf(quiet), 9));
  });
});

describe('the whole history by semester', () => {
  // ECE110 every Fall (odd term indices) with 100 + 10·i students, ECE120 every term; no records at term 4.
  const everyFall = {
    hasData: Array.from({ length: TERMS }, (_, i) => i !== 4),
    series: COURSES.map((_, c) =>
      Array.from({ length: TERMS }, (_, i): TermStat | undefined =>
        (c === 0 && i % 2 === 1) || c === 1 ? { offered: true, enrolled: 100 + 10 * i, passed: 90, failed: 5 } : undefined,
      ),
    ),
  };
  const facts = (t: number, c = 0) => courseFacts(COURSES[c] as CourseInfo, campusOf(everyFall), t);

  it("tells a course offered in every term of the target's semester from one offered only in the other", () => {
    expect(facts(11)).toMatchObject({ sameSemesterShare: 1, otherSemesterShare: 0, meanSameSemesterEnrollment: 150 }); // Falls 1…9
    expect(facts(12)).toMatchObject({ sameSemesterShare: 0, otherSemesterShare: 1, meanSameSemesterEnrollment: 0 });
    // Term 4 has no records, so the Springs before 12 are 0, 2, 6, 8 and 10, all offered.
    expect(facts(12, 1)).toMatchObject({ sameSemesterShare: 1, otherSemesterShare: 1, meanSameSemesterEnrollment: (100 + 120 + 160 + 180 + 200) / 5 });
  });

  it('is unknown before there is a term of that semester', () => {
    expect(facts(1)).toMatchObject({ sameSemesterShare: UNKNOWN, otherSemesterShare: 0 });
    expect(facts(0)).toMatchObject({ sameSemesterShare: UNKNOWN, otherSemesterShare: UNKNOWN, meanSameSemesterEnrollment: 0 });
  });

  it('the demand model reads its own columns of the row, by name', () => {
    const rows = featureRows(campusOf(everyFall), 11);
    const demand = demandFeatures(Float32Array.from(rows.flat()), rows.length);
    expect(demand).toHaveLength(rows.length * DEMAND_FEATURE_COUNT);
    rows.forEach((row, r) => DEMAND_FEATURE_NAMES.forEach((name, k) => expect(demand[r * DEMAND_FEATURE_COUNT + k]).toBe(row[FEATURE_NAMES.indexOf(name)])));
    expect(DEMAND_FEATURE_NAMES).not.toContain('offered_1_term_before');
  });
});

/** A small deterministic generator, so the fixed synthetic cases are the same on every machine. */
function random(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let x = state;
    x = Math.imul(x ^ (x >>> 15), x | 1);
    x ^= x + Math.imul(x ^ (x >>> 7), x | 61);
    return ((x ^ (x >>> 14)) >>> 0) / 4294967296;
  };
}

describe("a campus's model learns from the other campuses' history too", () => {
  type Raw = { hasData: boolean[]; series: (TermStat | undefined)[][] };
  const next = random(5);
  const randomHistory = (): Raw => ({
    hasData: Array<boolean>(TERMS).fill(true),
    series: COURSES.map(() =>
      Array.from({ length: TERMS }, () => (next() < 0.6 ? { offered: true, enrolled: 20 + Math.floor(next() * 200), passed: 20, failed: 2 } : undefined)),
    ),
  });
  const beirut = randomHistory();
  const byblos = randomHistory();
  const t = 12;
  /** Beirut's history with every record of the given terms flipped (offered ↔ not). */
  const flipped = (terms: (i: number) => boolean): Raw => ({
    ...beirut,
    series: beirut.series.map((series) =>
      series.map((stat, i) => (terms(i) ? (stat ? undefined : { offered: true, enrolled: 99, passed: 90, failed: 9 }) : stat)),
    ),
  });
  const byblosModel = async (beirutHistory: Raw): Promise<{ classifier: Uint8Array; samples: number }> => {
    const history: History = {
      baseYear: 2010,
      courses: COURSES,
      campuses: { Beirut: campusOf(beirutHistory), Byblos: { ...campusOf(byblos), campus: 'Byblos' } },
      lastIndex: TERMS - 1,
      leftOut: [],
    };
    const result = await trainCampus(history, 'Byblos', undefined, t);
    if (!result) throw new Error('Byblos has enough history to train');
    result.models.classifier.free();
    result.models.regressor?.free();
    return { classifier: result.trained.classifier, samples: result.trained.samples };
  };

  it('trained before term t, it reads both campuses before t and nothing of t or later', async () => {
    const model = await byblosModel(beirut);
    // Terms 2…11 at both campuses (the first two terms are the warm-up).
    expect(model.samples).toBe(2 * COURSES.length * (t - 2));
    expect((await byblosModel(flipped((i) => i >= t))).classifier).toEqual(model.classifier);
    // …while Beirut's terms before t do shape it (the check above can fail).
    expect((await byblosModel(flipped((i) => i === t - 1))).classifier).not.toEqual(model.classifier);
  });
});

const sigmoid = (x: number): number => 1 / (1 + Math.exp(-x));
const logit = (p: number): number => Math.log(p / (1 - p));

describe('calibrated confidence', () => {
  /** An over-confident scorer: the truth is σ(0.5·logit(score) − 0.4). */
  function overConfident(seed: number, n: number): { scores: number[]; labels: number[] } {
    const next = random(seed);
    const scores = Array.from({ length: n }, () => Math.min(0.999, Math.max(0.001, next())));
    const labels = scores.map((s) => (next() < sigmoid(0.5 * logit(s) - 0.4) ? 1 : 0));
    return { scores, labels };
  }

  it('means what it says on terms it was not fitted on', () => {
    const fitted = overConfident(1, 2000);
    const fresh = overConfident(2, 4000);
    const calibration = fitCalibration(fitted.scores, fitted.labels);
    expect(calibration.slope).toBeCloseTo(0.5, 1);
    expect(calibration.intercept).toBeCloseTo(-0.4, 1);
    const raw = expectedCalibrationError(fresh.scores, fresh.labels);
    const calibrated = expectedCalibrationError(
      fresh.scores.map((s) => calibrate(s, calibration)),
      fresh.labels,
    );
    expect(raw).toBeGreaterThan(0.1);
    expect(calibrated).toBeLessThan(0.04);
  });

  it('keeps the order of the scores (the ROC-AUC is unchanged)', () => {
    const { scores, labels } = overConfident(3, 500);
    const calibration = fitCalibration(scores, labels);
    const sorted = [...scores].sort((a, b) => a - b);
    const mapped = sorted.map((s) => calibrate(s, calibration));
    expect(mapped).toEqual([...mapped].sort((a, b) => a - b));
  });

  it('is left alone when the held-out terms have one outcome only, and never leaves 0–1', () => {
    expect(fitCalibration([0.2, 0.9, 0.5], [1, 1, 1])).toEqual(UNCALIBRATED);
    expect(fitCalibration([], [])).toEqual(UNCALIBRATED);
    // Perfectly separated held-out scores: the ridge keeps the map finite.
    const separated = fitCalibration([0.1, 0.2, 0.8, 0.9], [0, 0, 1, 1]);
    expect(Number.isFinite(separated.slope) && Number.isFinite(separated.intercept)).toBe(true);
    for (const s of [0, 1e-9, 0.5, 1 - 1e-9, 1]) {
      const c = calibrate(s, separated);
      expect(c).toBeGreaterThanOrEqual(0);
      expect(c).toBeLessThanOrEqual(1);
    }
  });
});

describe('enrollment range', () => {
  /** Actual enrollment = forecast × a log-normal error; little-history courses miss three times as much. */
  function offerings(seed: number, n: number): { forecast: number; actual: number; little: boolean }[] {
    const next = random(seed);
    const gaussian = (): number => Math.sqrt(-2 * Math.log(1 - next())) * Math.cos(2 * Math.PI * next());
    return Array.from({ length: n }, () => {
      const forecast = 10 + Math.floor(next() * 300);
      const little = next() < 0.3;
      return { forecast, actual: Math.max(0, Math.round(forecast * Math.exp((little ? 0.45 : 0.15) * gaussian()))), little };
    });
  }

  it('holds about 80 % of actual enrollments on offerings it was not fitted on, for both kinds of course', () => {
    const intervals = fitIntervals(offerings(11, 600).map((o) => residual(o.actual, o.forecast, o.little)));
    const fresh = offerings(12, 4000);
    const inside = (group: typeof fresh): number =>
      group.filter((o) => {
        const range = enrollmentRange(o.forecast, intervals, o.little);
        return o.actual >= range.low && o.actual <= range.high;
      }).length / group.length;
    for (const group of [fresh, fresh.filter((o) => o.little), fresh.filter((o) => !o.little)]) {
      expect(inside(group)).toBeGreaterThan(INTERVAL_COVERAGE - 0.05);
      expect(inside(group)).toBeLessThan(INTERVAL_COVERAGE + 0.05);
    }
    // Courses with little history get the wider range.
    expect(intervals.little_history.high - intervals.little_history.low).toBeGreaterThan(2 * (intervals.established.high - intervals.established.low));
  });

  it('always holds the forecast itself and never goes below zero', () => {
    const intervals = fitIntervals([residual(100, 50, false), residual(120, 60, false)]);
    for (const forecast of [0, 0.4, 7, 250]) {
      const range = enrollmentRange(forecast, intervals, false);
      expect(range.low).toBeGreaterThanOrEqual(0);
      expect(range.low).toBeLessThanOrEqual(Math.round(forecast));
      expect(range.high).toBeGreaterThanOrEqual(Math.round(forecast));
    }
  });
});
