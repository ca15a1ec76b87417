import { storedList } from '../domain/lists';
import type { Db } from '../db/connection';
import type { Campus } from '../domain/campuses';
import type { TrainedCampus } from './train';

export interface StoredModel extends Omit<TrainedCampus, 'features'> {
  id: number;
  model_version: string;
  trained_at: string;
  features: string[];
}

interface ModelRow extends Omit<StoredModel, 'features' | 'classifier' | 'regressor'> {
  features: string;
  classifier: Buffer;
  regressor: Buffer | null;
}

export function saveModel(db: Db, model: TrainedCampus, version: string, trainedAt: string): void {
  db.prepare(
    `INSERT INTO models (campus, model_version, trained_at, samples, positives, roc_auc, f1, threshold, features, duration_ms, classifier, regressor)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  ).run(model.campus, version, trainedAt, model.samples, model.positives, model.roc_auc, model.f1, model.threshold, JSON.stringify(model.features), model.duration_ms, Buffer.from(model.classifier), model.regressor ? Buffer.from(model.regressor) : null);
}

function fromRow(row: ModelRow | undefined): StoredModel | undefined {
  if (!row) return undefined;
  return { ...row, features: storedList(row.features), classifier: new Uint8Array(row.classifier), regressor: row.regressor ? new Uint8Array(row.regressor) : null };
}

/** The newest model of a campus. */
export function currentModel(db: Db, campus: Campus): StoredModel | undefined {
  return fromRow(db.prepare<[string], ModelRow>('SELECT * FROM models WHERE campus = ? ORDER BY id DESC LIMIT 1').get(campus));
}

export function modelByVersion(db: Db, campus: string, version: string): StoredModel | undefined {
  return fromRow(db.prepare<[string, string], ModelRow>('SELECT * FROM models WHERE campus = ? AND model_version = ?').get(campus, version));
}

/** Quality of the newest model of each campus, without the model bytes. */
export function modelSummaries(db: Db): Omit<StoredModel, 'classifier' | 'regressor'>[] {
  return db
    .prepare<[], Omit<ModelRow, 'classifier' | 'regressor'>>(
      `SELECT id, campus, model_version, trained_at, samples, positives, roc_auc, f1, threshold, features, duration_ms FROM models m
       WHERE id = (SELECT MAX(id) FROM models WHERE campus = m.campus) ORDER BY campus`,
    )
    .all()
    .map((row) => ({ ...row, features: storedList(row.features) }));
}
