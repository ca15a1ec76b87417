import { readFileSync, writeFileSync } from 'node:fs';
import { basename } from 'node:path';
import { parseArgs } from 'node:util';
import { readItcProblem } from './itc-reader';
import { readItcSolution } from './itc-solution-reader';
import { TERMWISE_AUTHOR, writeItcSolution } from './itc-writer';
import { scoreAssignment, type Score } from './score';
import type { Weights } from './model';
import { solveInWorkers } from './run';
import { EMPHASIS_RULES, emphasisRule } from './emphasis';

/**
 * `npm run solve -- <problem.xml> [--seconds N] [--seed S] [--threads T] [--emphasis fixed|remaining] [--out solution.xml]`: solves a problem in
 * the competition's format (ITC 2019, as UniTime exports it) with a progress bar, prints the score
 * parts, and writes the solution in the competition's format for the organisers' validator.
 * `npm run solve -- <problem.xml> --score <solution.xml>` scores another solver's solution of it by the same rules, solving nothing.
 */
const USAGE = `usage: npm run solve -- <problem.xml> [--seconds N] [--seed S] [--threads T] [--emphasis ${EMPHASIS_RULES.join('|')}] [--out solution.xml]
       npm run solve -- <problem.xml> --score <solution.xml>`;

/** The score's validity, hard violations and parts, as the solve prints them. */
function printScore(s: Score, w: Weights): void {
  console.log(s.valid ? 'valid: every class placed, every hard constraint held' : `NOT valid: ${s.hardCount} hard violation${s.hardCount === 1 ? '' : 's'}`);
  for (const h of s.hard.slice(0, 10)) console.log(`  - ${h.message}`);
  console.log(
    `time ${s.time} × ${w.time}, room ${s.room} × ${w.room}, distribution ${s.distribution} × ${w.distribution}, student ${s.student} × ${w.student}`,
  );
}

async function main(): Promise<number> {
  const { values, positionals } = parseArgs({
    allowPositionals: true,
    options: {
      seconds: { type: 'string', default: '60' },
      seed: { type: 'string', default: '1' },
      // Search threads (a portfolio: see solveInWorkers); one per core is the most that pays.
      threads: { type: 'string', default: '1' },
      // How the search stresses the parts of the cost (see core/solver/emphasis.ts).
      emphasis: { type: 'string', default: 'fixed' },
      out: { type: 'string' },
      score: { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    },
  });
  const file = positionals[0];
  const seconds = Number(values.seconds);
  const seed = Number(values.seed);
  const threads = Number(values.threads);
  const emphasis = emphasisRule(values.emphasis);
  if (values.help || !file || !emphasis || !(seconds > 0) || !Number.isInteger(seed) || !Number.isInteger(threads) || threads < 1 || threads > 8) {
    console.error(USAGE);
    return values.help ? 0 : 2;
  }
  const problem = readItcProblem(readFileSync(file, 'utf8'));
  if (values.score) {
    const score = scoreAssignment(problem, readItcSolution(problem, readFileSync(values.score, 'utf8')));
    printScore(score, problem.weights);
    console.log(`total ${score.total}`);
    return score.valid ? 0 : 1;
  }
  const students = problem.students.length;
  console.log(
    `${problem.name || basename(file)}: ${problem.classes.length} classes, ${problem.rooms.length} rooms, ${problem.distributions.length} distribution constraints, ${students} students; ${seconds} s, seed ${seed}, ${threads} thread${threads === 1 ? '' : 's'}${emphasis === 'fixed' ? '' : `, emphasis ${emphasis}`}`,
  );
  const started = performance.now();
  const bar = (share: number): string => `[${'#'.repeat(Math.round(share * 30)).padEnd(30, '.')}]`;
  const interactive = process.stderr.isTTY;
  const run = solveInWorkers(
    problem,
    {
      timeBudgetMs: seconds * 1000,
      seed,
      emphasis,
      onProgress: (p) => {
        const elapsed = (performance.now() - started) / 1000;
        const line = `${bar(Math.min(1, elapsed / seconds))} ${elapsed.toFixed(0).padStart(4)} s  ${p.phase === 'construction' ? `placing: ${p.placed}/${p.classes} classes` : `best total so far: ${p.bestTotal ?? '?'}`}`;
        if (interactive) process.stderr.write(`\r${line}`);
      },
    },
    threads,
  );
  process.once('SIGINT', () => run.cancel());
  const result = await run.result;
  if (interactive) process.stderr.write('\n');
  const s = result.score;
  printScore(s, problem.weights);
  console.log(
    `total ${s.total}${result.firstValidMs === null ? '' : `; first valid after ${(result.firstValidMs / 1000).toFixed(1)} s`}; ${(result.durationMs / 1000).toFixed(1)} s in all`,
  );
  if (values.out) {
    writeFileSync(values.out, writeItcSolution(problem, result.assignment, { ...TERMWISE_AUTHOR, cores: threads, runtimeSeconds: result.durationMs / 1000 }));
    console.log(`solution written to ${values.out}`);
  }
  return s.valid ? 0 : 1;
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(error instanceof Error ? error.message : String(error));
    process.exit(2);
  },
);
