import { z } from 'zod';
import { PLANNED_SEMESTERS } from '../domain/terms';
import { DEFAULT_SLOTS } from '../domain/quotas';
import { campusName } from '../input-fields';

const count = z.number({ error: 'must be a whole number ≥ 0' }).int('must be a whole number ≥ 0').min(0, 'must be ≥ 0');


export const slotsSchema = z
  .object({ csc_core: count, csc_elective: count, bif_core: count, bif_elective: count, mth: count, sta: count })
  .partial()
  .strict()
  .transform((given) => ({ ...DEFAULT_SLOTS, ...given }));

export const bulkRunSchema = z.object({
  run_name: z.string({ error: 'a run name is required' }).max(200, 'must be at most 200 characters').trim().min(1, 'a run name is required'),
  target_year: z.number({ error: 'must be a year' }).int('must be a whole year').min(1900, 'must be a year after 1900').max(2200, 'must be a year before 2200'),
  target_semester: z.enum(PLANNED_SEMESTERS, { error: 'must be Fall or Spring' }),
  target_campus: campusName,
  new_freshman: count.default(0),
  new_sophomores: count.default(0),
  new_masters: count.default(0),
  use_quotas: z.boolean({ error: 'must be true or false' }).default(false),
  slots: slotsSchema.default(DEFAULT_SLOTS),
});
export type BulkRunInput = z.output<typeof bulkRunSchema>;

export interface PredictionEntry {
  course_code: string;
  course_name: string;
  prefix: string;
  types: string[];
  confidence: number;
  offer_score: number;
  offer: boolean;
  predicted_enrollment: number;
  /** The 80 % range of enrollment (null in runs saved before ranges existed). */
  enrollment_low: number | null;
  enrollment_high: number | null;
  latent_demand: number;
  bottleneck_score: number;
  projected_sections: number;
  /** Seats per section the projected sections were worked out with. */
  section_size: number;
  reasons: string[];
}

/** Seats per section when turning expected enrollment into sections to open. */
export const SECTION_SEATS = 40;

export interface PredictionRun {
  id: number;
  run_name: string;
  target_year: number;
  target_semester: 'Fall' | 'Spring';
  target_campus: string;
  model_version: string;
  created_at: string;
  entries: PredictionEntry[];
}

export interface CampusTraining {
  samples: number;
  positives?: number;
  roc_auc?: number | null;
  f1?: number | null;
  threshold?: number;
  duration_ms?: number;
  skipped?: string;
}

export interface TrainResult {
  samples_trained: number;
  model_version: string;
  campuses: Record<string, CampusTraining>;
}
