import { join } from 'node:path';
import { z } from 'zod';
import { MAX_CODE_CHARS } from './domain/codes';
import { LIMITS, parseBoundedJson } from './domain/bounds';
import { renameSync } from 'node:fs';
import { readSmallFile } from './files/private';
import { MAX_SOFT_WEIGHT, SOFT_GOALS, type SoftGoal } from './domain/autofill';

/**
 * A department's profile: its quota categories (else every prefix × type of its catalog), the seats
 * per section it plans with, per-course sizes where known, and its weights of auto-fill's goals. Every field is optional; Settings
 * writes it, kept with the department's data. A `profile.json` in the data folder (how profiles were
 * kept before) is taken in at start as the first department's.
 */
export const PROFILE_FILE = 'profile.json';
const MAX_BYTES = 256 * 1024;
export const MAX_QUOTA_CATEGORIES = 200;
export const MAX_SECTION_SIZES = 5_000;
/** Seats per section when the profile says nothing. */
export const DEFAULT_SECTION_SEATS = 40;

const seats = z
  .number({ error: 'must be a number of seats' })
  .int('must be a whole number of seats')
  .min(1, 'must be at least 1')
  .max(LIMITS.maxEnrollment, `must be at most ${LIMITS.maxEnrollment}`);

export const quotaCategoryInput = z
  .object({
    prefix: z
      .string({ error: 'must be a course prefix' })
      .trim()
      .regex(/^[A-Za-z]{2,6}$/, 'must be a course prefix of 2–6 letters')
      .transform((p) => p.toUpperCase()),
    type: z
      .string({ error: 'must be a course type or null' })
      .trim()
      .regex(/^[A-Za-z]{1,20}$/, 'must be a course type (letters)')
      .transform((t) => t.toLowerCase())
      .nullable()
      .default(null),
    label: z.string({ error: 'must be text' }).trim().min(1).max(100, 'must be at most 100 characters').optional(),
    count: z.number({ error: 'must be a whole number ≥ 0' }).int('must be a whole number ≥ 0').min(0, 'must be ≥ 0').max(1000, 'must be at most 1000'),
  })
  .strict();

const weight = z.number({ error: 'must be a number' }).min(0, 'must be at least 0').max(MAX_SOFT_WEIGHT, `must be at most ${MAX_SOFT_WEIGHT}`);

/** The department's own weights of auto-fill's soft goals (the others keep SOFT_WEIGHTS). */
export const autofillWeightsSchema = z
  .object(Object.fromEntries(SOFT_GOALS.map((goal) => [goal, weight.optional()])) as Record<SoftGoal, z.ZodOptional<typeof weight>>)
  .strict();

export const profileSchema = z
  .object({
    quota_categories: z.array(quotaCategoryInput).max(MAX_QUOTA_CATEGORIES, `must list at most ${MAX_QUOTA_CATEGORIES} categories`).optional(),
    section_size: seats.optional(),
    section_sizes: z
      .record(z.string().trim().min(1).max(MAX_CODE_CHARS), seats)
      .refine((sizes) => Object.keys(sizes).length <= MAX_SECTION_SIZES, `must name at most ${MAX_SECTION_SIZES} courses`)
      .optional(),
    autofill_weights: autofillWeightsSchema.optional(),
  })
  .strict();
export type ProfileFile = z.output<typeof profileSchema>;

/**
 * The profile file in `dataDir`, or null when there is none. A file that cannot be used throws an
 * Error naming the file and the problem (start-up stops with it).
 */
export function readProfileFile(dataDir: string): ProfileFile | null {
  const file = join(dataDir, PROFILE_FILE);
  const text = readSmallFile(file, MAX_BYTES);
  if (text === null) return null;
  let document: unknown;
  try {
    document = parseBoundedJson(text, 'The department profile');
  } catch (error) {
    throw new Error(`${file}: ${error instanceof Error ? error.message : String(error)}`, { cause: error });
  }
  const parsed = profileSchema.safeParse(document);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new Error(`${file}: ${issue ? `${issue.path.join('.') || 'the file'} ${issue.message}` : 'not a profile'}`);
  }
  return parsed.data;
}

/** What the profile file is renamed to once taken in (kept, as it was, for whoever wrote it). */
export const PROFILE_FILE_TAKEN_IN = `${PROFILE_FILE}.imported`;

export function profileFileTakenIn(dataDir: string): void {
  renameSync(join(dataDir, PROFILE_FILE), join(dataDir, PROFILE_FILE_TAKEN_IN));
}
