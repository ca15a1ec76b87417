import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { REAL_DATA_DIR, realDataFile } from '../helpers/real-data';
import { readItcProblem } from '../../core/solver/itc-reader';
import { solveInWorkers } from '../../core/solver/run';
import { EMPHASIS_RULES, emphasisRule } from '../../core/solver/emphasis';
import type { Weights } from '../../core/solver/model';
import { record } from './report';
import { GENERATED_PROBLEMS as GENERATED, referenceFor, referenceTotals, UNLIKE } from './itc-problems';
import { regressionTable, writeRegressionTable, type ProblemTotals } from './regression-table';

/**
 * The solver on the International Timetabling Competition 2019 problems in ../shared/data/itc2019/
 * (or those named): `npm run bench -- itc [name ...] [--seconds N] [--seeds K] [--first-seed F] [--moves M] [--threads T] [--independent] [--alone]
 * [--adaptive] [--emphasis remaining] [--weigh part=N ...]`,
 * one problem and one seed at a time, in T search threads (1 by default; 2 is a portfolio whose
 * threads search seeds s and s + 7,919 and share their best timetables at the end of each round,
 * or with `--independent` search on their own, answering the better), nothing else running. `--seconds` is the
 * wall-clock budget (600 by default); `--moves` gives a move budget instead (the result then depends
 * on the seed alone; the seconds still cap it); seeds F..F+K−1 (K and F 1 by default: a long comparison
 * runs its seeds in parts, one part per core). Prints, per problem, how
 * many runs were valid, the best, mean and worst total and gap to the best-known total, the time to
 * the first valid timetable, the time to reach within 1 % of the run's final total, the moves made
 * and the peak memory; with several threads, what one thread finds at the same wall time: the
 * first thread's own answer when they are independent, or with `--alone` a one-thread run of each
 * seed after the portfolio's (twice the bench's time). `--weigh distribution=20` (repeatable; parts
 * time, room, distribution, student) solves the problems under other weights than their own, as a
 * university the solver was never tuned on may weigh the same kind of problem: a check of a change
 * beyond the weights it was measured under (the best-known totals are for the problems' own weights,
 * so no gap is given then). `generated-large`, named only, is a generated problem larger than the
 * shared ones (3,267 classes, 400 rooms, 15,000 students: `largeProblemXml` in test/helpers/itc-generated.ts).
 * The UNLIKE problems, generated unlike the shared ones, are solved beside them unless problems are named.
 * `--write-problems DIR` writes the generated problems' files there (for UniTime's solver, see
 * test/bench/README.md) and solves nothing. `--write-table` (with `--moves`) writes the totals seed
 * by seed into the regression table of docs/solver.md (test/bench/regression-table.ts). Each problem's row shows beside Termwise's mean the mean of
 * the reference totals in test/bench/itc-reference.json for the same budget and seeds (UniTime's
 * cpsolver-itc2019, produced as the README says), and whether Termwise is ahead.
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

const PARTS: readonly (keyof Weights)[] = ['time', 'room', 'distribution', 'student'];

/** The weights `--weigh part=N` asks for instead of a problem's own (none: its own). */
function reweighing(): Partial<Weights> {
  const asked: Partial<Weights> = {};
  process.argv.forEach((arg, at) => {
    if (arg !== '--weigh') return;
    const [part, value] = (process.argv[at + 1] ?? '').split('=');
    const weight = Number(value);
    if (!PARTS.includes(part as keyof Weights) || !Number.isInteger(weight) || weight < 0)
      throw new Error(`--weigh: part=N, a part of ${PARTS.join(', ')} and a whole number`);
    asked[part as keyof Weights] = weight;
  });
  return asked;
}

const mean = (values: readonly number[]): number => values.reduce((a, b) => a + b, 0) / Math.max(1, values.length);
const fixed = (value: number | null, digits = 1): string => (value === null || !Number.isFinite(value) ? '–' : value.toFixed(digits));

/** When a run's best total first came within 1 % of its final total (seconds), from its progress. */
function settledAt(progress: readonly { s: number; best: number }[], final: number): number | null {
  return progress.find((p) => p.best <= final * 1.01)?.s ?? null;
}

interface SeedRun {
  valid: boolean;
  total: number;
  /** What the first thread alone found (its seed is the run's): one thread at the same wall time. */
  alone: { valid: boolean; total: number } | null;
  firstValid: number | null;
  settled: number | null;
  moves: number;
  peakMb: number;
  hard: string;
}

