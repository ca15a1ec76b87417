/** Bounds and defaults of an auto-fill request, shared by its schema and the dialog that makes one. */
export const AUTOFILL_BOUNDS = {
  timeBudgetMs: { min: 100, max: 120_000, default: 5_000 },
  maxSectionsPerDoctor: { min: 1, max: 40, default: 4 },
  seed: { min: 1, max: 2_147_483_647, default: 1 },
  /** Moves of the search when given (default: 400 per class of the model). */
  moves: { min: 1_000, max: 20_000_000 },
} as const;

/**
 * What an auto-fill places: a prediction run's new sections (run), the term's own meetings that are
 * not locked (term: improved from today's timetable, or rebuilt from nothing), or the term's
 * sections without a time (unscheduled), each at a standard time.
 */
export const AUTOFILL_SOURCES = ['run', 'term', 'unscheduled'] as const;
export type AutofillSource = (typeof AUTOFILL_SOURCES)[number];
