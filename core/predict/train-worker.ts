/**
 * Worker thread entry (a kept worker: one job per training): trains every campus's model from the
 * database file, reporting progress, and hands the serialised boosters back to the main thread,
 * which stores them.
 */
import { INTERNAL_ERROR_MESSAGE } from '../domain/errors';
import { reportProgress, serveJobs } from '../workers';
import { openDatabase } from '../db/connection';
import { loadHistory } from './history';
import { trainCampus, type TrainedCampus } from './train';

export interface TrainWorkerInput {
  databaseFile: string;
  campuses: readonly string[];
}

export interface TrainProgress {
  campus: string;
  stage: string;
  percent: number;
}

async function trainAll({ databaseFile, campuses }: TrainWorkerInput): Promise<TrainedCampus[]> {
  const db = openDatabase(databaseFile);
  try {
    const history = loadHistory(db, campuses);
    const results: TrainedCampus[] = [];
    for (const campus of campuses) {
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

serveJobs((input) => trainAll(input as TrainWorkerInput), { code: 'internal', message: `Training failed. ${INTERNAL_ERROR_MESSAGE}` });
