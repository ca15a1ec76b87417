import { z } from 'zod';
import { defineHandlers, handler } from '../registry';
import { slotOverrideSchema } from './grid';
import { autofill } from './service';
import { AUTOFILL_BOUNDS } from '../domain/autofill';
import { termFields } from '../schedule';

const { timeBudgetMs: BUDGET, maxSectionsPerDoctor: LOAD } = AUTOFILL_BOUNDS;

export const autofillHandlers = defineHandlers({
  'schedule-autofill': handler(
    z.object({
      run_id: z.number({ error: 'a prediction run id is required' }).int().positive(),
      dry_run: z.boolean({ error: 'must be true or false' }).default(true),
      time_budget_ms: z
        .number({ error: 'must be a number of milliseconds' })
        .int()
        .min(BUDGET.min, `must be at least ${BUDGET.min} ms`)
        .max(BUDGET.max, `must be at most ${BUDGET.max.toLocaleString('en-US')} ms`)
        .default(BUDGET.default),
      max_sections_per_doctor: z.number({ error: 'must be a whole number' }).int().min(LOAD.min, `must be at least ${LOAD.min}`).max(LOAD.max, `must be at most ${LOAD.max}`).default(LOAD.default),
      slots: slotOverrideSchema.optional(),
      ...termFields,
    }),
    "Draft a conflict-free timetable for a run's recommended courses into a term's timetable (the current term unless year and semester are given; stored unless dry_run)",
    (ctx, input) => autofill(ctx, input),
    { writes: (input) => (input.dry_run ? [] : ['timetable']) },
  ),
});
