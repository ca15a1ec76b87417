import { tooLarge } from '../domain/bounds';
import { MessageChannel, type MessagePort } from 'node:worker_threads';
import { runWorker, siblingModule, WorkerLimitError } from '../workers';
import { exchangeBoard, type ExchangeLinks } from './exchange';
import type { TimetableProblem } from './model';
import type { SearchProgress } from './search';
import type { SolveOptions, SolveResult } from './solve';
import type { ConstructedMessage, SolveJob } from './solve-worker';

/** Memory the solver's thread may use (the largest competition problem needs well under this). */
export const SOLVER_HEAP_MB = 2_048;
/** Time the thread is given beyond its budget to stop and answer. */
const STOP_MARGIN_MS = 30_000;

export interface SolveRun {
  result: Promise<SolveResult>;
  /** Stops the search now; the result is the best timetable found so far. */
  cancel: () => void;
}

/** What a solve in a worker thread is told: SolveOptions that cross to the thread, and what it reports back. */
export type WorkerSolveOptions = Pick<
  SolveOptions,
  'timeBudgetMs' | 'seed' | 'onProgress' | 'initial' | 'maxIterations' | 'partial' | 'moveChoice' | 'emphasis' | 'onConstructed'
>;

/** Solves a problem in a worker thread, off the caller's thread, with progress and a way to stop it. */
export function solveInWorker(problem: TimetableProblem, options: WorkerSolveOptions, links?: ExchangeLinks): SolveRun {
  const cancel = new SharedArrayBuffer(4);
  const { onProgress, onConstructed, ...settings } = options;
  const job: SolveJob = { problem, ...settings, cancel, ...(links ? { links } : {}), ...(onConstructed ? { reportConstructed: true } : {}) };
  const result = runWorker<SolveResult>(siblingModule(import.meta.url, 'solve-worker'), job, {
    onProgress: (value) => {
      if (typeof value === 'object' && value !== null && (value as Partial<ConstructedMessage>).constructed === true) onConstructed?.();
      else onProgress?.(value as SearchProgress);
    },
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
 * Solves with `threads` search threads (a portfolio: thread k searches with its own seed,
 * seed + k · SEED_STEP) and answers the best of their timetables. `sharing` (the default): the first
 * thread constructs alone, so that the others never slow the first valid timetable; once it has one,
 * the others start, each constructing its own (started from the first thread's timetable instead,
 * they searched around one start and ended worse on seven of the nine shared problems at equal move
 * budgets), and at the end of each annealing round every thread goes on from the best timetable any
 * thread has (see exchange.ts). `independent`: every thread searches on its own
 * from the start. The same seed and move budget give the same answer; progress reports the best
 * total any thread has; cancel stops them all.
 */
export function solveInWorkers(problem: TimetableProblem, options: WorkerSolveOptions, threads: number, portfolio: Portfolio = 'sharing'): SolveRun {
  if (threads <= 1) return solveInWorker(problem, options);
  const bestOf: (number | null)[] = Array.from({ length: threads }, () => null);
  const seedOf = (k: number): number => options.seed + k * SEED_STEP;
  /** The threads started so far, and when each started (milliseconds after the first). */
  const runs: SolveRun[] = [];
  const startedAfter: number[] = [];
  let cancelled = false;
  let startedAt = 0;
  const start = (k: number, overrides: Partial<WorkerSolveOptions> = {}, links?: ExchangeLinks): void => {
    const now = performance.now();
    if (k === 0) startedAt = now;
    startedAfter[k] = now - startedAt;
    runs[k] = solveInWorker(
      problem,
      {
        ...options,
        seed: seedOf(k),
        onProgress: (progress) => {
          bestOf[k] = progress.bestTotal;
          const known = bestOf.filter((b): b is number => b !== null);
          options.onProgress?.({ ...progress, bestTotal: known.length > 0 ? Math.min(...known) : null });
        },
        ...overrides,
      },
      links,
    );
  };
  const links = portfolio === 'sharing' ? exchangeLinks(threads, options.maxIterations !== undefined) : [];
  if (portfolio === 'independent') for (let k = 0; k < threads; k++) start(k);
  else
    start(
      0,
      {
        // The others start once the first thread has constructed, with the budget left.
        onConstructed: () => {
          if (cancelled) return;
          const left = Math.max(0, options.timeBudgetMs - (performance.now() - startedAt));
          for (let k = 1; k < threads; k++) start(k, { timeBudgetMs: left }, links[k]);
        },
      },
      links[0],
    );
  // The first thread's end comes after its construction's, so every thread it started is known by then.
  const result = (runs[0] as SolveRun).result
    .then(() => {
      // Threads never started hold their ends of the channels: closed, so that nothing waits on them.
      if (runs.length === 1) for (const link of links.slice(1)) for (const port of link.peers) port.close();
      return Promise.all(runs.map((run) => run.result));
    })
    .then((results) => {
      const validAfter = results.flatMap((r, k) => (r.firstValidMs === null ? [] : [(startedAfter[k] ?? 0) + r.firstValidMs]));
      return {
        ...results.reduce(better),
        // The portfolio's first valid timetable: the first any thread had.
        firstValidMs: validAfter.length > 0 ? Math.min(...validAfter) : null,
        threads: results.map((r, k) => ({
          seed: seedOf(k),
          startedAfterMs: startedAfter[k] ?? 0,
          valid: r.score.valid,
          total: r.score.total,
          firstValidMs: r.firstValidMs,
        })),
      };
    });
  return {
    result,
    cancel: () => {
      cancelled = true;
      runs.forEach((run) => run.cancel());
    },
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
