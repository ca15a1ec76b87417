import { readFileSync } from 'node:fs';
import type { StructureReport } from './measure';

/** The most lines a function may take (a reader holds it in view). */
export const FUNCTION_LINES = 80;

interface Budget {
  over: { name: string; file: string; lines: number }[];
}

/** The functions still over FUNCTION_LINES (renderer components and hooks), each at most as long as listed: the list may only shrink. */
export const SIZE_BUDGET: Budget = JSON.parse(readFileSync(new URL('./size-budget.json', import.meta.url), 'utf8')) as Budget;

/** Every function over FUNCTION_LINES that the budget does not allow: not listed, or longer than listed. */
export function overBudget(report: Pick<StructureReport, 'functions' | 'components'>, budget: Budget = SIZE_BUDGET): string[] {
  const allowed = new Map(budget.over.map((f) => [`${f.file}|${f.name}`, f.lines]));
  return [...report.functions, ...report.components]
    .filter((f) => f.lines > FUNCTION_LINES && f.lines > (allowed.get(`${f.file}|${f.name}`) ?? FUNCTION_LINES))
    .map(
      (f) =>
        `${f.name} (${f.file}:${f.line}): ${f.lines} lines, ${allowed.has(`${f.file}|${f.name}`) ? `at most ${allowed.get(`${f.file}|${f.name}`)}` : `over ${FUNCTION_LINES}`}`,
    );
}
