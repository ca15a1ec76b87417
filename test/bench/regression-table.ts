import { readFileSync, writeFileSync } from 'node:fs';

/**
 * The solver's regression table in docs/solver.md, written by `npm run bench -- itc --moves M --write-table`:
 * each problem's total seed by seed at a move budget (where a seed gives one answer whatever the
 * machine's speed), their mean and the mean gap to the best-known total. The page keeps the table
 * between two markers; the bench replaces what is between them and nothing else.
 */
export const TABLE_BEGIN = '<!-- regression table: written by npm run bench -- itc --write-table -->';
export const TABLE_END = '<!-- end of the regression table -->';

export interface ProblemTotals {
  name: string;
  /** One total per seed, in seed order; null for a seed whose timetable was not valid. */
  totals: (number | null)[];
  bestKnown: number | undefined;
}

const count = (value: number): string => Math.round(value).toLocaleString('en');

/** The table in Markdown, with the command that made it. */
export function regressionTable(command: string, seeds: readonly number[], problems: readonly ProblemTotals[]): string {
  const lines = [
    `\`${command}\` (totals, lower is better; the gap is to the best-known total where one is shared):`,
    '',
    `| problem | ${seeds.map((s) => `seed ${s}`).join(' | ')} | mean | mean gap |`,
    `|---|${seeds.map(() => '---|').join('')}---|---|`,
  ];
  for (const { name, totals, bestKnown } of problems) {
    const valid = totals.filter((t): t is number => t !== null);
    const mean = valid.length === 0 ? null : valid.reduce((a, b) => a + b, 0) / valid.length;
    const gap = mean === null || bestKnown === undefined ? '–' : `${(((mean - bestKnown) / bestKnown) * 100).toFixed(0)} %`;
    lines.push(`| ${name} | ${totals.map((t) => (t === null ? 'not valid' : count(t))).join(' | ')} | ${mean === null ? '–' : count(mean)} | ${gap} |`);
  }
  return lines.join('\n');
}

/** Puts `table` between the page's markers (refused when the page has none: the table's place is chosen by hand). */
export function writeRegressionTable(page: string, table: string): void {
  const text = readFileSync(page, 'utf8');
  const begin = text.indexOf(TABLE_BEGIN);
  const end = text.indexOf(TABLE_END);
  if (begin < 0 || end < begin) throw new Error(`${page} has no regression table markers (${TABLE_BEGIN} … ${TABLE_END})`);
  writeFileSync(page, `${text.slice(0, begin + TABLE_BEGIN.length)}\n${table}\n${text.slice(end)}`);
}
