import { z } from 'zod';
import { formatDayPattern, parseDayPattern } from '../domain/days';
import { parseHHMM } from '../domain/time';
import { normaliseCourseCode } from '../domain/codes';
import { normaliseSemester, type Semester } from '../domain/terms';
import { PART_CODE_PATTERN } from '../domain/parts';
import { boundedText, campusName, countField, jsonCountField, yearField, yearNumber } from '../input-fields';
import { INSTRUCTOR_ROLES, type InstructorRole } from '../domain/roles';
import { LIMITS } from '../domain/bounds';

export const MIN_DURATION = 5;
export const MAX_DURATION = 600;
export const DAY_END = 24 * 60;

export const dayPatternField = boundedText(20).transform((value, ctx) => {
  const letters = parseDayPattern(value);
  if (!letters) {
    ctx.addIssue({ code: 'custom', message: `"${value}" is not a day pattern: use one or more distinct letters of M T W R F S U` });
    return z.NEVER;
  }
  return formatDayPattern(letters);
});

export const startTimeField = boundedText(10)
  .refine((v) => parseHHMM(v) !== null, { message: 'must be a time HH:MM (24 h), e.g. 09:30' })
  .transform((v) => v.trim());

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

export const courseCodeField = boundedText(64)
  .trim()
  .min(1, 'a course code is required')
  .transform((v) => normaliseCourseCode(v) ?? v.toUpperCase());

export const sectionNameField = z
  .union([boundedText(), z.number()], { error: (issue) => (issue.input === undefined ? 'is required' : 'must be a section name (text or a number)') })
  .transform((v) => String(v).trim())
  .pipe(z.string().min(1, 'a section name is required'));

export const roomField = boundedText().nullable();

export const semesterField = z
  .string({ error: 'must be Fall, Spring or Summer' })
  .transform((v, ctx): Semester => normaliseSemester(v) ?? (ctx.addIssue({ code: 'custom', message: 'must be Fall, Spring or Summer' }), z.NEVER));

/** A term given as `year` and `semester`: both or neither (neither means the current term). */
export const termFields = { year: yearField.optional(), semester: semesterField.optional() };
export const termSchema = z.object({ year: yearField, semester: semesterField });

export const MAX_INSTRUCTORS = 8;

/** Every instructor of a meeting, first one first; [] leaves it unassigned. */
export const doctorIdsField = z
  .array(z.number({ error: 'must be doctor ids' }).int('must be doctor ids').positive('must be doctor ids'), { error: 'must be a list of doctor ids' })
  .max(MAX_INSTRUCTORS, `at most ${MAX_INSTRUCTORS} instructors`)
  .refine((ids) => new Set(ids).size === ids.length, 'lists the same doctor twice');

/**
 * The one field for a meeting's instructors, first one first ([] leaves it unassigned): each an id
 * and, optionally, a role (left out: the role the instructor had on the meeting, else "teaches").
 * A `name`, as reads give it, is ignored, so an entry read can be sent back as it is.
 */
export const doctorsField = z
  .array(
    z.object({
      id: z.number({ error: 'must be a doctor id' }).int('must be a doctor id').positive('must be a doctor id'),
      role: z.enum(INSTRUCTOR_ROLES, { error: `must be a role: ${INSTRUCTOR_ROLES.join(', ')}` }).optional(),
    }),
    { error: 'must be a list of instructors, each {"id": …, "role": …}' },
  )
  .max(MAX_INSTRUCTORS, `at most ${MAX_INSTRUCTORS} instructors`)
  .refine((list) => new Set(list.map((d) => d.id)).size === list.length, 'lists the same doctor twice');

/** Each instructor's role, in the order of doctor_ids (default: every one teaches). */
export const doctorRolesField = z
  .array(z.enum(INSTRUCTOR_ROLES, { error: `must be roles: ${INSTRUCTOR_ROLES.join(', ')}` }), { error: 'must be a list of roles' })
  .max(MAX_INSTRUCTORS, `at most ${MAX_INSTRUCTORS} roles`);

export const partCodeField = z
  .string({ error: 'must be a part-of-term code' })
  .trim()
  .regex(PART_CODE_PATTERN, 'must be a part-of-term code of letters, digits, - or _ (at most 16), e.g. 1, S1, S2A');

export const jointGroupField = z
  .string({ error: 'must be a joint group label' })
  .trim()
  .max(60, 'must be at most 60 characters')
  .refine((text) => !text.includes('\u0000'), 'must not contain a NUL character')
  .transform((v) => (v === '' ? null : v))
  .nullable();

