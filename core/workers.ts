import { Worker, type ResourceLimits } from 'node:worker_threads';

/**
 * Starts a worker thread on a module next to the caller. Under tsx (development, tests) the
 * module is TypeScript and the worker registers tsx first; in a built app it is plain JS.
 */
export function startWorker(moduleUrl: URL, workerData: unknown, resourceLimits?: ResourceLimits): Worker {
  const options = { workerData, ...(resourceLimits ? { resourceLimits } : {}) };
  if (moduleUrl.pathname.endsWith('.ts')) {
    const bootstrap = `import('tsx/esm/api').then((tsx) => { tsx.register(); return import(${JSON.stringify(moduleUrl.href)}); })`;
    return new Worker(bootstrap, { eval: true, ...options });
  }
  return new Worker(moduleUrl, options);
}

/** A worker module next to the caller: `.ts` under tsx (development, tests), `.js` in a built app. */
export function siblingModule(callerUrl: string, name: string): URL {
  return new URL(`./${name}${callerUrl.endsWith('.ts') ? '.ts' : '.js'}`, callerUrl);
}

/** Runs a worker to completion: messages of type "progress" go to `onProgress`, "result" resolves, "error" rejects. */
export function runWorker<T>(moduleUrl: URL, workerData: unknown, onProgress: (message: unknown) => void): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const worker = startWorker(moduleUrl, workerData);
    let settled = false;
    worker.on('message', (message: { type: string; value?: unknown; message?: string }) => {
      if (message.type === 'progress') onProgress(message.value);
      else if (message.type === 'result') {
        settled = true;
        resolve(message.value as T);
        void worker.terminate();
      } else if (message.type === 'error') {
        settled = true;
        reject(new Error(message.message ?? 'The worker failed'));
        void worker.terminate();
      }
    });
    worker.on('error', (error) => {
      if (!settled) reject(error);
      settled = true;
    });
    worker.on('exit', (code) => {
      if (!settled) reject(new Error(`The worker stopped unexpectedly (exit code ${code})`));
    });
  });
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

/**
 * Runs one job in its own worker thread with a heap limit and a time limit, so that input which
 * would take the process down (a zip bomb, a pathological file) only ends that thread. The
 * worker posts `{ type: 'result', value }` or `{ type: 'error', error }` (an error as data).
 */
export function runBoundedWorker<T>(moduleUrl: URL, workerData: unknown, bounds: WorkerBounds): Promise<{ ok: true; value: T } | { ok: false; error: unknown }> {
  return new Promise((resolve, reject) => {
    const worker = startWorker(moduleUrl, workerData, { maxOldGenerationSizeMb: bounds.maxHeapMb, maxYoungGenerationSizeMb: 32, stackSizeMb: 4 });
    let settled = false;
    const finish = (outcome: () => void): void => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      outcome();
      void worker.terminate();
    };
    const timer = setTimeout(() => finish(() => reject(new WorkerLimitError('time'))), bounds.timeoutMs);
    worker.on('message', (message: { type: string; value?: unknown; error?: unknown }) => {
      if (message.type === 'result') finish(() => resolve({ ok: true, value: message.value as T }));
      else if (message.type === 'error') finish(() => resolve({ ok: false, error: message.error }));
    });
    worker.on('error', (error: Error & { code?: string }) => finish(() => reject(error.code === 'ERR_WORKER_OUT_OF_MEMORY' ? new WorkerLimitError('memory') : error)));
    worker.on('exit', (code) => finish(() => reject(new Error(`The worker stopped unexpectedly (exit code ${code})`))));
  });
}
