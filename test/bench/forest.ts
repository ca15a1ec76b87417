import { RandomForestClassifier } from 'ml-random-forest';
import { FEATURE_COUNT } from '../../core/predict/features';
import { campusHistory, termsWithData, type History } from '../../core/predict/planning-view';
import { f1Score, rocAuc } from '../../core/predict/metrics';
import { buildDataset, WARMUP_TERMS } from '../../core/predict/train';

/**
 * The design card's alternative, measured for the decision: ml-random-forest on quantile-binned
 * features (16 bins, so each split scans 16 thresholds rather than every distinct value), with
 * class probability computed from every tree's vote (its predictProbability drops the first).
 */
const BINS = 16;

function binEdges(features: Float32Array, rows: number): number[][] {
  const edges: number[][] = [];
  for (let f = 0; f < FEATURE_COUNT; f++) {
    const column = Array.from({ length: rows }, (_, r) => features[r * FEATURE_COUNT + f] ?? 0).sort((a, b) => a - b);
    edges.push([...new Set(Array.from({ length: BINS - 1 }, (_, b) => column[Math.floor(((b + 1) * rows) / BINS)] ?? 0))]);
  }
  return edges;
}

function binned(features: Float32Array, rows: number, edges: number[][]): number[][] {
  return Array.from({ length: rows }, (_, r) =>
    Array.from({ length: FEATURE_COUNT }, (_, f) => {
      const v = features[r * FEATURE_COUNT + f] ?? 0;
      const e = edges[f] ?? [];
      let bin = 0;
      while (bin < e.length && v > (e[bin] ?? 0)) bin++;
      return bin;
    }),
  );
}

export async function forestBacktest(history: History, terms = 6): Promise<{ roc_auc: number; f1: number; trainSeconds: number }> {
  const aucs: number[] = [];
  const f1s: number[] = [];
  let trainMs = 0;
  for (const campus of Object.keys(history.campuses)) {
    const dataTerms = termsWithData(campusHistory(history, campus));
    for (const t of dataTerms.slice(-terms)) {
      const targets = dataTerms.filter((x) => x < t).slice(WARMUP_TERMS);
      const train = buildDataset(history, campus, targets);
      const test = buildDataset(history, campus, [t]);
      const edges = binEdges(train.features, train.rows);
      const started = performance.now();
      const forest = new RandomForestClassifier({
        nEstimators: 100,
        maxFeatures: 0.7,
        seed: 3,
        noOOB: true,
        useSampleBagging: true,
        treeOptions: { maxDepth: 8, minNumSamples: 3 },
      });
      forest.train(binned(train.features, train.rows, edges), Array.from(train.labels));
      trainMs += performance.now() - started;
      const votes = forest.predictionValues(binned(test.features, test.rows, edges));
      const probability = Array.from({ length: test.rows }, (_, r) => {
        const row = votes.getRow(r);
        return row.filter((v) => v === 1).length / row.length;
      });
      aucs.push(rocAuc(probability, test.labels) ?? 0.5);
      f1s.push(f1Score(probability, test.labels, 0.5));
      await Promise.resolve();
    }
  }
  const mean = (v: number[]): number => v.reduce((a, b) => a + b, 0) / v.length;
  return { roc_auc: mean(aucs), f1: mean(f1s), trainSeconds: trainMs / 1000 };
}
