import { z } from 'zod';
import { defineHandlers, handler } from '../registry';
import { slotOverrideSchema } from './grid';
import { autofill } from './service';
import { AUTOFILL_BOUNDS, AUTOFILL_SOURCES } from '../domain/autofill';
import { termFields } from '../schedule';

const { timeBudgetMs: BUDGET, maxSectionsPerDoctor: LOAD, seed: SEED } = AUTOFILL_BOUNDS;

export const autofillHandlers = defineHandlers({
  'schedule-autofill': handler(
    z
      .object({
        source: z.enum(AUTOFILL_SOURCES, { error: `must be one of: ${AUTOFILL_SOURCES.join(', ')}` }).default('run'),
        run_id: z.number({ error: 'a prediction run id is required' }).int().positive().optional(),
        rebuild: z.boolean({ error: 'must be true or false' }).default(false),
        seed: z
          .number({ error: 'must be a whole number' })
          .int('must be a whole number')
          .min(SEED.min, `must be at least ${SEED.min}`)
          .max(SEED.max, `must be at most ${SEED.max}`)
          .default(SEED.default),
        choose_instructors: z.boolean({ error: 'must be true or false' }).optional(),
        dry_run: z.boolean({ error: 'must be true or false' }).default(true),
        time_budget_ms: z
          .number({ error: 'must be a number of milliseconds' })
          .int()
          .min(BUDGET.min, `must be at least ${BUDGET.min} ms`)
          .max(BUDGET.max, `must be at most ${BUDGET.max.toLocaleString('en-US')} ms`)
          .default(BUDGET.default),
        max_sections_per_doctor: z
          .number({ error: 'must be a whole number' })
          .int()
          .min(LOAD.min, `must be at least ${LOAD.min}`)
          .max(LOAD.max, `must be at most ${LOAD.max}`)
          .default(LOAD.default),
        slots: slotOverrideSchema.optional(),
        ...termFields,
      })
      .superRefine((input, issues) => {
        if (input.source === 'run' && input.run_id === undefined)
          issues.addIssue({ code: 'custom', path: ['run_id'], message: 'a prediction run id is required (the run whose plan is placed)' });
      }),
    "Draft a conflict-free timetable into a term's timetable (the current term unless year and semester are given; stored unless dry_run): a run's recommended courses (source run), or the term's own meetings that are not locked, improved or rebuilt (source term)",
    (ctx, input) => autofill(ctx, input),
    { writes: (input) => (input.dry_run ? [] : ['timetable']) },
  ),
});
