import type { Campus } from '../domain/campuses';
import { Booster, type BoosterParams } from './xgboost';
import {
  courseFacts,
  DEMAND_BASE_COLUMN,
  PLANNED_CAMPUS_COLUMN,
  DEMAND_FEATURE_COUNT,
  DEMAND_FEATURE_NAMES,
  demandFeatures,
  FEATURE_COUNT,
  FEATURE_NAMES,
  writeFeatures,
  type CourseFacts,
} from './features';
import { leftOutKeys, campusHistory, termsWithData, type CourseInfo, type History } from './planning-view';
import { bestThreshold, f1Score, rocAuc } from './metrics';
import { calibrate, fitCalibration, UNCALIBRATED, type Calibration } from './calibration';
import { demandForecast, demandTarget, enrollmentRange, FALLBACK_INTERVALS, fitIntervals, hasLittleHistory, residual, type DemandIntervals } from './demand';

/** Model settings, in one place. */
export const CLASSIFIER: { params: BoosterParams; rounds: number } = {
  params: {
    booster: 'gbtree',
    objective: 'binary:logistic',
    tree_method: 'hist',
    max_bin: 32,
    max_depth: 4,
    eta: 0.15,
    subsample: 0.8,
    colsample_bytree: 0.8,
    min_child_weight: 2,
    seed: 7,
    silent: 1,
  },
  rounds: 50,
};
/** Demand: the log move from the course's baseline enrollment (demand.ts), from the demand features (DEMAND_FEATURE_NAMES). */
export const REGRESSOR: { params: BoosterParams; rounds: number } = {
  params: {
    booster: 'gbtree',
    objective: 'reg:linear',
    tree_method: 'hist',
    max_bin: 32,
    max_depth: 4,
    eta: 0.1,
    subsample: 0.8,
    colsample_bytree: 0.8,
    min_child_weight: 2,
    seed: 7,
    silent: 1,
  },
  rounds: 50,
};
/** Terms held out at the end of the history to measure quality and choose the threshold. */
export const HOLDOUT_TERMS = 2;
/** Training starts at the third term with data, so every row has some history behind it. */
export const WARMUP_TERMS = 2;

export interface Dataset {
  rows: number;
  features: Float32Array;
  labels: Float32Array;
  enrollment: Float32Array;
  terms: Int32Array;
}

/** One row per catalog course and target term, features from the terms before it. */
export function buildDataset(history: History, campus: Campus, targetTerms: readonly number[]): Dataset {
  const courses = history.courses;
  const rows = courses.length * targetTerms.length;
  const data: Dataset = {
    rows,
    features: new Float32Array(rows * FEATURE_COUNT),
    labels: new Float32Array(rows),
    enrollment: new Float32Array(rows),
    terms: new Int32Array(rows),
  };
  const atCampus = campusHistory(history, campus);
  let r = 0;
  for (const t of targetTerms) {
    for (const course of courses) {
      writeFeatures(data.features, r * FEATURE_COUNT, course, courseFacts(course, atCampus, t), t);
      const outcome = atCampus.stats.get(course.code)?.[t];
      data.labels[r] = outcome?.offered ? 1 : 0;
      data.enrollment[r] = outcome?.offered ? outcome.enrolled : 0;
      data.terms[r] = t;
      r++;
    }
  }
  return data;
}

const campusDatasets = new WeakMap<History, Map<Campus, Dataset>>();

/** The terms a campus's training rows are for: each term with data after the warm-up, in order. */
function trainingTerms(history: History, campus: Campus): number[] {
  return termsWithData(campusHistory(history, campus)).slice(WARMUP_TERMS);
}

/**
 * Every training row a campus's history gives, in term order, built once per loaded history and
 * only read afterwards: a row reads only the terms before its own, so the rows before any term are
 * the same whatever comes later, and walk-forward steps and the other campuses' models share them.
 */
function campusDataset(history: History, campus: Campus): Dataset {
  let byCampus = campusDatasets.get(history);
  if (!byCampus) campusDatasets.set(history, (byCampus = new Map<Campus, Dataset>()));
  let data = byCampus.get(campus);
  if (!data) byCampus.set(campus, (data = buildDataset(history, campus, trainingTerms(history, campus))));
  return data;
}

/** The rows of the terms before `before` of a dataset in term order: its first rows, shared, not copied. */
function rowsBefore(data: Dataset, before: number): Dataset {
  const found = data.terms.findIndex((t) => t >= before);
  const rows = found === -1 ? data.rows : found;
  return {
    rows,
    features: data.features.subarray(0, rows * FEATURE_COUNT),
    labels: data.labels.subarray(0, rows),
    enrollment: data.enrollment.subarray(0, rows),
    terms: data.terms.subarray(0, rows),
  };
}