export async function benchItc(): Promise<void> {
  const folder = realDataFile('itc2019/README.md') === null ? null : `${REAL_DATA_DIR}itc2019/`;
  if (folder === null) return;
  const seconds = option('seconds', 600);
  const seeds = option('seeds', 1);
  const firstSeed = option('first-seed', 1);
  const lastSeed = firstSeed + seeds - 1;
  const moves = option('moves', 0);
  const threads = option('threads', 1);
  const moveChoice = process.argv.includes('--adaptive') ? 'adaptive' : 'fixed';
  const emphasis = process.argv.includes('--emphasis') ? emphasisRule(process.argv[process.argv.indexOf('--emphasis') + 1]) : 'fixed';
  if (emphasis === undefined) throw new Error(`--emphasis: one of ${EMPHASIS_RULES.join(', ')}`);
  const portfolio = process.argv.includes('--independent') ? 'independent' : 'sharing';
  const runAlone = threads > 1 && portfolio === 'sharing' && process.argv.includes('--alone');
  const reweighed = reweighing();
  const weighedAs = Object.entries(reweighed)
    .map(([part, weight]) => `${part} ${weight}`)
    .join(', ');
  const all = readdirSync(folder)
    .filter((f) => f.endsWith('.xml'))
    .map((f) => f.slice(0, -4))
    .sort();
  const writeTo = process.argv.includes('--write-problems') ? process.argv[process.argv.indexOf('--write-problems') + 1] : undefined;
  if (writeTo !== undefined) {
    mkdirSync(writeTo, { recursive: true });
    for (const [name, xml] of Object.entries(GENERATED)) writeFileSync(`${writeTo}/${name}.xml`, xml());
    console.log(`generated problems written to ${writeTo}: ${Object.keys(GENERATED).join(', ')}`);
    return;
  }
  const named = [...all, ...Object.keys(GENERATED)].filter((name) => process.argv.includes(name));
  const problems = named.length > 0 ? named : [...all, ...Object.keys(UNLIKE)];
  const references = referenceTotals();
  const seedList = Array.from({ length: seeds }, (_, k) => firstSeed + k);
  const budget = moves > 0 ? `${moves.toLocaleString('en')} moves (at most ${seconds} s)` : `${seconds} s`;
  console.log(
    `ITC 2019 problems (${budget} each, seeds ${firstSeed}–${lastSeed}, ${threads === 1 ? '1 search thread' : `${threads} search threads, ${portfolio}`}, moves ${moveChoice}, emphasis ${emphasis}${weighedAs ? `, weighed ${weighedAs} instead of their own` : ''}, nothing else running)`,
  );
  const writeTable = process.argv.includes('--write-table');
  if (writeTable && moves === 0) throw new Error('--write-table needs --moves: the regression table is at a move budget, where a seed gives one answer');
  const rows: string[] = [];
  const tableRows: ProblemTotals[] = [];
  const meanGaps: number[] = [];
  /** The same for the first thread alone (one thread at the same wall time), when there are several. */
  const aloneGaps: number[] = [];
  for (const file of problems) {
    const own = readItcProblem(GENERATED[file]?.() ?? readFileSync(`${folder}${file}.xml`, 'utf8'));
    const problem = weighedAs ? { ...own, weights: { ...own.weights, ...reweighed } } : own;
    const name = weighedAs ? `${file} (${weighedAs})` : file;
    const runs: SeedRun[] = [];
    for (let seed = firstSeed; seed <= lastSeed; seed++) {
      const started = performance.now();
      const peak = sampleMemoryPeak();
      const progress: { s: number; best: number }[] = [];
      const settings = { timeBudgetMs: seconds * 1000, seed, ...(moves > 0 ? { maxIterations: moves } : {}), moveChoice, emphasis } as const;
      const result = await solveInWorkers(
        problem,
        {
          ...settings,
          onProgress: (p) => {
            if (p.bestTotal !== null) progress.push({ s: (performance.now() - started) / 1000, best: p.bestTotal });
          },
        },
        threads,
        portfolio,
      ).result;
      const peakMb = peak.stop();
      const s = result.score;
      const alone = runAlone ? (await solveInWorkers(problem, settings, 1).result).score : null;
      runs.push({
        valid: s.valid,
        total: s.total,
        alone: alone ?? (portfolio === 'independent' ? result.threads?.[0] : undefined) ?? (threads === 1 ? { valid: s.valid, total: s.total } : null),
        firstValid: result.firstValidMs === null ? null : result.firstValidMs / 1000,
        settled: s.valid ? settledAt(progress, s.total) : null,
        moves: result.iterations,
        peakMb,
        hard: s.hard
          .slice(0, 2)
          .map((h) => h.message)
          .join('; '),
      });
      console.log(
        `  (${name}, seed ${seed}: ${s.valid ? `valid, total ${s.total.toLocaleString('en')}` : `NOT valid: ${s.hardCount} hard violations`}, ${((performance.now() - started) / 1000).toFixed(0)} s, ${result.iterations.toLocaleString('en')} moves; ${result.neighbourhoods.map((n) => `${n.name} ${n.improving}/${n.attempts}`).join(', ')})`,
      );
    }
    const best = weighedAs ? undefined : BEST_KNOWN[file];
    tableRows.push({ name, totals: runs.map((r) => (r.valid ? r.total : null)), bestKnown: best });
    const valid = runs.filter((r) => r.valid);
    const totals = valid.map((r) => r.total);
    const gaps = best === undefined ? [] : totals.map((t) => (t - best) / best);
    if (gaps.length > 0) meanGaps.push(mean(gaps));
    const aloneTotals = runs.flatMap((r) => (r.alone?.valid === true ? [r.alone.total] : []));
    const aloneGap = best === undefined || aloneTotals.length === 0 ? undefined : mean(aloneTotals.map((t) => (t - best) / best));
    if (aloneGap !== undefined) aloneGaps.push(aloneGap);
    const firstValid = runs.map((r) => r.firstValid ?? Number.POSITIVE_INFINITY);
    const peakMb = Math.max(...runs.map((r) => r.peakMb));
    record({
      name: `${name}: time to the first valid timetable (slowest seed)`,
      value: Math.max(...firstValid),
      unit: 's',
      // A competition problem's budget to validity, whatever it is weighed by (weights do not make it harder to hold).
      target: BEST_KNOWN[file] === undefined ? DEMO_TARGET_S : VALID_TARGET_S,
      note:
        valid.length === runs.length
          ? `valid with every seed; totals ${totals.map((t) => t.toLocaleString('en')).join(', ')}`
          : `${runs.length - valid.length} of ${runs.length} NOT valid (${runs.find((r) => !r.valid)?.hard ?? ''})`,
    });
    record({ name: `${name}: peak memory (process, solver worker included)`, value: peakMb, unit: 'MB', target: PEAK_MEMORY_TARGET_MB });
    if (gaps.length > 0) record({ name: `${name}: mean gap to the best-known total`, value: mean(gaps), unit: '', target: 0.25 });
    const gapText = (g: number | undefined): string => (g === undefined ? '–' : `${(g * 100).toFixed(0)} %`);
    const reference = weighedAs || moves > 0 ? [] : referenceFor(references, file, seconds, seedList);
    const referenceText =
      reference.length === 0 || totals.length === 0
        ? '–'
        : `${Math.round(mean(reference)).toLocaleString('en')} (${reference.length} seed${reference.length === 1 ? '' : 's'}): ${mean(totals) < mean(reference) ? 'ahead' : mean(totals) > mean(reference) ? 'behind' : 'level'}`;
    rows.push(
      `| ${name} | ${valid.length}/${runs.length} | ${totals.length > 0 ? Math.min(...totals).toLocaleString('en') : '–'} | ${totals.length > 0 ? Math.round(mean(totals)).toLocaleString('en') : '–'} | ${totals.length > 0 ? Math.max(...totals).toLocaleString('en') : '–'} | ${best === undefined ? '–' : best.toLocaleString('en')} | ${gapText(gaps.length > 0 ? Math.min(...gaps) : undefined)} / ${gapText(gaps.length > 0 ? mean(gaps) : undefined)} / ${gapText(gaps.length > 0 ? Math.max(...gaps) : undefined)} | ${fixed(mean(runs.map((r) => r.firstValid ?? NaN)))} | ${fixed(mean(valid.map((r) => r.settled ?? NaN)), 0)} | ${Math.round(mean(runs.map((r) => r.moves))).toLocaleString('en')} | ${peakMb.toLocaleString('en')} | ${aloneTotals.length > 0 ? `${Math.round(mean(aloneTotals)).toLocaleString('en')} (${gapText(aloneGap)})` : '–'} | ${referenceText} |`,
    );
  }
  console.log(`\n${budget}, seeds ${firstSeed}–${lastSeed}, ${threads === 1 ? '1 thread' : `${threads} threads, ${portfolio}`}:`);
  console.log(
    '| problem | valid | best | mean | worst | best known | gap best / mean / worst | first valid (s) | within 1 % of final (s) | moves | peak MB | one thread: mean (gap) | UniTime: mean, same budget and seeds |',
  );
  console.log('|---|---|---|---|---|---|---|---|---|---|---|---|---|');
  for (const row of rows) console.log(row);
  if (meanGaps.length > 0) console.log(`\nmean over the ${meanGaps.length} competition problems of the mean gap: ${(mean(meanGaps) * 100).toFixed(0)} %`);
  if (threads > 1 && aloneGaps.length > 0) console.log(`the same for one thread at the same wall time: ${(mean(aloneGaps) * 100).toFixed(0)} %`);
  if (writeTable) {
    const command = `npm run bench -- itc --moves ${moves} --seeds ${seeds}${firstSeed === 1 ? '' : ` --first-seed ${firstSeed}`} --threads ${threads}`;
    writeRegressionTable('docs/solver.md', regressionTable(command, seedList, tableRows));
    console.log('\nthe regression table in docs/solver.md is written');
  }
}
