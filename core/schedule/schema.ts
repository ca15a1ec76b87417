import { z } from 'zod';
import { formatDayPattern, parseDayPattern } from '../domain/days';
import { parseHHMM } from '../domain/time';
import { normaliseCourseCode } from '../domain/codes';

export const MIN_DURATION = 5;
export const MAX_DURATION = 600;
export const DAY_END = 24 * 60;

export const dayPatternField = z.string().transform((value, ctx) => {
  const letters = parseDayPattern(value);
  if (!letters) {
    ctx.addIssue({ code: 'custom', message: `"${value}" is not a day pattern: use one or more distinct letters of M T W R F S U` });
    return z.NEVER;
  }
  return formatDayPattern(letters);
});

export const startTimeField = z.string().refine((v) => parseHHMM(v) !== null, { message: 'must be a time HH:MM (24 h), e.g. 09:30' }).transform((v) => v.trim());

export const durationField = z
  .number({ error: 'must be a whole number of minutes' })
  .int('must be a whole number of minutes')
  .min(MIN_DURATION, `must be at least ${MIN_DURATION} minutes`)
  .max(MAX_DURATION, `must be at most ${MAX_DURATION} minutes`);

/** 0 or null leaves the section unassigned. */
export const doctorIdField = z
  .number({ error: 'must be a doctor id (0 for unassigned)' })
  .int()
  .min(0)
  .nullable()
  .transform((v) => (v === 0 ? null : v));

export const courseCodeField = z
  .string()
  .trim()
  .min(1, 'a course code is required')
  .transform((v) => normaliseCourseCode(v) ?? v.toUpperCase());

export const sectionNameField = z
  .union([z.string(), z.number()])
  .transform((v) => String(v).trim())
  .pipe(z.string().min(1, 'a section name is required'));

export const roomField = z.string().nullable();

export const createEntrySchema = z.object({
  course_code: courseCodeField,
  section_name: sectionNameField,
  doctor_id: doctorIdField.default(null),
  day: dayPatternField,
  start_time: startTimeField,
  duration_mins: durationField,
  room: roomField.default('TBD'),
});
export type CreateEntryInput = z.output<typeof createEntrySchema>;

export const entryIdField = z.coerce.number({ error: 'must be an entry id' }).int().positive();

export const patchEntrySchema = z.object({
  entry_id: entryIdField,
  course_code: courseCodeField.optional(),
  section_name: sectionNameField.optional(),
  doctor_id: doctorIdField.optional(),
  day: dayPatternField.optional(),
  start_time: startTimeField.optional(),
  duration_mins: durationField.optional(),
  room: roomField.optional(),
});
export type PatchEntryInput = z.output<typeof patchEntrySchema>;

export interface ScheduleEntry {
  id: number;
  course_code: string;
  section_name: string;
  doctor_id: number | null;
  day: string;
  start_time: string;
  duration_mins: number;
  room: string;
  doctor: { id: number; name: string } | null;
  warnings: string[];
}