/** The fields a meeting adds beyond the contract's first ones; all optional. */
const meetingExtras = {
  ...termFields,
  doctors: doctorsField.optional(),
  // The other ways to give the instructors, also read: doctor_ids (with doctor_roles) and the contract's doctor_id.
  doctor_ids: doctorIdsField.optional(),
  doctor_roles: doctorRolesField.optional(),
  part_of_term: partCodeField.optional(),
  joint_group: jointGroupField.optional(),
  campus: campusName.nullable().optional(),
};

export const createEntrySchema = z.object({
  course_code: courseCodeField,
  section_name: sectionNameField,
  // Omitted: unassigned, unless doctor_ids lists the instructors.
  doctor_id: doctorIdField.optional(),
  day: dayPatternField,
  start_time: startTimeField,
  duration_mins: durationField,
  room: roomField.default('TBD'),
  ...meetingExtras,
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
  /** Locked: auto-fill takes the meeting as it is (never moves it). */
  locked: z.boolean({ error: 'must be true or false' }).optional(),
  ...meetingExtras,
});
export type PatchEntryInput = z.output<typeof patchEntrySchema>;

/** One instructor of a meeting as reads give it. */
export interface EntryInstructor {
  id: number;
  name: string;
  /** Only those who teach are conflict-checked. */
  role: InstructorRole;
}

/**
 * A meeting as every read and write answers it. Its instructors are `doctors`; `doctor_id`,
 * `doctor`, `doctor_ids` and `doctor_roles` are earlier names for parts of that list, read off it
 * in one place (instructorAliases) and kept so that existing scripts keep working.
 */
export interface ScheduleEntry {
  id: number;
  course_code: string;
  section_name: string;
  /** Alias: the first instructor's id (the contract's field); null when unassigned. */
  doctor_id: number | null;
  day: string;
  start_time: string;
  duration_mins: number;
  room: string;
  /** Alias: the first instructor, id and name. */
  doctor: { id: number; name: string } | null;
  warnings: string[];
  year: number;
  semester: Semester;
  /** Alias: every instructor's id, in the order of doctors. */
  doctor_ids: number[];
  /** The meeting's instructors, the first one first. */
  doctors: EntryInstructor[];
  /** Alias: every instructor's role, in the order of doctors. */
  doctor_roles: InstructorRole[];
  part_of_term: string;
  joint_group: string | null;
  campus: string;
  /** Staff locked it: auto-fill never moves it. */
  locked: boolean;
  /** The meeting's id across stores (its history, and publish and fetch, name it by this). */
  uid: string;
  /** Courses of the same cohort this meeting clashes with, with no clash-free choice of sections (each also a warning). */
  curriculum_conflicts: string[];
}

/** A meeting's id across stores: letters, digits, - and _ (a hex UUID for meetings Termwise made). */
export const meetingUidField = z
  .string({ error: 'must be a meeting id' })
  .regex(/^[A-Za-z0-9_-]{1,64}$/, 'must be a meeting id of at most 64 letters, digits, - or _');

/** A meeting's version as history records it and publish and fetch carry it between stores (a section without a time: no day, start or length). */
export const meetingStateSchema = z
  .object({
    uid: meetingUidField,
    course_code: courseCodeField,
    section_name: sectionNameField,
    day: z.literal('').or(dayPatternField),
    start_time: z.literal('').or(startTimeField),
    duration_mins: z.literal(0).or(durationField),
    room: boundedText(200).transform((v) => v.trim() || 'TBD'),
    part_of_term: partCodeField,
    joint_group: jointGroupField,
    campus: campusName,
    instructors: z
      .array(
        z.object({
          id: z.number({ error: 'must be an instructor id' }).int('must be an instructor id').min(0, 'must be an instructor id'),
          name: boundedText(LIMITS.nameChars).trim().min(1, 'an instructor needs a name'),
          role: z.enum(INSTRUCTOR_ROLES, { error: `must be a role: ${INSTRUCTOR_ROLES.join(', ')}` }),
        }),
        { error: 'must be a list of instructors' },
      )
      .max(MAX_INSTRUCTORS, `at most ${MAX_INSTRUCTORS} instructors`),
    locked: z.boolean({ error: 'must be true or false' }),
    kind: boundedText(60).nullable().optional(),
    // The term the version is in (a move between terms names both); absent: the change's own term.
    year: yearNumber.optional(),
    semester: semesterField.optional(),
  })
  .refine((m) => (m.year === undefined) === (m.semester === undefined), { message: 'a version names its year and semester together', path: ['year'] })
  .refine((m) => (m.day === '') === (m.start_time === '') && (m.day === '') === (m.duration_mins === 0), {
    message: 'a section without a time has no day, no start and no length; a meeting has all three',
    path: ['day'],
  });

/** A term's revision as a client names it: a whole number (in a query string, its digits). */
export const revisionField = countField('a revision number');
/** A recorded change's id. */
export const changeIdField = jsonCountField('a change id', 1);
