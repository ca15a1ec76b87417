import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { parentPort, Worker, type ResourceLimits, type TransferListItem } from 'node:worker_threads';
import { CoreError, isCoreError, type CoreErrorData } from './domain/errors';

/**
 * Starts a worker thread on a module next to the caller, which serves the jobs it is sent (see
 * serveJobs). Under tsx (development, tests) the module is TypeScript and the worker registers tsx
 * first; in a built app it is plain JS.
 */
export function startWorker(moduleUrl: URL, resourceLimits?: ResourceLimits): Worker {
  const options = resourceLimits ? { resourceLimits } : {};
  if (moduleUrl.pathname.endsWith('.ts')) {
    const bootstrap = `import('tsx/esm/api').then((tsx) => { tsx.register(); return import(${JSON.stringify(moduleUrl.href)}); })`;
    return new Worker(bootstrap, { eval: true, ...options });
  }
  return new Worker(moduleUrl, options);
}

/**
 * A worker module next to the caller: `.ts` under tsx (development), `.js` in a built app. With
 * TERMWISE_WORKER_BUNDLE naming a folder that build/bundle-node.ts wrote, the bundled `<name>.js`
 * there instead: the test run sets it (test/helpers/server-bundle.ts), since a thread started under
 * tsx loads the core's TypeScript afresh (about 1.1 s of CPU a thread, against 0.4 bundled).
 */
export function siblingModule(callerUrl: string, name: string): URL {
  const bundle = process.env.TERMWISE_WORKER_BUNDLE;
  if (bundle) return pathToFileURL(join(bundle, `${name}.js`));
  return new URL(`./${name}${callerUrl.endsWith('.ts') ? '.ts' : '.js'}`, callerUrl);
}

export interface WorkerBounds {
  /** Wall-clock time the job may take. */
  timeoutMs: number;
  /** Heap the worker may use (V8 old generation). */
  maxHeapMb: number;
}

/** Why a bounded worker did not answer: it ran out of time or of memory. */
export class WorkerLimitError extends Error {
  constructor(readonly limit: 'time' | 'memory') {
    super(limit === 'time' ? 'The worker ran out of time' : 'The worker ran out of memory');
    this.name = 'WorkerLimitError';
  }
}

type WorkerMessage =
  { type: 'progress'; value: unknown } | { type: 'result'; value: unknown } | { type: 'error'; error: CoreErrorData } | { type: 'crash'; message: string };

/**
 * Reads a worker's message for the job it runs: progress goes to `onProgress` and the job goes on
 * (null); a result or an error (a CoreError as data) ends it, as a settle function to call.
 */
function jobEnd<T>(
  message: WorkerMessage,
  onProgress: ((value: unknown) => void) | undefined,
  resolve: (value: T) => void,
  reject: (error: unknown) => void,
): (() => void) | null {
  if (message.type === 'progress') {
    onProgress?.(message.value);
    return null;
  }
  if (message.type === 'result') return () => resolve(message.value as T);
  // A fault of Termwise in the worker: an internal error here, logged by whoever answers (never shown).
  if (message.type === 'crash') return () => reject(new Error(message.message));
  return () => reject(new CoreError(message.error.code, message.error.message, message.error.details));
}

/** Threads kept between jobs, per module and heap bounds: started threads wait here for the next job. */
const waiting = new Map<string, Worker[]>();
/** When each waiting thread ends unless a job takes it first. */
const waitingUntil = new WeakMap<Worker, NodeJS.Timeout>();
/** Threads of one kind kept waiting at most (more at once end after their job). */
const MAX_WAITING = 2;
/** A waiting thread ends after this long without a job, returning its memory. */
export const WAITING_MS = 120_000;

const workerKey = (moduleUrl: URL, limits: ResourceLimits | undefined): string => `${moduleUrl.href} ${JSON.stringify(limits ?? {})}`;

