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
  'timeBudgetMs' | 'seed' | 'onProgress' | 'initial' | 'maxIterations' | 'partial' | 'moveChoice' | 'onConstructed'
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
  const startedAt = performance.now();
  const bestOf: (number | null)[] = Array.from({ length: threads }, () => null);
  const seedOf = (k: number): number => options.seed + k * SEED_STEP;
  const thread = (k: number, overrides: Partial<WorkerSolveOptions>, links?: ExchangeLinks): SolveRun =>
    solveInWorker(
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
  if (portfolio === 'independent') {
    const runs = bestOf.map((_, k) => thread(k, {}));
    return portfolioRun(
      runs,
      () => runs,
      seedOf,
      () => 0,
      (results) => results[0]?.firstValidMs ?? null,
    );
  }
  const links = exchangeLinks(threads, options.maxIterations !== undefined);
  /** When each thread started, in milliseconds after the first. */
  const startedAfter: number[] = Array.from({ length: threads }, () => 0);
  let cancelled = false;
  const others: SolveRun[] = [];
  const first = thread(
    0,
    {
      // The others start once the first thread has constructed, with the budget left.
      onConstructed: () => {
        if (cancelled) return;
        const startedMs = performance.now() - startedAt;
        for (let k = 1; k < threads; k++) {
          others.push(thread(k, { timeBudgetMs: Math.max(0, options.timeBudgetMs - startedMs) }, links[k]));
          startedAfter[k] = startedMs;
        }
      },
    },
    links[0],
  );
  const runs = (): SolveRun[] => {
    // Threads never started hold their ends of the channels: closed, so that nothing waits on them.
    if (others.length === 0) for (const link of links.slice(1)) for (const port of link.peers) port.close();
    return [first, ...others];
  };
  return portfolioRun(
    [first],
    () => runs(),
    seedOf,
    (k) => startedAfter[k] ?? 0,
    // The portfolio's first valid timetable is the first thread's: the others start after it.
    (results) => results[0]?.firstValidMs ?? null,
    () => {
      cancelled = true;
      others.forEach((run) => run.cancel());
    },
  );
}

/**
 * A portfolio's run: the best of its threads' results once every thread has ended. `settled` are
 * threads whose end is awaited first; `all` then names every thread that was started.
 */
function portfolioRun(
  settled: readonly SolveRun[],
  all: () => readonly SolveRun[],
  seedOf: (k: number) => number,
  startedAfterMs: (k: number) => number,
  firstValidMs: (results: readonly SolveResult[]) => number | null,
  cancelMore: () => void = () => {},
): SolveRun {
  const result = Promise.all(settled.map((run) => run.result))
    .then(() => Promise.all(all().map((run) => run.result)))
    .then((results) => ({
      ...results.reduce(better),
      firstValidMs: firstValidMs(results),
      threads: results.map((r, k) => ({
        seed: seedOf(k),
        startedAfterMs: startedAfterMs(k),
        valid: r.score.valid,
        total: r.score.total,
        firstValidMs: r.firstValidMs,
      })),
    }));
  return {
    result,
    cancel: () => {
      settled.forEach((run) => run.cancel());
      cancelMore();
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
