import { z } from 'zod';
import { defineHandlers, handler } from '../registry';
import { slotOverrideSchema } from './grid';
import { autofill, startTermDraft } from './service';
import { applyDraft, cancelDraft, draftState, keepCampusDraft, listCampusDrafts, startCampusDraft } from './draft-jobs';
import { autofillCampus } from './campus-service';
import { AUTOFILL_BOUNDS, AUTOFILL_SOURCES } from '../domain/autofill';
import { termFields } from '../timetable';

const { timeBudgetMs: BUDGET, maxSectionsPerDoctor: LOAD, seed: SEED, moves: MOVES } = AUTOFILL_BOUNDS;

const seedField = z
  .number({ error: 'must be a whole number' })
  .int('must be a whole number')
  .min(SEED.min, `must be at least ${SEED.min}`)
  .max(SEED.max, `must be at most ${SEED.max}`)
  .default(SEED.default);
const budgetField = z
  .number({ error: 'must be a number of milliseconds' })
  .int()
  .min(BUDGET.min, `must be at least ${BUDGET.min} ms`)
  .max(BUDGET.max, `must be at most ${BUDGET.max.toLocaleString('en-US')} ms`)
  .default(BUDGET.default);
const loadField = z
  .number({ error: 'must be a whole number' })
  .int()
  .min(LOAD.min, `must be at least ${LOAD.min}`)
  .max(LOAD.max, `must be at most ${LOAD.max}`)
  .default(LOAD.default);
const draftId = z.uuid({ error: 'must be a draft id, as POST /scheduler/auto (a dry run) or POST /scheduler/auto/drafts answered it' });
const departmentCodes = z
  .array(z.string({ error: 'must be department codes' }).trim().min(1, 'must be department codes').max(40, 'must be department codes'), {
    error: 'must be a list of department codes',
  })
  .min(1, 'must name at least one department (leave it out for every department)')
  .max(1_000);
const idList = z.array(z.number({ error: 'must be ids' }).int('must be ids').positive('must be ids'), { error: 'must be a list of ids' }).max(100_000);

/** What a campus auto-fill is asked: its term, the departments that move and how their goals weigh, the search. */
const campusFields = {
  rebuild: z.boolean({ error: 'must be true or false' }).default(false),
  departments: departmentCodes.optional(),
  department_weights: z
    .record(
      z.string().trim().min(1).max(40),
      z.number({ error: 'must be a number from 0 to 100' }).min(0, 'must be from 0 to 100').max(100, 'must be from 0 to 100'),
      { error: 'must map department codes to weights' },
    )
    .refine((weights) => Object.keys(weights).length <= 1_000, 'names at most 1,000 departments')
    .optional(),
  seed: seedField,
  time_budget_ms: budgetField,
  ...termFields,
};

export const autofillHandlers = defineHandlers({
  'schedule-autofill-start': handler(
    z.object({
      source: z.enum(['term', 'unscheduled'], { error: 'must be term or unscheduled' }),
      rebuild: z.boolean({ error: 'must be true or false' }).default(false),
      choose_instructors: z.boolean({ error: 'must be true or false' }).optional(),
      max_sections_per_doctor: loadField,
      seed: seedField,
      time_budget_ms: budgetField,
      moves: z
        .number({ error: 'must be a whole number' })
        .int('must be a whole number')
        .min(MOVES.min, `must be at least ${MOVES.min}`)
        .max(MOVES.max, `must be at most ${MOVES.max.toLocaleString('en-US')}`)
        .optional(),
      slots: slotOverrideSchema.optional(),
      ...termFields,
    }),
    "Starts drafting a term in the background (its meetings that are not locked, improved or rebuilt; or its sections without a time): answers the draft's id at once; follow it with GET /scheduler/auto/drafts/{id}",
    (ctx, input) => startTermDraft(ctx, input),
  ),
  'schedule-autofill-draft': handler(
    z.object({ draft_id: draftId }),
    'A draft being made (its progress: classes still to place, the best penalty so far) or made (its moves and placed sections)',
    (ctx, { draft_id }) => draftState(ctx, draft_id),
  ),
  'schedule-autofill-cancel': handler(
    z.object({ draft_id: draftId }),
    'Stops a draft being made: the best draft so far is kept, to review and apply',
    (ctx, { draft_id }) => cancelDraft(ctx, draft_id),
  ),
  'schedule-autofill-apply': handler(
    z.object({ draft_id: draftId, meetings: idList.optional(), sections: idList.optional(), departments: departmentCodes.optional() }),
    "Stores a draft, all or nothing, through the timetable's checks: every move and placed section, or only the meetings and sections listed (a run's sections by their draft_section), or of a campus draft only the departments listed (the registrar's); a draft made from a timetable that has changed since is refused",
    (ctx, { draft_id, meetings, sections, departments }) => applyDraft(ctx, draft_id, { meetings, sections, departments }),
    { writes: ['timetable'] },
  ),
  'schedule-autofill-campus-start': handler(
    z.object(campusFields),
    "Starts the registrar's auto-fill of the whole campus in the background (as POST /scheduler/auto/campus with a dry run): answers the draft's id at once; follow it with GET /scheduler/auto/drafts/{id}, stop it with …/cancel, apply it with …/apply",
    (ctx, input) => startCampusDraft(ctx, input),
    { access: 'registrar' },
  ),
  'schedule-autofill-campus-drafts': handler(
    z.object({ ...termFields }),
    "The registrar's campus auto-fill drafts kept (an hour), of a term when named: the registrar sees each whole, a department those it has a part in, its own part only",
    (ctx, term) => listCampusDrafts(ctx, term),
  ),
  'schedule-autofill-campus': handler(
    z.object({ ...campusFields, dry_run: z.boolean({ error: 'must be true or false' }).default(true) }),
    "The registrar's auto-fill of the whole campus: every department's meetings of a term that are not locked (or only the departments named) moved in one search over the shared rooms and instructors; a dry run keeps the draft to review and apply (POST /scheduler/auto/{draft_id}/apply), else it is stored. A meeting that finds no place and clashes where it is is left without a time, with the reason",
    (ctx, input) => autofillCampus(ctx, input, keepCampusDraft),
    { writes: (input) => (input.dry_run ? [] : ['timetable']), access: 'registrar' },
  ),
  'schedule-autofill': handler(
    z
      .object({
        source: z.enum(AUTOFILL_SOURCES, { error: `must be one of: ${AUTOFILL_SOURCES.join(', ')}` }).default('run'),
        run_id: z.number({ error: 'a prediction run id is required' }).int().positive().optional(),
        rebuild: z.boolean({ error: 'must be true or false' }).default(false),
        seed: seedField,
        choose_instructors: z.boolean({ error: 'must be true or false' }).optional(),
        dry_run: z.boolean({ error: 'must be true or false' }).default(true),
        time_budget_ms: budgetField,
        max_sections_per_doctor: loadField,
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
