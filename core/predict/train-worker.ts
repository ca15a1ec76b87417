/**
 * Worker thread entry: trains both campus models from the database file, reporting progress,
 * and hands the serialised boosters back to the main thread, which stores them.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { openDatabase } from '../db/connection';
import { CAMPUSES } from '../domain/terms';
import { loadHistory } from './history';
import { trainCampus, type TrainedCampus } from './train';

export interface TrainWorkerInput {
  databaseFile: string;
}

export interface TrainProgress {
  campus: string;
  stage: string;
  percent: number;
}

async function main(): Promise<void> {
  const { databaseFile } = workerData as TrainWorkerInput;
  const db = openDatabase(databaseFile);
  try {
    const history = loadHistory(db);
    const results: TrainedCampus[] = [];
    for (const campus of CAMPUSES) {
      const trained = await trainCampus(history, campus, (stage, percent) => {
        parentPort?.postMessage({ type: 'progress', value: { campus, stage, percent } satisfies TrainProgress });
      });
      if (trained) {
        trained.models.classifier.free();
        trained.models.regressor?.free();
        results.push(trained.trained);
      } else parentPort?.postMessage({ type: 'progress', value: { campus, stage: 'skipped (not enough history)', percent: 100 } satisfies TrainProgress });
    }
    parentPort?.postMessage({ type: 'result', value: results });
  } finally {
    db.close();
  }
}

main().catch((error: unknown) => {
  parentPort?.postMessage({ type: 'error', message: error instanceof Error ? error.message : String(error) });
});
