import { invalid } from '../domain/errors';
import { echo } from '../domain/bounds';
import { runWorker, siblingModule, WorkerLimitError } from '../workers';

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
 * When the check itself cannot finish, the file is refused: its models are not known to be sound.
 */
export async function checkStoredModels(databaseFile: string, filename: string): Promise<DamagedModel[]> {
  try {
    return await runWorker<DamagedModel[]>(siblingModule(import.meta.url, 'model-check-worker'), { databaseFile } satisfies ModelCheckInput, {
      bounds: { timeoutMs: 30_000, maxHeapMb: 512 },
    });
  } catch (error) {
    const why = error instanceof WorkerLimitError ? `the check ran out of ${error.limit}` : 'the check failed';
    throw invalid(`"${echo(filename)}" has trained models that could not be checked (${why}); it cannot be restored`);
  }
}
