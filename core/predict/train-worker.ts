/**
 * Worker thread entry (a kept worker: one job per campus and training): trains one campus's model
 * from the database file, on its own and the other campuses' history, reporting progress, and hands
 * the serialised boosters back to the main thread, which stores them.
 */
import { INTERNAL_ERROR_MESSAGE } from '../domain/errors';
import { reportProgress, serveJobs } from '../workers';
import { openStore, type StoreConfig } from '../db/store';
import { loadHistory } from './planning-view';
import { trainCampus, type TrainedCampus } from './train';

export interface TrainWorkerInput {
  store: StoreConfig;
  /** The department whose history trains the model. */
  department: number;
  /** Every campus, whose history the model also learns from. */
  campuses: readonly string[];
  /** The campus whose model is trained. */
  campus: string;
}

export interface TrainProgress {
  campus: string;
  stage: string;
  percent: number;
}

async function trainOne({ store: config, department, campuses, campus }: TrainWorkerInput): Promise<TrainedCampus | null> {
  const store = await openStore(config, { migrate: false, poolSize: 1 });
  try {
    const history = await loadHistory(store.db, department, campuses);
    const trained = await trainCampus(history, campus, (stage, percent) => {
      reportProgress({ campus, stage, percent } satisfies TrainProgress);
    });
    if (!trained) {
      reportProgress({ campus, stage: 'skipped (not enough history)', percent: 100 } satisfies TrainProgress);
      return null;
    }
    trained.models.classifier.free();
    trained.models.regressor?.free();
    return trained.trained;
  } finally {
    await store.close();
  }
}

serveJobs((input) => trainOne(input as TrainWorkerInput), { code: 'internal', message: `Training failed. ${INTERNAL_ERROR_MESSAGE}` });
