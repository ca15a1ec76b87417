/**
 * Worker thread entry: reads a workbook's sheets within the thread's heap and time limits (see
 * runWorker's bounds), so that no workbook can take the app down.
 */
import { echo } from '../domain/bounds';
import { serveJobs } from '../workers';
import { readSheets } from './xlsx-sheets';

export interface XlsxWorkerInput {
  filename: string;
  content: Uint8Array;
}

serveJobs(
  (job) => readSheets((job as XlsxWorkerInput).content, (job as XlsxWorkerInput).filename),
  (job) => ({ code: 'invalid', message: `"${echo((job as XlsxWorkerInput).filename)}" is not a readable Excel workbook` }),
);
