import type { Core } from '../../core/index';
import { withTempCore } from './temp-core';
import { backtest, type TermResult } from '../../core/predict/backtest';
import { loadHistory } from '../../core/predict/planning-view';
import { generateSample } from '../../core/sample/generate';
import { coursesJson, offeringsCsv } from '../../core/sample/files';
import { sampleFile } from '../helpers/server';
import { forestBacktest } from './forest';
import { percentile, record, timed } from './report';

async function loadSampleHistory(core: Core): Promise<void> {
  await core.run('courses-upload', { file: { filename: 'courses.json', content: sampleFile('courses.json') } });
  await core.run('offerings-upload', { file: { filename: 'offerings.csv', content: sampleFile('offerings.csv') } });
}

const mean = (results: TermResult[], pick: (r: TermResult) => number): number => results.reduce((sum, r) => sum + pick(r), 0) / results.length;

/** Issue 3: backtest against baselines, training and run times, and training at 10× scale. */
export async function benchPredict(): Promise<void> {
  console.log('Recommendation engine');
  await withTempCore('predict', async (core) => {
    await loadSampleHistory(core);
    const trainRun = await timed(() => core.run('predict-train', {}));
    record({
      name: 'train both campuses on the sample data (worker thread, end to end)',
      value: trainRun.ms / 1000,
      unit: 's',
      target: 2,
      note: `${trainRun.result.samples_trained} samples`,
    });
    const runs: number[] = [];
    for (let i = 0; i < 12; i++) {
      const r = await timed(() =>
        core.run('predict-bulk', { run_name: `bench ${i}`, target_year: 2025, target_semester: 'Spring', target_campus: i % 2 ? 'Beirut' : 'Byblos' }),
      );
      if (i >= 2) runs.push(r.ms);
    }
    record({ name: 'bulk run over the 117-course catalog (median of 10, saved)', value: percentile(runs, 50), unit: 'ms', target: 30 });

    const history = await loadHistory(core.context.db, core.context.department, core.context.campuses.names);
    const bt = await timed(() => backtest(history, 6));
    const results = bt.result;
    console.log(`  walk-forward backtest, last 6 Fall/Spring terms × 2 campuses (${results.length} trainings, ${(bt.ms / 1000).toFixed(1)} s):`);
    console.log('    term            model AUC/F1   same-sem-last-year AUC/F1   recency-frequency AUC/F1   WAPE model/naive');
    for (const r of results) {
      console.log(
        `    ${`${r.campus} ${r.term}`.padEnd(18)} ${r.model.roc_auc.toFixed(3)}/${r.model.f1.toFixed(3)}    ${r.sameSemesterLastYear.roc_auc.toFixed(3)}/${r.sameSemesterLastYear.f1.toFixed(3)}                 ${r.recencyFrequency.roc_auc.toFixed(3)}/${r.recencyFrequency.f1.toFixed(3)}                ${r.wapeModel.toFixed(3)}/${r.wapeNaive.toFixed(3)}`,
      );
    }
    record({ name: 'backtest mean ROC-AUC: model', value: mean(results, (r) => r.model.roc_auc), unit: '' });
    record({ name: 'backtest mean ROC-AUC: same semester last year', value: mean(results, (r) => r.sameSemesterLastYear.roc_auc), unit: '' });
    record({ name: 'backtest mean ROC-AUC: recency-frequency', value: mean(results, (r) => r.recencyFrequency.roc_auc), unit: '' });
    record({ name: 'backtest mean F1: model', value: mean(results, (r) => r.model.f1), unit: '' });
    record({ name: 'backtest mean F1: same semester last year', value: mean(results, (r) => r.sameSemesterLastYear.f1), unit: '' });
    record({ name: 'backtest mean F1: recency-frequency', value: mean(results, (r) => r.recencyFrequency.f1), unit: '' });
    record({ name: 'backtest demand WAPE: model', value: mean(results, (r) => r.wapeModel), unit: '' });
    record({ name: 'backtest demand WAPE: naive same semester last year', value: mean(results, (r) => r.wapeNaive), unit: '' });
    const beats =
      mean(results, (r) => r.model.roc_auc) >
        Math.max(
          mean(results, (r) => r.sameSemesterLastYear.roc_auc),
          mean(results, (r) => r.recencyFrequency.roc_auc),
        ) &&
      mean(results, (r) => r.model.f1) >
        Math.max(
          mean(results, (r) => r.sameSemesterLastYear.f1),
          mean(results, (r) => r.recencyFrequency.f1),
        ) &&
      mean(results, (r) => r.wapeModel) < mean(results, (r) => r.wapeNaive);
    record({
      name: 'model beats both baselines on ROC-AUC and F1, and the naive forecast on WAPE (1 = yes)',
      value: beats ? 1 : 0,
      unit: '',
      target: undefined,
    });
    if (!beats) console.log('  ✗ the model does NOT beat the baselines');
  });

  await withTempCore('predict-24x', async (big) => {
    const data = generateSample({ copies: 24 });
    await big.run('courses-upload', { file: { filename: 'courses.json', content: Buffer.from(coursesJson(data)) } });
    await big.run('offerings-upload', { file: { filename: 'offerings.csv', content: Buffer.from(offeringsCsv(data)) } });
    let peak = process.memoryUsage().rss;
    const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 25);
    const before = process.memoryUsage().rss;
    const trained = await timed(() => big.run('predict-train', {}));
    clearInterval(sampler);
    record({
      name: `train on a 24× synthetic history (${trained.result.samples_trained.toLocaleString('en')} samples)`,
      value: trained.ms / 1000,
      unit: 's',
      target: 10,
    });
    record({
      name: '  peak resident memory of the process during that training',
      value: peak / 2 ** 20,
      unit: 'MiB',
      note: `${((peak - before) / 2 ** 20).toFixed(0)} MiB above the level before`,
    });
  });
}

/**
 * Opt-in (npm run bench -- forest): ml-random-forest on binned features over the same backtest
 * terms. It takes minutes per training, which is why XGBoost was chosen; one term per campus.
 */
export async function benchForest(): Promise<void> {
  console.log('ml-random-forest comparison (last term per campus)');
  await withTempCore('forest', async (core) => {
    await loadSampleHistory(core);
    const history = await loadHistory(core.context.db, core.context.department, core.context.campuses.names);
    const forest = await forestBacktest(history, 1);
    const boosted = await backtest(history, 1);
    record({
      name: 'random forest (100 trees, binned) mean ROC-AUC / F1',
      value: forest.roc_auc,
      unit: '',
      note: `F1 ${forest.f1.toFixed(3)}, ${forest.trainSeconds.toFixed(0)} s of training for 2 models`,
    });
    record({
      name: 'XGBoost on the same terms mean ROC-AUC / F1',
      value: mean(boosted, (r) => r.model.roc_auc),
      unit: '',
      note: `F1 ${mean(boosted, (r) => r.model.f1).toFixed(3)}`,
    });
  });
}
