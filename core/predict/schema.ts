import { z } from 'zod';
import { MAX_CODE_CHARS } from '../domain/codes';
import { LIMITS } from '../domain/bounds';
import { PLANNED_SEMESTERS, type PlannedSemester } from '../domain/terms';
import { campusName, yearNumber } from '../input-fields';
import { MAX_DECIDED_SECTIONS, MAX_DECISION_REASON, STAFF_DECISIONS, type StaffDecision } from '../domain/decisions';

const count = z.number({ error: 'must be a whole number ≥ 0' }).int('must be a whole number ≥ 0').min(0, 'must be ≥ 0');
/** An incoming cohort: a count of students, at most what a course may enroll (a plausible cohort, not an overflow). */
const cohort = count.max(LIMITS.maxEnrollment, `must be at most ${LIMITS.maxEnrollment.toLocaleString('en-US')} students`);
/** Courses a quota category may have: at most a catalog's worth. */
const categorySlots = count.max(1_000, 'must be at most 1,000 courses');

/**
 * Courses per quota category, by key ("ece_core", "phys"): the department's categories (profile or
 * catalog) or any prefix / prefix_type of its catalog; checked against them when the run is made.
 */
export const slotsSchema = z
  .record(z.string().max(MAX_CODE_CHARS, `a category key is at most ${MAX_CODE_CHARS} characters`), categorySlots)
  .refine((slots) => Object.keys(slots).length <= 200, 'at most 200 categories');

export const bulkRunSchema = z.object({
  run_name: z
    .string({ error: 'a run name is required' })
    .max(LIMITS.nameChars, `must be at most ${LIMITS.nameChars} characters`)
    .trim()
    .min(1, 'a run name is required'),
  target_year: yearNumber,
  target_semester: z.enum(PLANNED_SEMESTERS, { error: 'must be Fall or Spring' }),
  target_campus: campusName,
  new_freshman: cohort.default(0),
  new_sophomores: cohort.default(0),
  new_masters: cohort.default(0),
  use_quotas: z.boolean({ error: 'must be true or false' }).default(false),
  slots: slotsSchema.optional(),
});
export type BulkRunInput = z.output<typeof bulkRunSchema>;

/** What the model says of one course in a run. */
export interface ModelEntry {
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

/** Staff's decision on a course of a run, beside the model's: null where staff have not decided. */
export interface StaffDecisionFields {
  staff_decision: StaffDecision | null;
  staff_sections: number | null;
  staff_reason: string | null;
  decided_at: string | null;
}

/**
 * One course of a saved run: the model's recommendation (offer, projected_sections), staff's
 * decision if any, and the plan they make together (staff's word where given, else the model's).
 */
export interface PredictionEntry extends ModelEntry, StaffDecisionFields {
  planned_offer: boolean;
  planned_sections: number;
}

/** A change to staff's decision on one course: `decision: null` clears it (sections and reason too). */
export const entryDecisionSchema = z
  .object({
    run_id: z.coerce.number({ error: 'must be a run id' }).int('must be a run id').positive('must be a run id'),
    course_code: z.string().trim().min(1, 'a course code is required').max(MAX_CODE_CHARS, `must be at most ${MAX_CODE_CHARS} characters`),
    decision: z.enum(STAFF_DECISIONS, { error: 'must be offer, skip or null' }).nullable().optional(),
    sections: z
      .number({ error: 'must be a whole number of sections' })
      .int('must be a whole number of sections')
      .min(1, 'must be at least 1 (skip the course instead)')
      .max(MAX_DECIDED_SECTIONS, `must be at most ${MAX_DECIDED_SECTIONS}`)
      .nullable()
      .optional(),
    reason: z.string({ error: 'must be text' }).trim().max(MAX_DECISION_REASON, `must be at most ${MAX_DECISION_REASON} characters`).nullable().optional(),
  })
  .strict()
  .refine((input) => input.decision !== undefined || input.sections !== undefined || input.reason !== undefined, {
    path: ['decision'],
    message: 'give a decision (offer, skip or null), a number of sections or a reason',
  });
export type EntryDecisionInput = z.output<typeof entryDecisionSchema>;

export interface PredictionRun {
  id: number;
  run_name: string;
  target_year: number;
  target_semester: PlannedSemester;
  target_campus: string;
  model_version: string;
  created_at: string;
  /** What staff recorded of the target term when the run was made (instructors away, courses new or retired), in words. */
  term_notes: string[];
  /** What the run could not take into account, in words (e.g. a term left out as incomplete). */
  caveats: string[];
  entries: PredictionEntry[];
}

/** A run as the model made it, before it is saved. */
export type NewRun = Omit<PredictionRun, 'id' | 'entries'> & { entries: ModelEntry[] };

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
