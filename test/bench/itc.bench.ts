import { readdirSync, readFileSync } from 'node:fs';
import { REAL_DATA_DIR, realDataFile } from '../helpers/real-data';
import { readItcProblem } from '../../core/solver/itc-reader';
import { solveInWorker } from '../../core/solver/run';
import { record } from './report';

/**
 * Issue 28: the solver on the International Timetabling Competition 2019 problems in
 * ../shared/data/itc2019/ (or those named): `npm run bench -- itc [name ...] [--seconds N] [--seed S]`,
 * 600 s each by default, one at a time in a worker thread, nothing else running. Prints, per
 * problem, whether the timetable is valid, its hard violations, the time to the first valid one,
 * the four penalty parts, the weighted total, the best-known total and the gap.
 */
const BEST_KNOWN: Record<string, number> = {
  'bet-fal17': 289_452,
  'mary-spr17': 14_910,
  'muni-fi-spr16': 3_752,
  'muni-fsps-spr17': 868,
  'tg-fal17': 4_215,
};
const DEMO_TARGET_S = 60;
const VALID_TARGET_S = 600;
const PEAK_MEMORY_TARGET_MB = 2048;

/** The process's resident memory (the solver's worker thread lives in it), sampled while a solve runs. */
function sampleMemoryPeak(): { stop: () => number } {
  let peak = process.memoryUsage.rss();
  const timer = setInterval(() => {
    peak = Math.max(peak, process.memoryUsage.rss());
  }, 200);
  return {
    stop: () => {
      clearInterval(timer);
      return Math.round(Math.max(peak, process.memoryUsage.rss()) / 2 ** 20);
    },
  };
}

function option(name: string, fallback: number): number {
  const at = process.argv.indexOf(`--${name}`);
  const value = at >= 0 ? Number(process.argv[at + 1]) : fallback;
  return Number.isFinite(value) && value > 0 ? value : fallback;
}

export async function benchItc(): Promise<void> {
  const folder = realDataFile('itc2019/README.md') === null ? null : `${REAL_DATA_DIR}itc2019/`;
  if (folder === null) return;
  const seconds = option('seconds', 600);
  const seed = option('seed', 1);
  const all = readdirSync(folder)
    .filter((f) => f.endsWith('.xml'))
    .map((f) => f.slice(0, -4))
    .sort();
  const named = all.filter((name) => process.argv.includes(name));
  const problems = named.length > 0 ? named : all;
  console.log(`ITC 2019 problems (${seconds} s each, seed ${seed}, one worker thread, nothing else running)`);
  const rows: string[] = [];
  const gaps: number[] = [];
  for (const name of problems) {
    const problem = readItcProblem(readFileSync(`${folder}${name}.xml`, 'utf8'));
    const started = performance.now();
    const peak = sampleMemoryPeak();
    const result = await solveInWorker(problem, { timeBudgetMs: seconds * 1000, seed }).result;
    const peakMb = peak.stop();
    const s = result.score;
    const best = BEST_KNOWN[name];
    const gap = best === undefined || !s.valid ? null : (s.total - best) / best;
    if (gap !== null) gaps.push(gap);
    const firstValid = result.firstValidMs === null ? null : result.firstValidMs / 1000;
    record({
      name: `${name}: time to the first valid timetable`,
      value: firstValid ?? Number.POSITIVE_INFINITY,
      unit: 's',
      target: best === undefined ? DEMO_TARGET_S : VALID_TARGET_S,
      note: s.valid
        ? `valid; total ${s.total.toLocaleString('en')}`
        : `NOT valid: ${s.hardCount} hard violations (${s.hard
            .slice(0, 2)
            .map((h) => h.message)
            .join('; ')})`,
    });
    record({ name: `${name}: peak memory (process, solver worker included)`, value: peakMb, unit: 'MB', target: PEAK_MEMORY_TARGET_MB });
    if (gap !== null)
      record({
        name: `${name}: total / best-known`,
        value: s.total / (best as number),
        unit: '×',
        target: 2,
        note: `${s.total.toLocaleString('en')} vs ${(best as number).toLocaleString('en')}`,
      });
    rows.push(
      `| ${name} | ${s.valid ? 'yes' : 'no'} | ${s.hardCount} | ${firstValid === null ? '–' : firstValid.toFixed(1)} | ${s.time} | ${s.room} | ${s.distribution} | ${s.student} | ${s.total.toLocaleString('en')} | ${best === undefined ? '–' : best.toLocaleString('en')} | ${gap === null ? '–' : `${(gap * 100).toFixed(0)} %`} | ${peakMb.toLocaleString('en')} |`,
    );
    console.log(`  (${name}: ${((performance.now() - started) / 1000).toFixed(0)} s, ${result.iterations.toLocaleString('en')} iterations, peak ${peakMb} MB)`);
  }
  console.log('\n| problem | valid | hard violations | first valid (s) | time | room | distribution | student | total | best known | gap | peak MB |');
  console.log('|---|---|---|---|---|---|---|---|---|---|---|---|');
  for (const row of rows) console.log(row);
  if (gaps.length > 0)
    console.log(
      `\nmean gap over the ${gaps.length} competition problems with a best-known total: ${((gaps.reduce((a, b) => a + b, 0) / gaps.length) * 100).toFixed(0)} %`,
    );
}
