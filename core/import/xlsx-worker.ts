/**
 * Worker thread entry: reads a workbook's sheets within the thread's heap and time limits (see
 * runWorker's bounds), so that no workbook can take the app down.
 */
import { workerData } from 'node:worker_threads';
import { echo } from '../domain/bounds';
import { replyToParent } from '../workers';
import { readSheets } from './xlsx-sheets';

export interface XlsxWorkerInput {
  filename: string;
  content: Uint8Array;
}

const { filename, content } = workerData as XlsxWorkerInput;
replyToParent(readSheets(content, filename), { code: 'invalid', message: `"${echo(filename)}" is not a readable Excel workbook` });
