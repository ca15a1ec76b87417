import type { ColumnAliases } from '../import/table';

/**
 * Header spellings of a registrar's section listing (compared without case, spaces or
 * punctuation). The export in CSV writes the first spelling of each, so an export re-imports.
 */
export const TIMETABLE_COLUMNS = {
  course_code: ['course', 'course code', 'course_code', 'coursecode', 'course id'],
  prefix: ['subject', 'prefix', 'subj', 'subject code'],
  number: ['number', 'catalog number', 'course number', 'catalog nbr', 'catalog no', 'crse'],
  course_name: ['name', 'course name', 'course title', 'title'],
  section: ['section', 'section name', 'sec', 'section number'],
  crn: ['crn', 'class number', 'class nbr'],
  days: ['days of week', 'days', 'day', 'pattern', 'meeting days'],
  start_time: ['start time', 'begin', 'begin time', 'start', 'from'],
  end_time: ['end time', 'end', 'to'],
  duration: ['duration', 'duration mins', 'duration_mins', 'minutes', 'length'],
  location: ['location', 'room and building', 'where'],
  room: ['room', 'room number'],
  building: ['building', 'bldg', 'building name'],
  instructors: ['instructors', 'instructor', 'faculty', 'professor', 'professors', 'teacher', 'doctor', 'doctors'],
  roles: ['instructor roles', 'roles'],
  part_of_term: ['part of term', 'session', 'part of term code', 'pot'],
  start_date: ['start date', 'begin date', 'first day'],
  end_date: ['end date', 'last day'],
  type: ['type', 'type code', 'schedule type', 'section type'],
  joint_group: ['joint group', 'joint', 'combined section'],
  cross_list: ['meets with', 'cross list', 'crosslist', 'cross listed', 'cross listed with', 'crosslisted with', 'same as'],
  notes: [
    'section info',
    'section information',
    'section notes',
    'section note',
    'notes',
    'note',
    'comments',
    'remarks',
    'description',
    'section description',
    'section text',
  ],
  campus: ['campus', 'site'],
  year: ['year', 'academic year'],
  term: ['term', 'semester', 'year term', 'yearterm', 'term code'],
} as const satisfies ColumnAliases<string>;

export type TimetableColumn = keyof typeof TIMETABLE_COLUMNS;

/** What a listing must have to be read as a timetable. */
export function missingTimetableColumns(found: Partial<Record<TimetableColumn, number>>): string[] {
  const missing: string[] = [];
  if (found.course_code === undefined && (found.prefix === undefined || found.number === undefined))
    missing.push('course (a "course" column, or "subject" with "number")');
  if (found.days === undefined) missing.push('days ("days", "days of week", "pattern")');
  if (found.start_time === undefined) missing.push('start time ("start time", "begin")');
  if (found.end_time === undefined && found.duration === undefined) missing.push('end time or duration ("end time", "duration")');
  return missing;
}
