/**
 * Worker thread entry: trains both campus models from the database file, reporting progress,
 * and hands the serialised boosters back to the main thread, which stores them.
 */
import { workerData } from 'node:worker_threads';
import { INTERNAL_ERROR_MESSAGE } from '../domain/errors';
import { replyToParent, reportProgress } from '../workers';
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

async function main(): Promise<TrainedCampus[]> {
  const { databaseFile } = workerData as TrainWorkerInput;
  const db = openDatabase(databaseFile);
  try {
    const history = loadHistory(db);
    const results: TrainedCampus[] = [];
    for (const campus of CAMPUSES) {
      const trained = await trainCampus(history, campus, (stage, percent) => {
        reportProgress({ campus, stage, percent } satisfies TrainProgress);
      });
      if (trained) {
        trained.models.classifier.free();
        trained.models.regressor?.free();
        results.push(trained.trained);
      } else reportProgress({ campus, stage: 'skipped (not enough history)', percent: 100 } satisfies TrainProgress);
    }
    return results;
  } finally {
    db.close();
  }
}

replyToParent(main(), { code: 'internal', message: `Training failed. ${INTERNAL_ERROR_MESSAGE}` });
