import { Worker } from 'node:worker_threads';

/**
 * Starts a worker thread on a module next to the caller. Under tsx (development, tests) the
 * module is TypeScript and the worker registers tsx first; in a built app it is plain JS.
 */
export function startWorker(moduleUrl: URL, workerData: unknown): Worker {
  if (moduleUrl.pathname.endsWith('.ts')) {
    const bootstrap = `import('tsx/esm/api').then((tsx) => { tsx.register(); return import(${JSON.stringify(moduleUrl.href)}); })`;
    return new Worker(bootstrap, { eval: true, workerData });
  }
  return new Worker(moduleUrl, { workerData });
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
