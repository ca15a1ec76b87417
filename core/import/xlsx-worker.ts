/**
 * Worker thread entry: reads a workbook's sheets within the thread's heap and time limits (see
 * runBoundedWorker), so that no workbook can take the app down.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { isCoreError } from '../domain/errors';
import { readSheets } from './xlsx-sheets';

export interface XlsxWorkerInput {
  filename: string;
  content: Uint8Array;
}

const { filename, content } = workerData as XlsxWorkerInput;
readSheets(content, filename).then(
  (sheets) => parentPort?.postMessage({ type: 'result', value: sheets }),
  (error: unknown) =>
    parentPort?.postMessage({
      type: 'error',
      error: isCoreError(error) ? error.toData() : { code: 'invalid', message: `"${filename.slice(0, 200)}" is not a readable Excel workbook` },
    }),
);
