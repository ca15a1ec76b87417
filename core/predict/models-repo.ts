import { storedList } from '../domain/lists';
import type { Db } from '../db/store';
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
  classifier: Uint8Array;
  regressor: Uint8Array | null;
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

export const sameList = (stored: readonly string[], current: readonly string[]): boolean =>
  stored.length === current.length && stored.every((name, i) => name === current[i]);

/** A model trained on other feature lists (an earlier version of Termwise) cannot score today's rows. */
export function fitsCurrentFeatures(model: Pick<StoredModel, 'features' | 'demand_features'>): boolean {
  return sameList(model.features, FEATURE_NAMES) && sameList(model.demand_features, DEMAND_FEATURE_NAMES);
}

export async function saveModel(db: Db, department: number, model: TrainedCampus, version: string, trainedAt: string): Promise<void> {
  await db
    .insertInto('models')
    .values({
      department_id: department,
      campus: model.campus,
      model_version: version,
      trained_at: trainedAt,
      samples: model.samples,
      positives: model.positives,
      roc_auc: model.roc_auc,
      f1: model.f1,
      threshold: model.threshold,
      features: JSON.stringify(model.features),
      demand_features: JSON.stringify(model.demand_features),
      duration_ms: model.duration_ms,
      classifier: Buffer.from(model.classifier),
      regressor: model.regressor ? Buffer.from(model.regressor) : null,
      adjustments: JSON.stringify(model.adjustments),
      left_out_terms: JSON.stringify(model.left_out_terms),
    })
    .execute();
}

function fromRow(row: ModelRow | undefined): StoredModel | undefined {
  if (!row) return undefined;
  return {
    ...row,
    features: storedList(row.features),
    demand_features: storedList(row.demand_features),
    left_out_terms: storedList(row.left_out_terms),
    classifier: new Uint8Array(row.classifier),
    regressor: row.regressor ? new Uint8Array(row.regressor) : null,
    adjustments: readAdjustments(row.adjustments),
  };
}

const MODEL_COLUMNS = [
  'id',
  'campus',
  'model_version',
  'trained_at',
  'samples',
  'positives',
  'roc_auc',
  'f1',
  'threshold',
  'features',
  'duration_ms',
  'classifier',
  'regressor',
  'adjustments',
  'demand_features',
  'left_out_terms',
] as const;

/** The newest model of a campus. */
export async function currentModel(db: Db, department: number, campus: Campus): Promise<StoredModel | undefined> {
  return fromRow(
    await db
      .selectFrom('models')
      .select(MODEL_COLUMNS)
      .where('department_id', '=', department)
      .where('campus', '=', campus)
      .orderBy('id', 'desc')
      .limit(1)
      .executeTakeFirst(),
  );
}

export async function modelByVersion(db: Db, department: number, campus: string, version: string): Promise<StoredModel | undefined> {
  return fromRow(
    await db
      .selectFrom('models')
      .select(MODEL_COLUMNS)
      .where('department_id', '=', department)
      .where('campus', '=', campus)
      .where('model_version', '=', version)
      .executeTakeFirst(),
  );
}

/** Quality of the newest model of each campus, without the model bytes. */
export async function modelSummaries(
  db: Db,
  department: number,
): Promise<Omit<StoredModel, 'classifier' | 'regressor' | 'adjustments' | 'demand_features' | 'left_out_terms'>[]> {
  const rows = await db
    .selectFrom('models as m')
    .select(['id', 'campus', 'model_version', 'trained_at', 'samples', 'positives', 'roc_auc', 'f1', 'threshold', 'features', 'duration_ms'])
    .where('m.department_id', '=', department)
    .where('id', '=', (eb) =>
      eb
        .selectFrom('models')
        .select((inner) => inner.fn.max('id').as('latest'))
        .whereRef('campus', '=', 'm.campus')
        .whereRef('department_id', '=', 'm.department_id'),
    )
    .orderBy('campus')
    .execute();
  return rows.map((row) => ({ ...row, features: storedList(row.features) }));
}

/** Whether any campus has a model of this version. */
export async function modelVersionTaken(db: Db, department: number, version: string): Promise<boolean> {
  return (
    (await db.selectFrom('models').select('id').where('department_id', '=', department).where('model_version', '=', version).limit(1).executeTakeFirst()) !==
    undefined
  );
}

/** Every stored model's boosters as bytes, to check that each still loads. */
export async function storedBoosters(db: Db): Promise<{ campus: string; model_version: string; classifier: Uint8Array; regressor: Uint8Array | null }[]> {
  return db.selectFrom('models').select(['campus', 'model_version', 'classifier', 'regressor']).execute();
}
