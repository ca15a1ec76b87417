import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { readItcProblem } from '../../core/solver/itc-reader';
import { readItcSolution } from '../../core/solver/itc-solution-reader';
import { scoreAssignment } from '../../core/solver/score';
import { REAL_DATA_DIR } from '../helpers/real-data';
import { GENERATED_PROBLEMS, REFERENCE_FILE, referenceTotals } from './itc-problems';

/**
 * `npx tsx test/bench/unitime-reference.ts --classpath CP --config default.cfg [--seconds N] [--seeds K] [--first-seed F]
 * [--parallel P] [name ...]`: runs UniTime's solver (cpsolver-itc2019, built as test/bench/README.md says; CP its
 * classes or jar and their libraries) on the competition problems and the generated ones (or those named),
 * each at the budget and seeds given on one thread, P at a time; scores each solution by Termwise's scorer
 * (the same rules the itc bench scores Termwise by) and writes the totals into test/bench/itc-reference.json,
 * keeping what it held for other problems, budgets and seeds. A run whose solution is missing or not valid
 * is reported and not written.
 */
async function main(): Promise<number> {
  const { values, positionals } = parseArgs({
    allowPositionals: true,
    options: {
      classpath: { type: 'string' },
      config: { type: 'string' },
      seconds: { type: 'string', default: '300' },
      seeds: { type: 'string', default: '1' },
      'first-seed': { type: 'string', default: '1' },
      parallel: { type: 'string', default: '1' },
    },
  });
  const seconds = Number(values.seconds);
  const seeds = Array.from({ length: Number(values.seeds) }, (_, k) => Number(values['first-seed']) + k);
  const parallel = Math.max(1, Number(values.parallel));
  if (!values.classpath || !values.config || !(seconds > 0) || seeds.some((s) => !Number.isInteger(s))) {
    console.error(
      'usage: npx tsx test/bench/unitime-reference.ts --classpath CP --config default.cfg [--seconds N] [--seeds K] [--first-seed F] [--parallel P] [name ...]',
    );
    return 2;
  }
  const folder = `${REAL_DATA_DIR}itc2019/`;
  const shared = existsSync(folder) ? readdirSync(folder).flatMap((f) => (f.endsWith('.xml') ? [f.slice(0, -4)] : [])) : [];
  const names = positionals.length > 0 ? positionals : [...shared.sort(), ...Object.keys(GENERATED_PROBLEMS).filter((n) => n.startsWith('unlike-'))];
  const work = mkdtempSync(join(tmpdir(), 'unitime-'));
  const baseConfig = readFileSync(values.config, 'utf8').replace(/^(Termination\.TimeOut|General\.Seed|Parallel\.NrSolvers)=.*$/gm, '');
  const runs = names.flatMap((name) => seeds.map((seed) => ({ name, seed })));
  const references = referenceTotals();
  const runOne = async ({ name, seed }: { name: string; seed: number }): Promise<void> => {
    const xml = GENERATED_PROBLEMS[name]?.() ?? readFileSync(`${folder}${name}.xml`, 'utf8');
    const problemFile = join(work, `${name}-${seed}.xml`);
    const configFile = join(work, `${name}-${seed}.cfg`);
    const out = join(work, `${name}-${seed}`);
    writeFileSync(problemFile, xml);
    writeFileSync(configFile, `${baseConfig}\nTermination.TimeOut=${seconds}\nGeneral.Seed=${seed}\nParallel.NrSolvers=1\n`);
    await new Promise<void>((resolve) => {
      const java = spawn('java', ['-Xmx8g', '-cp', values.classpath as string, 'org.cpsolver.coursett.Test', configFile, problemFile, out], {
        stdio: 'ignore',
      });
      java.on('close', () => resolve());
    });
    const stamped = existsSync(out) ? readdirSync(out).find((d) => existsSync(join(out, d, 'solution.xml'))) : undefined;
    if (!stamped) return void console.log(`${name}, seed ${seed}: no solution written`);
    const problem = readItcProblem(xml);
    const score = scoreAssignment(problem, readItcSolution(problem, readFileSync(join(out, stamped, 'solution.xml'), 'utf8')));
    if (!score.valid) return void console.log(`${name}, seed ${seed}: NOT valid (${score.hardCount} hard violations)`);
    console.log(`${name}, seed ${seed}, ${seconds} s: total ${score.total.toLocaleString('en')}`);
    const byBudget = (references[name] ??= {});
    (byBudget[String(seconds)] ??= {})[String(seed)] = score.total;
  };
  const queue = [...runs];
  await Promise.all(
    Array.from({ length: parallel }, async () => {
      for (let run = queue.shift(); run; run = queue.shift())
        await runOne(run).catch((error: unknown) =>
          console.log(`${run?.name ?? ''}, seed ${run?.seed ?? ''}: ${error instanceof Error ? error.message : String(error)}`),
        );
    }),
  );
  writeFileSync(REFERENCE_FILE, `${JSON.stringify(references, null, 2)}\n`);
  rmSync(work, { recursive: true, force: true });
  console.log(`reference totals written to ${REFERENCE_FILE.pathname}`);
  return 0;
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(error instanceof Error ? error.message : String(error));
    process.exit(1);
  },
);
