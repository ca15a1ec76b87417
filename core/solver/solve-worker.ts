import { reportProgress, serveJobs } from '../workers';
import type { TimetableProblem } from './model';
import { solve, type SolveOptions, type SolveResult } from './solve';
import { exchangeOver, leaveExchange, type ExchangeLinks } from './exchange';

/** The solver's thread: solves the problem it is given within its budget, reporting progress; a shared flag cancels it. */
export interface SolveJob extends Pick<SolveOptions, 'timeBudgetMs' | 'seed' | 'initial' | 'maxIterations' | 'partial' | 'moveChoice' | 'emphasis'> {
  problem: TimetableProblem;
  /** One Int32: set to 1 to stop the search (the best timetable so far is answered). */
  cancel: SharedArrayBuffer;
  /** In a portfolio: how this thread shares its best timetables with the others. */
  links?: ExchangeLinks;
  /** Whether the end of the construction is reported (as progress `{ constructed: true }`), for a portfolio's other threads. */
  reportConstructed?: boolean;
}

/** The progress message that says the construction has ended (see SolveOptions.onConstructed). */
export interface ConstructedMessage {
  constructed: true;
}

function solveJob(job: SolveJob): Promise<SolveResult> {
  const cancelFlag = new Int32Array(job.cancel);
  const cancelled = (): boolean => Atomics.load(cancelFlag, 0) === 1;
  const links = job.links;
  return Promise.resolve()
    .then((): SolveResult =>
      solve(job.problem, {
        timeBudgetMs: job.timeBudgetMs,
        seed: job.seed,
        ...(job.initial ? { initial: job.initial } : {}),
        ...(job.maxIterations !== undefined ? { maxIterations: job.maxIterations } : {}),
        ...(job.partial === true ? { partial: true } : {}),
        ...(job.moveChoice ? { moveChoice: job.moveChoice } : {}),
        ...(job.emphasis ? { emphasis: job.emphasis } : {}),
        onProgress: (progress) => reportProgress(progress),
        cancelled,
        ...(links ? { exchange: exchangeOver(links, cancelled) } : {}),
        ...(job.reportConstructed === true ? { onConstructed: () => reportProgress({ constructed: true } satisfies ConstructedMessage) } : {}),
      }),
    )
    .finally(() => {
      if (links) leaveExchange(links);
    });
}

serveJobs((job) => solveJob(job as SolveJob), null);