/** A waiting thread of the kind, else a new one (started once; its later jobs skip starting a thread and loading its modules). */
function takeWorker(moduleUrl: URL, limits: ResourceLimits | undefined): Worker {
  const kept = waiting.get(workerKey(moduleUrl, limits))?.pop();
  if (kept) {
    clearTimeout(waitingUntil.get(kept));
    kept.ref();
    return kept;
  }
  const worker = startWorker(moduleUrl, limits);
  // A thread that fails or ends while it waits is no longer kept.
  const forget = (): void => {
    const list = waiting.get(workerKey(moduleUrl, limits));
    const at = list?.indexOf(worker) ?? -1;
    if (list && at >= 0) list.splice(at, 1);
  };
  worker.on('error', forget).on('exit', forget);
  return worker;
}

/** A thread whose job ended well waits for the next one, unless enough wait already. */
function keepWorker(moduleUrl: URL, limits: ResourceLimits | undefined, worker: Worker): void {
  const key = workerKey(moduleUrl, limits);
  const list = waiting.get(key) ?? [];
  if (list.length >= MAX_WAITING) {
    void worker.terminate();
    return;
  }
  waiting.set(key, [...list, worker]);
  // A waiting thread does not keep the process alive.
  worker.unref();
  waitingUntil.set(worker, setTimeout(() => void worker.terminate(), WAITING_MS).unref());
}

/**
 * Sends one job to a thread and settles as it ends (see jobEnd); `after` is told first whether the
 * thread may take another job (not after running out of time or memory, failing, or stopping).
 */
function jobOn<T>(
  worker: Worker,
  job: unknown,
  options: { onProgress?: ((value: unknown) => void) | undefined; transferList?: readonly TransferListItem[] | undefined; timeoutMs?: number | undefined },
  after: (keep: boolean) => void,
): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    let settled = false;
    const finish = (outcome: () => void, keep = false): void => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      worker.off('message', onMessage).off('error', onError).off('exit', onExit);
      after(keep);
      outcome();
    };
    const timer = options.timeoutMs === undefined ? undefined : setTimeout(() => finish(() => reject(new WorkerLimitError('time'))), options.timeoutMs);
    const onMessage = (message: WorkerMessage): void => {
      const end = jobEnd(message, options.onProgress, resolve, reject);
      if (end) finish(end, message.type !== 'crash');
    };
    const onError = (error: Error & { code?: string }): void =>
      finish(() => reject(error.code === 'ERR_WORKER_OUT_OF_MEMORY' ? new WorkerLimitError('memory') : error));
    const onExit = (code: number): void => finish(() => reject(new Error(`The worker stopped unexpectedly (exit code ${code})`)));
    worker.on('message', onMessage).on('error', onError).on('exit', onExit);
    worker.postMessage({ type: 'job', input: job }, [...(options.transferList ?? [])]);
  });
}

/**
 * Runs one job in a worker thread to completion: "progress" messages go to `onProgress`, the
 * "result" resolves, an "error" (a CoreError as data) rejects as that CoreError. With `bounds`,
 * the thread has a heap limit and a time limit, so that input which would take the process down
 * (a zip bomb, a pathological file) only ends that thread (WorkerLimitError).
 *
 * The thread is kept for the next job of its module (see serveJobs) once this one ends well: a
 * thread that runs out of time or memory, or fails, ends with its job.
 */
