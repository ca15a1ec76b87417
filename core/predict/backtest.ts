import { termLabel } from '../domain/terms';
import type { Campus } from '../domain/campuses';
import { type courseFacts } from './features';
import { campusHistory, termAt, termsWithData, type History } from './planning-view';
import { f1Score, rocAuc, wape } from './metrics';
import { scoreCourses, trainCampus } from './train';

/**
 * Walk-forward backtest: for each of the last N Fall/Spring terms of a campus, train only on
 * the terms before it and score it, against two baselines a scheduler could use by hand.
 */
export interface ScorerResult {
  roc_auc: number;
  f1: number;
}

export interface TermResult {
  campus: Campus;
  term: string;
  model: ScorerResult;
  sameSemesterLastYear: ScorerResult;
  recencyFrequency: ScorerResult;
  wapeModel: number;
  wapeNaive: number;
  /** Share of the offered courses whose actual enrollment fell inside the model's 80 % interval. */
  intervalCoverage: number;
  /** Every course's confidence and whether it was offered, to measure calibration over many terms. */
  predictions: { confidence: number; offered: boolean }[];
}

/** Baseline 1: offered in the same semester last year. */
export function sameSemesterLastYearScore(facts: ReturnType<typeof courseFacts>): number {
  return facts.sameSemester[0] ? 1 : 0;
}

/** Baseline 2: share of the last four same-semester terms offered, plus half of "offered last term". */
export function recencyFrequencyScore(facts: ReturnType<typeof courseFacts>): number {
  return facts.sameSemester.filter(Boolean).length / 4 + (facts.offeredLastTerm ? 0.5 : 0);
}

/** Baselines decide "offer" at a fixed 0.5: a course they score at least half-way in. */
const BASELINE_THRESHOLD = 0.5;

export async function backtest(history: History, terms = 6, campuses: readonly Campus[] = Object.keys(history.campuses)): Promise<TermResult[]> {
  const results: TermResult[] = [];
  for (const campus of campuses) {
    const dataTerms = termsWithData(campusHistory(history, campus));
    for (const t of dataTerms.slice(-terms)) {
      const trained = await trainCampus(history, campus, undefined, t);
      if (!trained) continue;
      const scores = scoreCourses(trained.models, history, campus, t);
      trained.models.classifier.free();
      trained.models.regressor?.free();
      const labels = scores.map((s) => (campusHistory(history, campus).stats.get(s.course.code)?.[t]?.offered ? 1 : 0));
      const evaluate = (values: number[], threshold: number): ScorerResult => ({
        roc_auc: rocAuc(values, labels) ?? 0.5,
        f1: f1Score(values, labels, threshold),
      });
      const actual: number[] = [];
      const forecast: number[] = [];
      const naive: number[] = [];
      let covered = 0;
      scores.forEach((s) => {
        const outcome = campusHistory(history, campus).stats.get(s.course.code)?.[t];
        if (!outcome?.offered || outcome.enrolled === 0) return;
        actual.push(outcome.enrolled);
        forecast.push(s.enrollment);
        naive.push(s.facts.sameSemesterLastYearEnrollment || (s.facts.recentEnrollment.at(-1) ?? 0));
        if (outcome.enrolled >= s.enrollmentLow && outcome.enrolled <= s.enrollmentHigh) covered++;
      });
      const term = termAt(history.baseYear, t);
      results.push({
        campus,
        term: termLabel(term),
        model: evaluate(
          scores.map((s) => s.confidence),
          trained.trained.threshold,
        ),
        sameSemesterLastYear: evaluate(
          scores.map((s) => sameSemesterLastYearScore(s.facts)),
          BASELINE_THRESHOLD,
        ),
        recencyFrequency: evaluate(
          scores.map((s) => recencyFrequencyScore(s.facts)),
          BASELINE_THRESHOLD,
        ),
        wapeModel: wape(forecast, actual),
        wapeNaive: wape(naive, actual),
        intervalCoverage: actual.length > 0 ? covered / actual.length : 0,
        predictions: scores.map((s, i) => ({ confidence: s.confidence, offered: labels[i] === 1 })),
      });
    }
  }
  return results;
}
