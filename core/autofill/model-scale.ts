import { DAY_LETTERS } from '../domain/days';

/** Whole numbers for the solver model's penalties: the soft weights (weights.ts) scaled, as they have halves. */
export const SCALE = 10;

/** A day pattern ("MWF") as the model's days mask (bit d for day d, Monday d = 0). */
export const dayMask = (day: string): number => DAY_LETTERS.reduce((mask, letter, d) => (day.includes(letter) ? mask | (1 << d) : mask), 0);
