/** The timetabling search other features may run, and the model it searches. */
export { solve } from './solve';
export type { Assignment, Distribution, InstructorSpec, TimeOption, TimetableProblem } from './model';
export { bitCount } from './model';
export { solveInWorker } from './run';
export { distributionViolations, placedClasses } from './score';
export type { SolveResult } from './solve';
export type { SearchProgress } from './search';
