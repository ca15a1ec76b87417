import { z } from 'zod';
import { MAX_CODE_CHARS } from '../domain/codes';
import { defineHandlers, handler } from '../registry';
import { bulkRunSchema, entryDecisionSchema } from './schema';
import { campusName, yearField, yearNumber } from '../input-fields';
import { bulkRun, compareRunsById, decideEntry, exportRunById, nextTerm, run, runs, train } from './service';
import { profileSchema } from '../profile-config';
import { quotaCategoriesAt, updateDepartmentProfile } from './profile-service';
import { departmentProfile } from './profile';
import { addTermNote, removeTermNote, termNotes } from './term-notes-service';
import { MAX_NOTE_REASON, TERM_NOTE_KINDS } from '../domain/term-notes';
import { PLANNED_SEMESTERS } from '../domain/terms';

const semester = z.enum(PLANNED_SEMESTERS, { error: 'must be Fall or Spring' });

const runId = z.coerce.number({ error: 'must be a run id' }).int().positive();

export const predictHandlers = defineHandlers({
  'predict-next-term': handler(z.object({}), 'The term after the latest Fall/Spring offering record', (ctx) => nextTerm(ctx)),
  'predict-train': handler(z.object({}), 'Retrain every campus model from all offering records', (ctx) => train(ctx), { writes: ['models'] }),
  'predict-bulk': handler(bulkRunSchema, 'Score every catalog course for a target term and campus, and save the run', (ctx, input) => bulkRun(ctx, input), {
    writes: ['runs', 'models'],
  }),
  'predict-quota-categories': handler(
    z.object({ campus: campusName.optional() }),
    "The department's quota categories with their usual counts at a campus: its profile's, else every prefix × type of its catalog",
    (ctx, { campus }) => quotaCategoriesAt(ctx, campus),
  ),
  'profile-get': handler(z.object({}), "The department's profile: quota categories, seats per section, per-course sizes, auto-fill's weights", (ctx) =>
    departmentProfile(ctx.db, ctx.department),
  ),
  'profile-update': handler(
    profileSchema.extend({
      quota_categories: profileSchema.shape.quota_categories.nullable(),
      section_size: profileSchema.shape.section_size.nullable(),
      section_sizes: profileSchema.shape.section_sizes.nullable(),
      autofill_weights: profileSchema.shape.autofill_weights.nullable(),
    }),
    "Change the department's profile: each field given replaces the stored one; null returns it to the default (the catalog's categories, 40 seats, auto-fill's own weights)",
    (ctx, change) => updateDepartmentProfile(ctx, change),
    { writes: ['settings'] },
  ),
  'predict-term-notes': handler(
    z.object({ year: yearField, semester }),
    'What staff recorded of a planned term: instructors away, courses newly approved or retired',
    (ctx, { year, semester }) => termNotes(ctx.db, ctx.department, year, semester),
  ),
  'predict-term-note-add': handler(
    z.object({
      year: yearNumber,
      semester,
      kind: z.enum(TERM_NOTE_KINDS, { error: 'must be instructor_away, course_new or course_retired' }),
      doctor_id: z.number({ error: 'must be a doctor id' }).int('must be a doctor id').positive('must be a doctor id').optional(),
      course_code: z.string({ error: 'must be a course code' }).max(MAX_CODE_CHARS, `must be at most ${MAX_CODE_CHARS} characters`).optional(),
      reason: z.string({ error: 'must be text' }).max(MAX_NOTE_REASON, `must be at most ${MAX_NOTE_REASON} characters`).optional(),
    }),
    "Record what the history cannot tell of a planned term; the term's runs use it (the same note again changes its reason)",
    (ctx, input) => addTermNote(ctx, input),
    { writes: ['runs'] },
  ),
  'predict-term-note-delete': handler(z.object({ note_id: runId }), 'Remove a term note', (ctx, { note_id }) => removeTermNote(ctx, note_id), {
    writes: ['runs'],
  }),
  'predict-runs': handler(z.object({ campus: campusName.optional() }), 'Saved runs, newest first', (ctx, { campus }) => runs(ctx, campus)),
  'predict-run': handler(z.object({ run_id: runId }), 'One saved run', (ctx, { run_id }) => run(ctx, run_id)),
  'predict-run-decide': handler(
    entryDecisionSchema,
    "Staff's decision on one course of a run (offer or skip, sections, reason) beside the model's; decision null clears it",
    (ctx, input) => decideEntry(ctx, input),
    { writes: ['runs'] },
  ),
  'predict-run-compare': handler(
    z.object({ run_id: runId, since: runId }),
    'What changed in a run since another: courses added to and dropped from the offer, expected enrollment that moved',
    (ctx, { run_id, since }) => compareRunsById(ctx, run_id, since),
  ),
  'predict-run-export': handler(
    z.object({ run_id: runId, format: z.enum(['xlsx', 'csv'], { error: 'must be xlsx or csv' }).default('xlsx') }),
    'A saved run as XLSX or CSV',
    (ctx, { run_id, format }) => exportRunById(ctx, run_id, format),
  ),
});
