import type { ColumnAliases } from '../import/table';

/** The headers a doctors file may use for each field (matched ignoring case and spacing). */
export const DOCTOR_COLUMNS = {
  name: ['name', 'doctor_name', 'professor', 'doctor', 'instructor', 'faculty'],
  allowed_courses: ['allowed_courses', 'courses', 'allowed'],
  days: ['days', 'available_days', 'availability days'],
  start: ['start', 'start_time', 'from'],
  end: ['end', 'end_time', 'to'],
  time: ['available_time', 'availability', 'hours'],
} as const satisfies ColumnAliases<string>;

/** The keys a doctors JSON file may use for each field: the same words as the columns. */
export const DOCTOR_JSON_KEYS = {
  name: DOCTOR_COLUMNS.name,
  allowed_courses: DOCTOR_COLUMNS.allowed_courses,
  days: DOCTOR_COLUMNS.days,
  // A table's "available_time" column arrives as `time`.
  time: ['time', ...DOCTOR_COLUMNS.time],
  start: DOCTOR_COLUMNS.start,
  end: DOCTOR_COLUMNS.end,
} as const satisfies Record<string, readonly string[]>;