/** Rows of several datasets, in order. */
function concat(parts: readonly Dataset[]): Dataset {
  const rows = parts.reduce((sum, part) => sum + part.rows, 0);
  const out: Dataset = {
    rows,
    features: new Float32Array(rows * FEATURE_COUNT),
    labels: new Float32Array(rows),
    enrollment: new Float32Array(rows),
    terms: new Int32Array(rows),
  };
  let at = 0;
  for (const part of parts) {
    out.features.set(part.features, at * FEATURE_COUNT);
    out.labels.set(part.labels, at);
    out.enrollment.set(part.enrollment, at);
    out.terms.set(part.terms, at);
    at += part.rows;
  }
  return out;
}

/**
 * What a campus's model learns from, before a term: its own rows, and every other campus's rows
 * marked as another campus's (pooling: a campus with a short history learns the shapes of
 * offering and demand from the others, and its own rows stay told apart).
 */
function pooledRows(history: History, campus: Campus, before: number): { own: Dataset; pooled: Dataset } {
  const own = rowsBefore(campusDataset(history, campus), before);
  const others = Object.keys(history.campuses)
    .filter((other) => other !== campus)
    .map((other) => rowsBefore(campusDataset(history, other), before));
  if (others.length === 0) return { own, pooled: own };
  const pooled = concat([own, ...others]);
  for (let r = own.rows; r < pooled.rows; r++) pooled.features[r * FEATURE_COUNT + PLANNED_CAMPUS_COLUMN] = 0;
  return { own, pooled };
}

function subset(data: Dataset, keep: (row: number) => boolean): Dataset {
  const indices: number[] = [];
  for (let i = 0; i < data.rows; i++) if (keep(i)) indices.push(i);
  const out: Dataset = {
    rows: indices.length,
    features: new Float32Array(indices.length * FEATURE_COUNT),
    labels: new Float32Array(indices.length),
    enrollment: new Float32Array(indices.length),
    terms: new Int32Array(indices.length),
  };
  indices.forEach((src, dst) => {
    out.features.set(data.features.subarray(src * FEATURE_COUNT, (src + 1) * FEATURE_COUNT), dst * FEATURE_COUNT);
    out.labels[dst] = data.labels[src] ?? 0;
    out.enrollment[dst] = data.enrollment[src] ?? 0;
    out.terms[dst] = data.terms[src] ?? 0;
  });
  return out;
}

export interface Boosters {
  classifier: Booster;
  regressor: Booster | null;
}

/** What turns the boosters' raw outputs into what a run shows, learnt on the held-out terms. */
export interface Adjustments {
  calibration: Calibration;
  intervals: DemandIntervals;
}

export const UNADJUSTED: Adjustments = { calibration: UNCALIBRATED, intervals: FALLBACK_INTERVALS };

export type CampusModels = Boosters & Adjustments;

const baseOf = (features: Float32Array, row: number): number => Math.expm1(features[row * FEATURE_COUNT + DEMAND_BASE_COLUMN] ?? 0);

async function fit(data: Dataset): Promise<Boosters> {
  const classifier = await Booster.train(data.features, data.labels, data.rows, FEATURE_COUNT, CLASSIFIER.params, CLASSIFIER.rounds);
  const offered = subset(data, (i) => (data.enrollment[i] ?? 0) > 0);
  const moves = offered.enrollment.map((enrolled, i) => demandTarget(enrolled, baseOf(offered.features, i)));
  const regressor =
    offered.rows >= 10
      ? await Booster.train(demandFeatures(offered.features, offered.rows), moves, offered.rows, DEMAND_FEATURE_COUNT, REGRESSOR.params, REGRESSOR.rounds)
      : null;
  return { classifier, regressor };
}

/** Expected enrollment of each row: the baseline moved by the regressor (the baseline alone without one). */
function forecastRows(regressor: Booster | null, data: Pick<Dataset, 'features' | 'rows'>): number[] {
  const moves = regressor?.predict(demandFeatures(data.features, data.rows), data.rows, DEMAND_FEATURE_COUNT);
  return Array.from({ length: data.rows }, (_, i) => demandForecast(baseOf(data.features, i), moves?.[i] ?? 0));
}

const TIMES_OFFERED_COLUMN = FEATURE_NAMES.indexOf('times_offered');
const littleHistoryRow = (features: Float32Array, row: number): boolean => hasLittleHistory(features[row * FEATURE_COUNT + TIMES_OFFERED_COLUMN] ?? 0);

/** How far the demand forecasts of a dataset's offered rows were from what happened. */
function demandResiduals(regressor: Booster | null, data: Dataset): ReturnType<typeof residual>[] {
  const offered = subset(data, (i) => (data.enrollment[i] ?? 0) > 0);
  return forecastRows(regressor, offered).map((forecast, i) => residual(offered.enrollment[i] ?? 0, forecast, littleHistoryRow(offered.features, i)));
}

