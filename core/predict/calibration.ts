/**
 * Confidence calibration (Platt scaling): a logistic map of the classifier's score, fitted on the
 * held-out training terms, so that a confidence of 0.8 is right about 80 % of the time there.
 */
export interface Calibration {
  /** calibrated = σ(slope · logit(score) + intercept) */
  slope: number;
  intercept: number;
}

export const UNCALIBRATED: Calibration = { slope: 1, intercept: 0 };

/** Scores are clipped away from 0 and 1 so their logit stays finite. */
const EDGE = 1e-4;
const ITERATIONS = 50;
/** A light ridge on the slope and intercept, so a held-out set without errors cannot send them to infinity. */
const RIDGE = 1e-3;

function logit(p: number): number {
  const q = Math.min(1 - EDGE, Math.max(EDGE, p));
  return Math.log(q / (1 - q));
}

function sigmoid(x: number): number {
  return 1 / (1 + Math.exp(-x));
}

export function calibrate(score: number, calibration: Calibration): number {
  return sigmoid(calibration.slope * logit(score) + calibration.intercept);
}

/**
 * Fits the map by Newton's method on the log-loss (a bounded number of steps). Returns the
 * identity when the held-out labels have a single class: there is nothing to calibrate against.
 */
export function fitCalibration(scores: ArrayLike<number>, labels: ArrayLike<number>): Calibration {
  const n = scores.length;
  let positives = 0;
  for (let i = 0; i < n; i++) positives += labels[i] === 1 ? 1 : 0;
  if (positives === 0 || positives === n) return UNCALIBRATED;
  const x = Array.from({ length: n }, (_, i) => logit(scores[i] ?? 0));
  let a = 1;
  let b = 0;
  for (let iteration = 0; iteration < ITERATIONS; iteration++) {
    // Gradient and Hessian of the mean log-loss plus the ridge, in (a, b).
    let ga = RIDGE * (a - 1);
    let gb = RIDGE * b;
    let haa = RIDGE;
    let hab = 0;
    let hbb = RIDGE;
    for (let i = 0; i < n; i++) {
      const xi = x[i] ?? 0;
      const p = sigmoid(a * xi + b);
      const error = (p - (labels[i] === 1 ? 1 : 0)) / n;
      const weight = (p * (1 - p)) / n;
      ga += error * xi;
      gb += error;
      haa += weight * xi * xi;
      hab += weight * xi;
      hbb += weight;
    }
    const det = haa * hbb - hab * hab;
    if (!(det > 1e-12)) break;
    const da = (hbb * ga - hab * gb) / det;
    const db = (haa * gb - hab * ga) / det;
    a -= da;
    b -= db;
    if (Math.abs(da) + Math.abs(db) < 1e-9) break;
  }
  return Number.isFinite(a) && Number.isFinite(b) ? { slope: a, intercept: b } : UNCALIBRATED;
}

/**
 * Expected calibration error: the mean gap between confidence and the observed rate over ten equal
 * confidence bins, weighted by how many predictions fall in each.
 */
export function expectedCalibrationError(confidence: ArrayLike<number>, labels: ArrayLike<number>, bins = 10): number {
  const sums = Array.from({ length: bins }, () => ({ n: 0, confidence: 0, positives: 0 }));
  for (let i = 0; i < confidence.length; i++) {
    const c = confidence[i] ?? 0;
    const bin = sums[Math.min(bins - 1, Math.floor(c * bins))];
    if (!bin) continue;
    bin.n++;
    bin.confidence += c;
    bin.positives += labels[i] === 1 ? 1 : 0;
  }
  let error = 0;
  for (const bin of sums) if (bin.n > 0) error += (bin.n / confidence.length) * Math.abs(bin.confidence / bin.n - bin.positives / bin.n);
  return error;
}
