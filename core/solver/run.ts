import { tooLarge } from '../domain/bounds';
import { runWorker, siblingModule, WorkerLimitError } from '../workers';
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
  options: Pick<SolveOptions, 'timeBudgetMs' | 'seed' | 'onProgress' | 'initial' | 'maxIterations' | 'partial'>,
): SolveRun {
  const cancel = new SharedArrayBuffer(4);
  const { onProgress: _progress, ...settings } = options;
  const job: SolveJob = { problem, ...settings, cancel };
  const result = runWorker<SolveResult>(siblingModule(import.meta.url, 'solve-worker'), job, {
    onProgress: (value) => options.onProgress?.(value as SearchProgress),
    bounds: { timeoutMs: options.timeBudgetMs + STOP_MARGIN_MS, maxHeapMb: SOLVER_HEAP_MB },
  }).catch((error: unknown) => {
    if (!(error instanceof WorkerLimitError)) throw error;
    throw tooLarge(
      problem.name || 'The problem',
      error.limit === 'time' ? 'the solver did not stop within its budget' : `solving it needs more than ${SOLVER_HEAP_MB} MB of memory`,
    );
  });
  return { result, cancel: () => Atomics.store(new Int32Array(cancel), 0, 1) };
}
