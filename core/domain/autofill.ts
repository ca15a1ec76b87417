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

/**
 * How much each soft goal weighs when two drafts are compared (hard rules are never traded):
 * in one place so a department can see and tune its priorities.
 */
export const SOFT_WEIGHTS = {
  /** Per unit of squared sections per instructor: spreads teaching evenly. */
  loadBalance: 1,
  /** Per pair of sections of one course on the same pattern (MWF/TR), and extra for the same start. */
  samePattern: 2,
  sameStart: 6,
  /**
   * Per overlapping pair of meetings of two courses one cohort takes together (the catalog's study
   * plans, else core courses of one prefix and level): the main goal, students' clashes.
   */
  curriculumClash: 12,
  /** Per extra teaching day of an instructor. */
  teachingDays: 1.5,
  /** Per empty seat share of the room (keeps big halls for big sections). */
  emptySeats: 1,
  /** Per meeting moved from where it is, when auto-fill improves a term (not when it rebuilds one). */
  movedMeeting: 2,
  /** Per meeting given another room, when auto-fill improves a term. */
  movedRoom: 1,
  /** Per section given another instructor than the one staff (or the listing) set, when auto-fill chooses. */
  keepInstructor: 3,
} as const;

/** A set of weights for the same goals (SOFT_WEIGHTS, or a department's own). */
export type SoftWeights = { readonly [Goal in keyof typeof SOFT_WEIGHTS]: number };
export type SoftGoal = keyof typeof SOFT_WEIGHTS;
export const SOFT_GOALS = Object.keys(SOFT_WEIGHTS) as SoftGoal[];

/** Each goal in a scheduler's words (Settings shows them beside the weights). */
export const SOFT_GOAL_LABELS: Record<SoftGoal, string> = {
  loadBalance: 'An even teaching load',
  samePattern: "A course's sections on different days",
  sameStart: "A course's sections at different times",
  curriculumClash: "A cohort's courses not overlapping",
  teachingDays: 'Few teaching days per instructor',
  emptySeats: 'Rooms that fit (few empty seats)',
  movedMeeting: 'Few meetings moved (improving a term)',
  movedRoom: 'Few room changes (improving a term)',
  keepInstructor: 'The instructor staff set kept',
};

/** A weight a department may give a goal: 0 (ignored) to this. */
export const MAX_SOFT_WEIGHT = 100;
