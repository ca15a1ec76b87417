/**
 * Demand (expected enrollment if offered): forecast on the log scale relative to the course's
 * baseline (CourseFacts.demandBase), with an 80 % interval learnt from how far the forecasts of
 * the held-out training terms were from what happened.
 */

/** The model's target for an offering: how far, on the log scale, enrollment moved from the baseline. */
export function demandTarget(enrolled: number, base: number): number {
  return Math.log1p(enrolled) - Math.log1p(base);
}

/** Expected enrollment from the baseline and the model's predicted log move. */
export function demandForecast(base: number, predictedMove: number): number {
  return Math.max(0, Math.expm1(Math.log1p(base) + predictedMove));
}

/** Share of actual enrollments the interval is meant to hold. */
export const INTERVAL_COVERAGE = 0.8;

/** Log-scale residual quantiles (actual vs forecast) bounding the interval, per kind of course. */
export interface IntervalBounds {
  low: number;
  high: number;
}

export interface DemandIntervals {
  /** Courses offered at least LITTLE_HISTORY times before. */
  established: IntervalBounds;
  /** Courses offered fewer times: their forecasts miss by more. */
  little_history: IntervalBounds;
}

/** A course offered fewer times than this before the term has "little history". */
const LITTLE_HISTORY = 3;

export function hasLittleHistory(timesOffered: number): boolean {
  return timesOffered < LITTLE_HISTORY;
}
/** Fewest held-out residuals a kind of course needs for its own bounds; else all residuals are used. */
const MIN_RESIDUALS = 20;
/** Used only when there is nothing to learn from (no held-out offerings at all): a wide ±50 %. */
const FALLBACK: IntervalBounds = { low: Math.log(0.5), high: Math.log(1.5) };

export interface Residual {
  /** log1p(actual) − log1p(forecast) */
  value: number;
  littleHistory: boolean;
}

export function residual(actual: number, forecast: number, littleHistory: boolean): Residual {
  return { value: Math.log1p(actual) - Math.log1p(forecast), littleHistory };
}

/** The q-quantile of sorted values, interpolated between neighbours (q = 0.5: the median). */
export function quantile(sorted: readonly number[], q: number): number {
  if (sorted.length === 0) return 0;
  const position = q * (sorted.length - 1);
  const lower = Math.floor(position);
  const upper = Math.ceil(position);
  return (sorted[lower] ?? 0) + ((sorted[upper] ?? 0) - (sorted[lower] ?? 0)) * (position - lower);
}

function bounds(values: readonly number[]): IntervalBounds {
  if (values.length === 0) return FALLBACK;
  const sorted = [...values].sort((a, b) => a - b);
  const tail = (1 - INTERVAL_COVERAGE) / 2;
  return { low: Math.min(0, quantile(sorted, tail)), high: Math.max(0, quantile(sorted, 1 - tail)) };
}

/** The interval bounds from held-out residuals (split conformal prediction on the log scale). */
export function fitIntervals(residuals: readonly Residual[]): DemandIntervals {
  const all = residuals.map((r) => r.value);
  const of = (little: boolean): IntervalBounds => {
    const group = residuals.filter((r) => r.littleHistory === little).map((r) => r.value);
    return bounds(group.length >= MIN_RESIDUALS ? group : all);
  };
  return { established: of(false), little_history: of(true) };
}

export const FALLBACK_INTERVALS: DemandIntervals = { established: FALLBACK, little_history: FALLBACK };

/** The 80 % interval around a forecast, in whole students. */
export function enrollmentRange(forecast: number, intervals: DemandIntervals, littleHistory: boolean): { low: number; high: number } {
  const b = littleHistory ? intervals.little_history : intervals.established;
  const center = Math.log1p(Math.max(0, forecast));
  return { low: Math.max(0, Math.floor(Math.expm1(center + b.low))), high: Math.max(0, Math.ceil(Math.expm1(center + b.high))) };
}
