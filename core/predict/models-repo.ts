import { storedList } from '../domain/lists';
import type { Db } from '../db/connection';
import type { Campus } from '../domain/campuses';
import { z } from 'zod';
import { UNADJUSTED, type Adjustments, type TrainedCampus } from './train';
import { DEMAND_FEATURE_NAMES, FEATURE_NAMES } from './features';

export interface StoredModel extends TrainedCampus {
  id: number;
  model_version: string;
  trained_at: string;
}

interface ModelRow extends Omit<StoredModel, 'features' | 'demand_features' | 'left_out_terms' | 'classifier' | 'regressor' | 'adjustments'> {
  features: string;
  left_out_terms: string | null;
  demand_features: string | null;
  classifier: Buffer;
  regressor: Buffer | null;
  adjustments: string | null;
}

const bounds = z.object({ low: z.number(), high: z.number() });
const adjustmentsSchema = z.object({
  calibration: z.object({ slope: z.number(), intercept: z.number() }),
  intervals: z.object({ established: bounds, little_history: bounds }),
});

/** Stored adjustments, or none for a model trained before they existed (or a damaged row). */
function readAdjustments(text: string | null): Adjustments {
  if (text === null) return UNADJUSTED;
  try {
    const parsed = adjustmentsSchema.safeParse(JSON.parse(text));
    return parsed.success ? parsed.data : UNADJUSTED;
  } catch {
    return UNADJUSTED;
  }
}

export const sameList = (stored: readonly string[], current: readonly string[]): boolean => stored.length === current.length && stored.every((name, i) => name === current[i]);

/** A model trained on other feature lists (an earlier version of Termwise) cannot score today's rows. */
export function fitsCurrentFeatures(model: Pick<StoredModel, 'features' | 'demand_features'>): boolean {
  return sameList(model.features, FEATURE_NAMES) && sameList(model.demand_features, DEMAND_FEATURE_NAMES);
}

export function saveModel(db: Db, model: TrainedCampus, version: string, trainedAt: string): void {
  db.prepare(
    `INSERT INTO models (campus, model_version, trained_at, samples, positives, roc_auc, f1, threshold, features, demand_features, duration_ms, classifier, regressor, adjustments, left_out_terms)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  ).run(
    model.campus,
    version,
    trainedAt,
    model.samples,
    model.positives,
    model.roc_auc,
    model.f1,
    model.threshold,
    JSON.stringify(model.features),
    JSON.stringify(model.demand_features),
    model.duration_ms,
    Buffer.from(model.classifier),
    model.regressor ? Buffer.from(model.regressor) : null,
    JSON.stringify(model.adjustments),
    JSON.stringify(model.left_out_terms),
  );
}

function fromRow(row: ModelRow | undefined): StoredModel | undefined {
  if (!row) return undefined;
  return { ...row, features: storedList(row.features), demand_features: storedList(row.demand_features), left_out_terms: storedList(row.left_out_terms), classifier: new Uint8Array(row.classifier), regressor: row.regressor ? new Uint8Array(row.regressor) : null, adjustments: readAdjustments(row.adjustments) };
}

/** The newest model of a campus. */
export function currentModel(db: Db, campus: Campus): StoredModel | undefined {
  return fromRow(db.prepare<[string], ModelRow>('SELECT * FROM models WHERE campus = ? ORDER BY id DESC LIMIT 1').get(campus));
}

export function modelByVersion(db: Db, campus: string, version: string): StoredModel | undefined {
  return fromRow(db.prepare<[string, string], ModelRow>('SELECT * FROM models WHERE campus = ? AND model_version = ?').get(campus, version));
}

/** Quality of the newest model of each campus, without the model bytes. */
export function modelSummaries(db: Db): Omit<StoredModel, 'classifier' | 'regressor' | 'adjustments' | 'demand_features' | 'left_out_terms'>[] {
  return db
    .prepare<[], Omit<ModelRow, 'classifier' | 'regressor' | 'adjustments' | 'demand_features' | 'left_out_terms'>>(
      `SELECT id, campus, model_version, trained_at, samples, positives, roc_auc, f1, threshold, features, duration_ms FROM models m
       WHERE id = (SELECT MAX(id) FROM models WHERE campus = m.campus) ORDER BY campus`,
    )
    .all()
    .map((row) => ({ ...row, features: storedList(row.features) }));
}

/** Whether any campus has a model of this version. */
export function modelVersionTaken(db: Db, version: string): boolean {
  return db.prepare<[string], number>('SELECT 1 FROM models WHERE model_version = ?').pluck().get(version) !== undefined;
}

/** Every stored model's boosters as bytes, to check that each still loads. */
export function storedBoosters(db: Db): { campus: string; model_version: string; classifier: Buffer; regressor: Buffer | null }[] {
  return db.prepare<[], { campus: string; model_version: string; classifier: Buffer; regressor: Buffer | null }>('SELECT campus, model_version, classifier, regressor FROM models').all();
}
