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
 * runtime of a thread may not survive a damaged model), in bounded memory, and names the first
 * that does not load.
 * When the check itself cannot finish, the file is refused: its models are not known to be sound.
 */
export async function checkStoredModels(databaseFile: string, filename: string): Promise<DamagedModel[]> {
  try {
    return await runWorker<DamagedModel[]>(siblingModule(import.meta.url, 'model-check-worker'), { databaseFile } satisfies ModelCheckInput, {
      // XGBoost's own heap is capped inside the thread (model-check-worker.ts); a thread that loaded a damaged model serves no other check.
      bounds: { timeoutMs: 30_000, maxHeapMb: 256 },
      alone: true,
    });
  } catch (error) {
    const why = error instanceof WorkerLimitError ? `the check ran out of ${error.limit}` : 'the check failed';
    throw invalid(`"${echo(filename)}" has trained models that could not be checked (${why}); it cannot be restored`);
  }
}
