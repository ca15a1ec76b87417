/** Quality measures of a binary scorer, and the demand forecast's error. */

/** Area under the ROC curve (Mann–Whitney with ties counted half); null with a single class. */
export function rocAuc(scores: ArrayLike<number>, labels: ArrayLike<number>): number | null {
  const items = Array.from({ length: scores.length }, (_, i) => ({ s: scores[i] ?? 0, y: labels[i] ?? 0 })).sort((a, b) => a.s - b.s);
  let positives = 0;
  let rankSum = 0;
  for (let i = 0; i < items.length;) {
    let j = i;
    while (j < items.length && items[j]?.s === items[i]?.s) j++;
    const averageRank = (i + j + 1) / 2;
    for (let k = i; k < j; k++) {
      if (items[k]?.y === 1) {
        positives++;
        rankSum += averageRank;
      }
    }
    i = j;
  }
  const negatives = items.length - positives;
  if (positives === 0 || negatives === 0) return null;
  return (rankSum - (positives * (positives + 1)) / 2) / (positives * negatives);
}

export function f1Score(scores: ArrayLike<number>, labels: ArrayLike<number>, threshold: number): number {
  let tp = 0;
  let fp = 0;
  let fn = 0;
  for (let i = 0; i < scores.length; i++) {
    const predicted = (scores[i] ?? 0) >= threshold;
    const actual = labels[i] === 1;
    if (predicted && actual) tp++;
    else if (predicted) fp++;
    else if (actual) fn++;
  }
  return tp === 0 ? 0 : (2 * tp) / (2 * tp + fp + fn);
}

/** The threshold that maximises F1 on held-out scores (0.5 when nothing can be learned). */
export function bestThreshold(scores: ArrayLike<number>, labels: ArrayLike<number>): { threshold: number; f1: number } {
  const candidates = [...new Set(Array.from(scores))].sort((a, b) => a - b);
  let best = { threshold: 0.5, f1: f1Score(scores, labels, 0.5) };
  for (const c of candidates) {
    const f1 = f1Score(scores, labels, c);
    if (f1 > best.f1 + 1e-12) best = { threshold: c, f1 };
  }
  return best;
}

/** Weighted absolute percentage error: Σ|forecast − actual| / Σ actual. */
export function wape(forecast: readonly number[], actual: readonly number[]): number {
  let error = 0;
  let total = 0;
  actual.forEach((a, i) => {
    error += Math.abs((forecast[i] ?? 0) - a);
    total += a;
  });
  return total === 0 ? 0 : error / total;
}
