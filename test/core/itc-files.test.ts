import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SaxesParser } from 'saxes';
import { describe, expect, it } from 'vitest';
import { readItcProblem } from '../../core/solver/itc-reader';
import { readItcSolution } from '../../core/solver/itc-solution-reader';
import { scoreAssignment } from '../../core/solver/score';
import { largeProblemXml } from '../helpers/itc-generated';
import { writeItcSolution, TERMWISE_AUTHOR } from '../../core/solver/itc-writer';
import { solve } from '../../core/solver/solve';
import { SEED_STEP, solveInWorker, solveInWorkers } from '../../core/solver/run';
import { realDataFile } from '../helpers/real-data';

/**
 * The competition's files: the four demo problems read and solved to a valid timetable, the
 * solution written in the competition's format, and files that are not problems refused in words.
 */
const DEMOS = ['bet-sum18', 'lums-sum17', 'pu-cs-fal07', 'wbg-fal10'] as const;
const paths = Object.fromEntries(DEMOS.map((name) => [name, realDataFile(`itc2019/${name}.xml`)]));

describe.skipIf(Object.values(paths).some((p) => p === null))('the competition demo problems', () => {
  it('gives the same timetable and total twice for a seed and a move budget, whatever the clock', () => {
    const problem = readItcProblem(readFileSync(paths['lums-sum17'] as string, 'utf8'));
    const runs = [0, 1].map(() => solve(problem, { timeBudgetMs: 120_000, seed: 11, maxIterations: 30_000 }));
    expect(runs[0]?.score.valid).toBe(true);
    expect(runs[1]?.score.total).toBe(runs[0]?.score.total);
    expect(Array.from(runs[1]?.assignment.time ?? [])).toEqual(Array.from(runs[0]?.assignment.time ?? []));
    expect(Array.from(runs[1]?.assignment.room ?? [])).toEqual(Array.from(runs[0]?.assignment.room ?? []));
    expect(runs[1]?.assignment.students).toEqual(runs[0]?.assignment.students);
  });

  it('answers, with two threads on their own, the better of the two seeds each thread searches, the same for a seed and a move budget', async () => {
    const problem = readItcProblem(readFileSync(paths['pu-cs-fal07'] as string, 'utf8'));
    const budget = { timeBudgetMs: 120_000, maxIterations: 20_000 };
    const alone = await Promise.all([3, 3 + SEED_STEP].map((seed) => solveInWorker(problem, { ...budget, seed }).result));
    const both = await solveInWorkers(problem, { ...budget, seed: 3 }, 2, 'independent').result;
    expect(alone.every((r) => r.score.valid)).toBe(true);
    expect(both.score.total).toBe(Math.min(...alone.map((r) => r.score.total)));
    expect((await solveInWorkers(problem, { ...budget, seed: 3 }, 2, 'independent').result).score.total).toBe(both.score.total);
  });

  for (const name of DEMOS) {
    it(`reads ${name}, finds a valid timetable in a few seconds, and writes it as a competition solution`, () => {
      const problem = readItcProblem(readFileSync(paths[name] as string, 'utf8'));
      expect(problem.name).toBe(name);
      expect(problem.classes.length).toBeGreaterThan(10);
      expect(problem.classes.every((c) => c.times.length > 0)).toBe(true);
      // A valid timetable comes within a tenth of a second; the 100,000 moves after it check the running totals.
      const result = solve(problem, { timeBudgetMs: 3_000, seed: 7, maxIterations: 100_000 });
      expect(result.score.hard, `${name}: ${result.score.hard.map((h) => h.message).join('; ')}`).toEqual([]);
      expect(result.score.valid).toBe(true);
      // The search's running totals agree with the scorer's count from scratch.
      expect(result.runningTotal).toBeCloseTo(result.score.total, 6);
      const xml = writeItcSolution(problem, result.assignment, { ...TERMWISE_AUTHOR, runtimeSeconds: result.durationMs / 1000 });
      // Well-formed, one <class> per class with its time and (when it needs one) its room, every student placed.
      const classes = new Map<string, Record<string, string>>();
      let students = 0;
      const parser = new SaxesParser();
      parser.on('opentag', (tag) => {
        const attributes = tag.attributes as Record<string, string>;
        if (tag.name === 'class') classes.set(attributes.id ?? '', attributes);
        if (tag.name === 'student') students++;
      });
      parser.write(xml).close();
      expect(classes.size).toBe(problem.classes.length);
      for (const c of problem.classes) {
        const written = classes.get(c.id);
        expect(written?.days).toMatch(new RegExp(`^[01]{${problem.nrDays}}$`));
        expect(written?.weeks).toMatch(new RegExp(`^[01]{${problem.nrWeeks}}$`));
        expect(written?.room === undefined).toBe(c.rooms.length === 0);
      }
      expect(students).toBe(problem.students.reduce((sum, s) => sum + (result.assignment.students[problem.students.indexOf(s)]?.length ?? 0), 0));
    }, 30_000);
  }
});

