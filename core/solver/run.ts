import { tooLarge } from '../domain/bounds';
import { MessageChannel, type MessagePort } from 'node:worker_threads';
import { runWorker, siblingModule, WorkerLimitError } from '../workers';
import { exchangeBoard, type ExchangeLinks } from './exchange';
import type { TimetableProblem } from './model';
import type { SearchProgress } from './search';
import type { SolveOptions, SolveResult } from './solve';
import type { SolveJob } from './solve-worker';

/** Memory the solver's thread may use (the largest competition problem needs well under this). */
export const SOLVER_HEAP_MB = 2_048;
/** Time the thread is given beyond its budget to stop and answer. */
const STOP_MARGIN_MS = 30_000;

export interface SolveRun {
  result: Promise<SolveResult>;
  /** Stops the search now; the result is the best timetable found so far. */
  cancel: () => void;
}

/** Solves a problem in a worker thread, off the caller's thread, with progress and a way to stop it. */
export function solveInWorker(
  problem: TimetableProblem,
  options: Pick<SolveOptions, 'timeBudgetMs' | 'seed' | 'onProgress' | 'initial' | 'maxIterations' | 'partial' | 'moveChoice'>,
  links?: ExchangeLinks,
): SolveRun {
  const cancel = new SharedArrayBuffer(4);
  const { onProgress: _progress, ...settings } = options;
  const job: SolveJob = { problem, ...settings, cancel, ...(links ? { links } : {}) };
  const result = runWorker<SolveResult>(siblingModule(import.meta.url, 'solve-worker'), job, {
    onProgress: (value) => options.onProgress?.(value as SearchProgress),
    bounds: { timeoutMs: options.timeBudgetMs + STOP_MARGIN_MS, maxHeapMb: SOLVER_HEAP_MB },
    transferList: links?.peers ?? [],
  }).catch((error: unknown) => {
    if (!(error instanceof WorkerLimitError)) throw error;
    throw tooLarge(
      problem.name || 'The problem',
      error.limit === 'time' ? 'the solver did not stop within its budget' : `solving it needs more than ${SOLVER_HEAP_MB} MB of memory`,
    );
  });
  return { result, cancel: () => Atomics.store(new Int32Array(cancel), 0, 1) };
}

/** How far apart the seeds of a portfolio's threads are (thread k searches with seed + k · SEED_STEP). */
export const SEED_STEP = 7_919;

/** The better of two answers: a valid timetable first, then the lower total (the earlier thread on a tie). */
function better(a: SolveResult, b: SolveResult): SolveResult {
  if (a.score.valid !== b.score.valid) return a.score.valid ? a : b;
  return b.score.total < a.score.total ? b : a;
}

/** A portfolio's threads: sharing their best timetables at the end of each round, or each on its own. */
export type Portfolio = 'sharing' | 'independent';

/**
 * Solves with `threads` search threads at once (a portfolio: thread k searches with its own seed,
 * seed + k · SEED_STEP) and answers the best of their timetables. `sharing` (the default): at the
 * end of each annealing round every thread goes on from the best timetable any thread has (see
 * exchange.ts). The same seed and move budget give the same answer; progress reports the best
 * total any thread has; cancel stops them all.
 */
export function solveInWorkers(
  problem: TimetableProblem,
  options: Pick<SolveOptions, 'timeBudgetMs' | 'seed' | 'onProgress' | 'initial' | 'maxIterations' | 'partial' | 'moveChoice'>,
  threads: number,
  portfolio: Portfolio = 'sharing',
): SolveRun {
  if (threads <= 1) return solveInWorker(problem, options);
  const bestOf: (number | null)[] = Array.from({ length: threads }, () => null);
  const links = portfolio === 'sharing' ? exchangeLinks(threads, options.maxIterations !== undefined) : [];
  const runs = bestOf.map((_, k) =>
    solveInWorker(
      problem,
      {
        ...options,
        seed: options.seed + k * SEED_STEP,
        onProgress: (progress) => {
          bestOf[k] = progress.bestTotal;
          const known = bestOf.filter((b): b is number => b !== null);
          options.onProgress?.({ ...progress, bestTotal: known.length > 0 ? Math.min(...known) : null });
        },
      },
      links[k],
    ),
  );
  return {
    result: Promise.all(runs.map((run) => run.result)).then((results) => ({
      ...results.reduce(better),
      threads: results.map((r, k) => ({ seed: options.seed + k * SEED_STEP, valid: r.score.valid, total: r.score.total })),
    })),
    cancel: () => runs.forEach((run) => run.cancel()),
  };
}

/** Each thread's links to the others: a channel for every pair of threads, and one board. */
function exchangeLinks(threads: number, waitForRound: boolean): ExchangeLinks[] {
  const board = exchangeBoard(threads);
  const ports: MessagePort[][] = Array.from({ length: threads }, () => []);
  for (let i = 0; i < threads; i++)
    for (let j = i + 1; j < threads; j++) {
      const channel = new MessageChannel();
      ports[i]?.push(channel.port1);
      ports[j]?.splice(i, 0, channel.port2);
    }
  return ports.map((peers, index) => ({ index, peers, board, waitForRound }));
}
