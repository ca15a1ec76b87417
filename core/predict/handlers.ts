import { z } from 'zod';
import { defineHandlers, handler } from '../registry';
import { bulkRunSchema, entryDecisionSchema } from './schema';
import { campusName } from '../input-fields';
import { bulkRun, compareRunsById, decideEntry, nextTerm, run, runs, train } from './service';
import { exportRun } from './export';
import { profileSchema, writeProfileFile } from '../profile-config';
import { departmentCategories, departmentProfile } from './profile';
import { loadHistory } from './history';

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
    (ctx, { campus }) => {
      const at = campus === undefined ? ctx.campuses.fallback : ctx.campuses.require(campus, 'campus');
      return { campus: at, ...departmentCategories(departmentProfile(ctx), loadHistory(ctx.db, [at]), at) };
    },
  ),
  'profile-get': handler(z.object({}), "The department's profile (profile.json in the data folder): quota categories, seats per section, per-course sizes", (ctx) =>
    departmentProfile(ctx),
  ),
  'profile-update': handler(
    profileSchema.extend({
      quota_categories: profileSchema.shape.quota_categories.nullable(),
      section_size: profileSchema.shape.section_size.nullable(),
      section_sizes: profileSchema.shape.section_sizes.nullable(),
    }),
    "Change the department's profile: each field given replaces the stored one; null returns it to the default (the catalog's categories, 40 seats)",
    (ctx, change) => {
      const next = { ...departmentProfile(ctx) };
      for (const key of ['quota_categories', 'section_size', 'section_sizes'] as const) {
        const value = change[key];
        if (value === null) delete next[key];
        else if (value !== undefined) Object.assign(next, { [key]: value });
      }
      writeProfileFile(ctx.dataDir, next);
      return next;
    },
    { writes: ['settings'] },
  ),
  'predict-runs': handler(z.object({ campus: campusName.optional() }), 'Saved runs, newest first', (ctx, { campus }) =>
    runs(ctx, campus === undefined ? undefined : ctx.campuses.require(campus, 'campus')),
  ),
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
    (ctx, { run_id, format }) => exportRun(run(ctx, run_id), format),
  ),
});
