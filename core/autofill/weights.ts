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

/** A set of weights for the same goals (SOFT_WEIGHTS, or another for a comparison). */
export type SoftWeights = { readonly [Goal in keyof typeof SOFT_WEIGHTS]: number };
