/** Worker thread entry: tries to load each stored model of a database file (see model-check.ts). */
import { serveJobs } from '../workers';
import Database from 'better-sqlite3';
import { sqliteKysely } from '../db/sqlite-store';
import type { DamagedModel, ModelCheckInput } from './model-check';
import { Booster, capXgboostHeap } from './xgboost';
import { storedBoosters } from './models-repo';

/** The heap a stored model may take to load: real models need a few megabytes; a damaged one asks for gigabytes. */
const MODEL_HEAP_BYTES = 256 * 2 ** 20;

/**
 * The first stored model that does not load, if any: once the runtime has failed on one, later
 * loads in this thread prove nothing.
 */
async function checkModels({ databaseFile }: ModelCheckInput): Promise<DamagedModel[]> {
  await capXgboostHeap(MODEL_HEAP_BYTES);
  const handle = new Database(databaseFile, { readonly: true, fileMustExist: true });
  const db = sqliteKysely(handle);
  const damaged: DamagedModel[] = [];
  try {
    for (const row of await storedBoosters(db)) {
      try {
        for (const bytes of [row.classifier, row.regressor]) if (bytes) (await Booster.load(new Uint8Array(bytes))).free();
      } catch {
        damaged.push({ campus: row.campus, model_version: row.model_version });
        break;
      }
    }
  } finally {
    await db.destroy();
  }
  return damaged;
}

serveJobs((job) => checkModels(job as ModelCheckInput), { code: 'invalid', message: 'The models could not be checked' });