export function runWorker<T>(
  moduleUrl: URL,
  job: unknown,
  options: {
    onProgress?: (value: unknown) => void;
    bounds?: WorkerBounds;
    /** Moved into the worker (message ports in the job). */
    transferList?: readonly TransferListItem[];
    /** A thread of its own, ended with the job (what the job leaves behind must not serve another). */
    alone?: boolean;
  } = {},
): Promise<T> {
  const { onProgress, bounds, transferList, alone = false } = options;
  const limits = bounds ? { maxOldGenerationSizeMb: bounds.maxHeapMb, maxYoungGenerationSizeMb: 32, stackSizeMb: 4 } : undefined;
  // Started in the promise: a thread that cannot start rejects it, as the job's own failures do.
  return Promise.resolve().then(() => {
    const worker = alone ? startWorker(moduleUrl, limits) : takeWorker(moduleUrl, limits);
    return jobOn<T>(worker, job, { onProgress, transferList, timeoutMs: bounds?.timeoutMs }, (keep) => {
      if (keep && !alone) keepWorker(moduleUrl, limits, worker);
      else void worker.terminate();
    });
  });
}

/**
 * The worker's side: posts the outcome of its job to the thread that started it. A CoreError
 * travels as data; any other failure becomes `fallback`, so no internal detail leaks out — or, with
 * `fallback` null, an internal error in the parent carrying the message for its log.
 */
export function replyToParent(job: Promise<unknown>, fallback: CoreErrorData | null): void {
  job.then(
    (value) => parentPort?.postMessage({ type: 'result', value } satisfies WorkerMessage),
    (error: unknown) => {
      if (isCoreError(error)) parentPort?.postMessage({ type: 'error', error: error.toData() } satisfies WorkerMessage);
      else if (fallback === null)
        parentPort?.postMessage({ type: 'crash', message: error instanceof Error ? error.message : String(error) } satisfies WorkerMessage);
      else {
        console.error(error); // for the log; the caller gets `fallback`
        parentPort?.postMessage({ type: 'error', error: fallback } satisfies WorkerMessage);
      }
    },
  );
}

/**
 * A worker thread kept between jobs, so that later jobs skip starting a thread and loading its
 * modules (and, for training, instantiating XGBoost's WebAssembly): jobs run one at a time, in the
 * order asked; the thread ends after `idleMs` without work (returning its memory) and does not keep
 * the process alive while idle. A thread that fails is replaced by the next job.
 */
export class KeptWorker {
  private worker: Worker | null = null;
  private queue: Promise<unknown> = Promise.resolve();
  private idleTimer: NodeJS.Timeout | undefined;

  constructor(
    private readonly moduleUrl: URL,
    private readonly idleMs: number,
  ) {}

  run<T>(input: unknown, onProgress?: (value: unknown) => void): Promise<T> {
    const job = this.queue.then(() => this.runNow<T>(input, onProgress));
    this.queue = job.catch(() => undefined);
    return job;
  }

  private runNow<T>(input: unknown, onProgress?: (value: unknown) => void): Promise<T> {
    clearTimeout(this.idleTimer);
    const worker = (this.worker ??= startWorker(this.moduleUrl));
    worker.ref();
    return jobOn<T>(worker, input, { onProgress }, (keep) => {
      if (!keep) {
        this.worker = null;
        void worker.terminate();
        return;
      }
      worker.unref();
      this.idleTimer = setTimeout(() => this.close(), this.idleMs).unref();
    });
  }

  /** Ends the thread now (a job in flight fails); the next job starts a new one. */
  close(): void {
    clearTimeout(this.idleTimer);
    const worker = this.worker;
    this.worker = null;
    void worker?.terminate();
  }
}

/**
 * A worker module's side: runs each job it is sent with `work`, one at a time, replying as
 * replyToParent does (`fallback` may depend on the job).
 */
export function serveJobs(work: (input: unknown) => Promise<unknown>, fallback: CoreErrorData | null | ((input: unknown) => CoreErrorData | null)): void {
  parentPort?.on('message', (message: { type: 'job'; input: unknown }) => {
    if (message.type !== 'job') return;
    replyToParent(
      Promise.resolve().then(() => work(message.input)),
      typeof fallback === 'function' ? fallback(message.input) : fallback,
    );
  });
}

/** The worker's side: reports progress. */
export function reportProgress(value: unknown): void {
  parentPort?.postMessage({ type: 'progress', value } satisfies WorkerMessage);
}
