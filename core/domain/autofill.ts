/** Bounds and defaults of an auto-fill request, shared by its schema and the dialog that makes one. */
export const AUTOFILL_BOUNDS = {
  timeBudgetMs: { min: 100, max: 120_000, default: 5_000 },
  maxSectionsPerDoctor: { min: 1, max: 40, default: 4 },
} as const;