export interface TrainedCampus {
  campus: Campus;
  samples: number;
  positives: number;
  roc_auc: number | null;
  f1: number | null;
  threshold: number;
  duration_ms: number;
  /** What the offer model reads (FEATURE_NAMES) and what the demand model reads (DEMAND_FEATURE_NAMES). */
  features: string[];
  demand_features: string[];
  /** The terms left out as incomplete when it was trained (keys, sorted). */
  left_out_terms: string[];
  classifier: Uint8Array;
  regressor: Uint8Array | null;
  adjustments: Adjustments;
}

export type Progress = (stage: string, percent: number) => void;

/**
 * Trains a campus's model on its own and the other campuses' rows: measures on its own last two
 * terms (ROC-AUC, F1, and the F1-best threshold), then refits on everything. `before` limits the
 * history (for walk-forward backtests). Returns null when the campus has fewer than three terms of data.
 */
export async function trainCampus(
  history: History,
  campus: Campus,
  progress: Progress = () => undefined,
  before = Number.POSITIVE_INFINITY,
): Promise<{ trained: TrainedCampus; models: CampusModels } | null> {
  const started = performance.now();
  const targets = trainingTerms(history, campus).filter((t) => t < before);
  if (targets.length === 0) return null;
  progress('features', 5);
  const { own, pooled: data } = pooledRows(history, campus, before);
  let metrics: { roc_auc: number | null; f1: number | null; threshold: number } = { roc_auc: null, f1: null, threshold: 0.5 };
  let adjustments: Adjustments | null = null;
  if (targets.length > HOLDOUT_TERMS) {
    // A probe trained without the last terms learns, on them, the calibration, the offer threshold
    // and the demand interval; the target term is never among them (trainCampus sees only `before`).
    const holdoutStart = targets[targets.length - HOLDOUT_TERMS] ?? 0;
    const train = subset(data, (i) => (data.terms[i] ?? 0) < holdoutStart);
    const holdout = subset(own, (i) => (own.terms[i] ?? 0) >= holdoutStart);
    progress('holdout', 20);
    const probe = await fit(train);
    const raw = probe.classifier.predict(holdout.features, holdout.rows, FEATURE_COUNT);
    const calibration = fitCalibration(raw, holdout.labels);
    const scores = raw.map((score) => calibrate(score, calibration));
    adjustments = { calibration, intervals: fitIntervals(demandResiduals(probe.regressor, holdout)) };
    probe.classifier.free();
    probe.regressor?.free();
    const best = bestThreshold(scores, holdout.labels);
    metrics = { roc_auc: rocAuc(scores, holdout.labels), f1: f1Score(scores, holdout.labels, best.threshold), threshold: best.threshold };
  }
  progress('fit', 60);
  const boosters = await fit(data);
  // Too little history to hold terms out: the interval comes from the training rows themselves (narrower than it should be).
  adjustments ??= { calibration: UNCALIBRATED, intervals: fitIntervals(demandResiduals(boosters.regressor, own)) };
  const models: CampusModels = { ...boosters, ...adjustments };
  progress('done', 100);
  let positives = 0;
  for (const label of data.labels) positives += label;
  return {
    trained: {
      campus,
      samples: data.rows,
      positives,
      ...metrics,
      duration_ms: Math.round(performance.now() - started),
      features: [...FEATURE_NAMES],
      demand_features: [...DEMAND_FEATURE_NAMES],
      left_out_terms: leftOutKeys(history),
      classifier: models.classifier.save(),
      regressor: models.regressor?.save() ?? null,
      adjustments,
    },
    models,
  };
}

export interface CourseScore {
  course: CourseInfo;
  facts: CourseFacts;
  /** Calibrated probability that the course is offered. */
  confidence: number;
  /** Expected enrollment if offered, before cohort adjustments, with its 80 % interval. */
  enrollment: number;
  enrollmentLow: number;
  enrollmentHigh: number;
  /** Offered too few times before the term for sure figures (hasLittleHistory). */
  littleHistory: boolean;
}

/** Scores every catalog course for term index t at a campus. */
export function scoreCourses(models: CampusModels, history: History, campus: Campus, t: number): CourseScore[] {
  const courses = history.courses;
  const features = new Float32Array(courses.length * FEATURE_COUNT);
  const facts = courses.map((course, i) => {
    const f = courseFacts(course, campusHistory(history, campus), t);
    writeFeatures(features, i * FEATURE_COUNT, course, f, t);
    return f;
  });
  const confidence = models.classifier.predict(features, courses.length, FEATURE_COUNT);
  const enrollment = forecastRows(models.regressor, { features, rows: courses.length });
  return courses.map((course, i) => {
    const f = facts[i] as CourseFacts;
    const littleHistory = hasLittleHistory(f.offeredCount);
    const expected = enrollment[i] ?? 0;
    const range = enrollmentRange(expected, models.intervals, littleHistory);
    return {
      course,
      facts: f,
      confidence: calibrate(confidence[i] ?? 0, models.calibration),
      enrollment: expected,
      enrollmentLow: range.low,
      enrollmentHigh: range.high,
      littleHistory,
    };
  });
}
