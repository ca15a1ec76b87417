import { z } from 'zod';
import { defineHandlers, handler } from '../registry';
import { bulkRunSchema, entryDecisionSchema } from './schema';
import { campusName } from '../input-fields';
import { bulkRun, compareRunsById, decideEntry, nextTerm, run, runs, train } from './service';
import { exportRun } from './export';

const runId = z.coerce.number({ error: 'must be a run id' }).int().positive();

export const predictHandlers = defineHandlers({
  'predict-next-term': handler(z.object({}), 'The term after the latest Fall/Spring offering record', (ctx) => nextTerm(ctx)),
  'predict-train': handler(z.object({}), 'Retrain every campus model from all offering records', (ctx) => train(ctx), { writes: ['models'] }),
  'predict-bulk': handler(bulkRunSchema, 'Score every catalog course for a target term and campus, and save the run', (ctx, input) => bulkRun(ctx, input), {
    writes: ['runs', 'models'],
  }),
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
