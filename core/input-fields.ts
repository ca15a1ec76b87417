import { z } from 'zod';
import { LIMITS } from './domain/bounds';
import { YEARS } from './domain/terms';

/**
 * Request fields several features share. Which campus names exist is configuration, so the schema
 * only checks the shape; the service resolves the name with `ctx.campuses.require(value, field)`.
 */
export const campusName = z
  .string({ error: 'must be a campus name' })
  .trim()
  .min(1, 'must be a campus name')
  .max(LIMITS.nameChars, 'must be a campus name')
  .refine((text) => !text.includes('\u0000'), 'must not contain a NUL character');

/**
 * A count a client names (a revision, a change id): a JSON whole number, or in a query string its
 * digits. Nothing else is read as one (no null, true, [] or "" taken for 0 or 1).
 */
export function countField(what: string, min = 0): z.ZodType<number> {
  const number = z
    .number({ error: `must be ${what}` })
    .int(`must be ${what}`)
    .min(min, `must be ${what}`)
    .max(Number.MAX_SAFE_INTEGER, `must be ${what}`);
  return z.union(
    [
      number,
      z
        .string()
        .regex(/^\d{1,15}$/)
        .transform(Number)
        .pipe(number),
    ],
    { error: `must be ${what}` },
  );
}

/** The same, as a JSON body carries it: a number only. */
export function jsonCountField(what: string, min = 0): z.ZodType<number> {
  return z
    .number({ error: `must be ${what}` })
    .int(`must be ${what}`)
    .min(min, `must be ${what}`)
    .max(Number.MAX_SAFE_INTEGER, `must be ${what}`);
}

/** A yes/no field as JSON (true/false) or a form or query string ("true", "false", "1", "0"). */
export const flagField = z.union([z.boolean(), z.enum(['true', 'false', '1', '0']).transform((v) => v === 'true' || v === '1')], {
  error: 'must be true or false',
});

/**
 * Free text in a JSON request, bounded like a file's cell: no request stores (or later exports) a
 * text longer than any cell an upload keeps. `max` for fields with a natural, shorter bound.
 */
export function boundedText(max: number = LIMITS.cellChars): z.ZodString {
  return z
    .string()
    .max(max, `must be at most ${max.toLocaleString('en-US')} characters`)
    .refine((text) => !text.includes('\u0000'), 'must not contain a NUL character');
}

/** A year as a JSON number, within the years Termwise stores. */
export const yearNumber = z
  .number({ error: 'must be a year' })
  .int('must be a whole year')
  .min(YEARS.min, `must be a year after ${YEARS.min}`)
  .max(YEARS.max, `must be a year before ${YEARS.max}`);

/** A year as a JSON number or a form or query string. */
export const yearField = z.coerce.number({ error: 'must be a year' }).pipe(yearNumber);
