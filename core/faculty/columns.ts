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