describe.skipIf(paths['wbg-fal10'] === null)('npm run solve', () => {
  it('solves a demo problem from the command line, prints the score parts and writes the solution', () => {
    const dir = mkdtempSync(join(tmpdir(), 'termwise-solve-'));
    try {
      const out = join(dir, 'solution.xml');
      const printed = execFileSync(
        process.execPath,
        ['--import', 'tsx', 'core/solver/cli.ts', paths['wbg-fal10'] as string, '--seconds', '0.5', '--seed', '3', '--out', out],
        { encoding: 'utf8' },
      );
      expect(printed).toMatch(/^wbg-fal10: 150 classes, 7 rooms/m);
      expect(printed).toMatch(/^valid: every class placed, every hard constraint held$/m);
      expect(printed).toMatch(/^time \d+ × 1, room \d+ × 1, distribution \d+ × 10, student \d+ × 10$/m);
      expect(readFileSync(out, 'utf8')).toMatch(/^<solution name="wbg-fal10" runtime="[\d.]+" cores="1" technique="[^"]+" author="Termwise"/m);
      // The solution written, scored again from its file (as another solver's would be), has the solve's total.
      const scored = execFileSync(process.execPath, ['--import', 'tsx', 'core/solver/cli.ts', paths['wbg-fal10'] as string, '--score', out], {
        encoding: 'utf8',
      });
      expect(scored).toMatch(/^valid: every class placed, every hard constraint held$/m);
      expect(scored.match(/^total (\d+)$/m)?.[1]).toBe(printed.match(/^total (\d+);/m)?.[1]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 30_000);

  it('solves with the parts stressed by what is left of them when asked, and refuses an emphasis it does not know', () => {
    const solveWith = (emphasis: string): string =>
      execFileSync(process.execPath, ['--import', 'tsx', 'core/solver/cli.ts', paths['wbg-fal10'] as string, '--seconds', '0.5', '--emphasis', emphasis], {
        encoding: 'utf8',
        stdio: ['ignore', 'pipe', 'pipe'],
      });
    const printed = solveWith('remaining');
    expect(printed).toMatch(/^wbg-fal10: .*, emphasis remaining$/m);
    expect(printed).toMatch(/^valid: every class placed, every hard constraint held$/m);
    expect(() => solveWith('loudest')).toThrow(/usage: npm run solve .*--emphasis fixed\|remaining/);
  }, 30_000);
});

describe("another solver's solution, read as a timetable of its problem", () => {
  const problem = readItcProblem(largeProblemXml(2, { courses: 20, students: 300, rooms: 30 }));
  const solved = solve(problem, { timeBudgetMs: 30_000, seed: 2, maxIterations: 5_000 });
  const file = writeItcSolution(problem, solved.assignment, { ...TERMWISE_AUTHOR, runtimeSeconds: 1 });

  it('gives back the times (days, start and weeks), rooms and students written', () => {
    // A generated class may have two times alike but for their length or penalty: the file names the
    // days, start and weeks only, so those are what must come back (the first such time is read).
    const read = readItcSolution(problem, file);
    const meets = (time: Int32Array): string[] =>
      problem.classes.map((c, i) => {
        const t = c.times[time[i] ?? -1];
        return t ? `${t.days}/${t.start}/${t.weeks}` : 'unplaced';
      });
    expect(meets(read.time)).toEqual(meets(solved.assignment.time));
    expect(Array.from(read.room)).toEqual(Array.from(solved.assignment.room));
    const sorted = (students: number[][]): number[][] => students.map((classes) => [...classes].sort((a, b) => a - b));
    expect(sorted(read.students)).toEqual(sorted(solved.assignment.students));
    expect(scoreAssignment(problem, read).valid).toBe(solved.score.valid);
  });

  it('leaves a class the file lists without a time unplaced, and refuses what the problem does not have, naming the line', () => {
    const firstClass = problem.classes[0]?.id ?? '';
    const unplaced = readItcSolution(problem, `<solution name="x">\n<class id="${firstClass}"/>\n</solution>`);
    expect(unplaced.time[0]).toBe(-1);
    expect(scoreAssignment(problem, unplaced).valid).toBe(false);
    const refused = (xml: string): string => {
      try {
        readItcSolution(problem, xml);
        return 'read';
      } catch (error) {
        return (error as Error).message;
      }
    };
    expect(refused('<solution>\n<class id="no such class" days="1000000" start="90" weeks="1"/></solution>')).toMatch(
      /line 2\): class "no such class" is not one of the problem's/,
    );
    expect(refused(`<solution><class id="${firstClass}" days="0000001" start="1" weeks="1"/></solution>`)).toMatch(/has no time on days 0000001 at 1/);
    expect(refused(file.replace(/<student id="[^"]+"\/>/, '<student id="nobody"/>'))).toMatch(/student "nobody" is not one of the problem's/);
    expect(refused('<solution><lunch/></solution>')).toMatch(/<lunch> is not an element of a solution/);
    expect(refused('<solution><class id=')).toMatch(/not a solution of this problem/);
  });
});

describe('files that are not competition problems', () => {
  const refused = (xml: string): string => {
    try {
      readItcProblem(xml);
    } catch (error) {
      return error instanceof Error ? error.message : String(error);
    }
    return 'read';
  };
  const head = '<problem name="x" nrDays="7" nrWeeks="2" slotsPerDay="288">';

  it('names the line and the problem', () => {
    expect(refused('<problem')).toMatch(/not well-formed XML/);
    expect(refused('<rooms/>')).toMatch(/no <problem> element/);
    expect(
      refused(
        `${head}<courses><course id="1"><config id="1"><subpart id="1"><class id="1" limit="5"><time days="1000000" start="10" length="5" weeks="111" penalty="0"/></class></subpart></config></course></courses></problem>`,
      ),
    ).toMatch(/line 1\): <time> weeks="111" is not 2 weeks/);
    expect(refused(`${head}<distributions><distribution type="MaxBreaks(1)" required="true"><class id="1"/></distribution></distributions></problem>`)).toMatch(
      /MaxBreaks takes 2 whole-number parameters/,
    );
    expect(refused(`${head}<distributions><distribution type="Sometimes" required="true"/></distributions></problem>`)).toMatch(
      /unknown distribution type "Sometimes"/,
    );
    expect(
      refused(
        `${head}<courses><course id="1"><config id="1"><subpart id="1"><class id="1" limit="5" parent="9"><time days="1000000" start="10" length="5" weeks="11"/></class></subpart></config></course></courses></problem>`,
      ),
    ).toMatch(/class 1 has unknown parent 9/);
    expect(
      refused(
        `${head}<courses><course id="1"><config id="1"><subpart id="1"><class id="1" limit="5"><room id="7" penalty="0"/><time days="1000000" start="10" length="5" weeks="11"/></class></subpart></config></course></courses></problem>`,
      ),
    ).toMatch(/allows unknown room 7/);
    expect(refused(`${head}${'<a>'.repeat(20)}`)).toMatch(/nested too deep/);
    expect(refused('<!DOCTYPE x [<!ENTITY e "&e;&e;">]><problem/>')).toMatch(/not well-formed XML|no <problem>|nrDays/);
  });
});

describe.skipIf(paths['pu-cs-fal07'] === null)('the solver in its worker thread', () => {
  it('reports progress and stops when cancelled, answering the best valid timetable so far', async () => {
    const problem = readItcProblem(readFileSync(paths['pu-cs-fal07'] as string, 'utf8'));
    const progress: (number | null)[] = [];
    const started = performance.now();
    const run = solveInWorker(problem, { timeBudgetMs: 120_000, seed: 5, onProgress: (p) => progress.push(p.bestTotal) });
    setTimeout(() => run.cancel(), 3_000);
    const result = await run.result;
    expect(performance.now() - started).toBeLessThan(20_000);
    expect(result.score.valid).toBe(true);
    expect(progress.some((total) => total !== null)).toBe(true);
    expect(result.runningTotal).toBeCloseTo(result.score.total, 6);
  }, 60_000);
});
