/** Worker thread entry: tries to load each stored model of a database file (see model-check.ts). */
import { workerData } from 'node:worker_threads';
import { replyToParent } from '../workers';
import Database from 'better-sqlite3';
import { sqliteKysely } from '../db/sqlite-store';
import type { DamagedModel, ModelCheckInput } from './model-check';
import { Booster } from './xgboost';
import { storedBoosters } from './models-repo';

async function main(): Promise<DamagedModel[]> {
  const { databaseFile } = workerData as ModelCheckInput;
  const handle = new Database(databaseFile, { readonly: true, fileMustExist: true });
  const db = sqliteKysely(handle);
  const damaged: DamagedModel[] = [];
  try {
    for (const row of await storedBoosters(db)) {
      try {
        for (const bytes of [row.classifier, row.regressor]) if (bytes) (await Booster.load(new Uint8Array(bytes))).free();
      } catch {
        damaged.push({ campus: row.campus, model_version: row.model_version });
      }
    }
  } finally {
    await db.destroy();
  }
  return damaged;
}

replyToParent(main(), { code: 'invalid', message: 'The models could not be checked' });
