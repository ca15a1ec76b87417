import { runBoundedWorker, siblingModule, WorkerLimitError } from '../workers';

export interface ModelCheckInput {
  databaseFile: string;
}

export interface DamagedModel {
  campus: string;
  model_version: string;
}

/**
 * Loads every stored model of a database file in a worker thread of its own (the XGBoost
 * runtime of a thread may not survive a damaged model) and names those that do not load.
 */
export async function checkStoredModels(databaseFile: string): Promise<DamagedModel[]> {
  try {
    const outcome = await runBoundedWorker<DamagedModel[]>(siblingModule(import.meta.url, 'model-check-worker'), { databaseFile } satisfies ModelCheckInput, { timeoutMs: 30_000, maxHeapMb: 512 });
    return outcome.ok ? outcome.value : [{ campus: 'a', model_version: 'model' }];
  } catch (error) {
    if (error instanceof WorkerLimitError) return [{ campus: 'a', model_version: `model (checking it ran out of ${error.limit})` }];
    return [{ campus: 'a', model_version: 'model' }];
  }
}
