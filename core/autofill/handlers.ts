import { z } from 'zod';
import { defineHandlers, handler } from '../registry';
import { slotOverrideSchema } from './grid';
import { autofill } from './service';

export const autofillHandlers = defineHandlers({
  'schedule-autofill': handler(
    z.object({
      run_id: z.number({ error: 'a prediction run id is required' }).int().positive(),
      dry_run: z.boolean({ error: 'must be true or false' }).default(true),
      time_budget_ms: z
        .number({ error: 'must be a number of milliseconds' })
        .int()
        .min(100, 'must be at least 100 ms')
        .max(120_000, 'must be at most 120,000 ms')
        .default(5000),
      max_sections_per_doctor: z.number({ error: 'must be a whole number' }).int().min(1, 'must be at least 1').max(40, 'must be at most 40').default(4),
      slots: slotOverrideSchema.optional(),
    }),
    "Draft a conflict-free timetable for a run's recommended courses (stored unless dry_run)",
    (ctx, input) => autofill(ctx, input),
    { writes: (input) => (input.dry_run ? [] : ['timetable']) },
  ),
});
