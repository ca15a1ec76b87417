import { DAY_LETTERS } from '../domain/days';
import type { TimetableProblem } from '../solver';

/** Whole numbers for the solver model's penalties: the soft weights (SOFT_WEIGHTS, core/domain/autofill.ts) scaled, as they have halves. */
export const SCALE = 10;

/** A day pattern ("MWF") as the model's days mask (bit d for day d, Monday d = 0). */
export const dayMask = (day: string): number => DAY_LETTERS.reduce((mask, letter, d) => (day.includes(letter) ? mask | (1 << d) : mask), 0);

/** The course structure of a model whose classes are each their own course (no students to section). */
export function oneCoursePerClass(count: number): Pick<TimetableProblem, 'subparts' | 'configs' | 'courses'> {
  const each = Array.from({ length: count }, (_, i) => i);
  return {
    subparts: each.map((i) => ({ id: String(i), config: i, classes: [i] })),
    configs: each.map((i) => ({ id: String(i), course: i, subparts: [i] })),
    courses: each.map((i) => ({ id: String(i), configs: [i] })),
  };
}
