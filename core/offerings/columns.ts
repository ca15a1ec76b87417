import type { ColumnAliases } from '../import/table';

/** Header spellings accepted in offerings files (compared without case, spaces or underscores). */
export const OFFERING_COLUMNS = {
  course_code: ['course_code', 'course code', 'course', 'coursecode', 'course id'],
  prefix: ['prefix', 'subject', 'subj', 'subject code'],
  number: ['number', 'course number', 'crse', 'catalog number', 'catalog nbr', 'catalog no', 'course no'],
  year: ['year', 'yr', 'academic year'],
  semester: ['semester', 'term', 'sem', 'session'],
  campus: ['campus', 'location', 'site'],
  total_enrolled: ['total_enrolled', 'enrolled', 'enrollment', 'enrolment', 'total', 'students'],
  passed_count: ['passed_count', 'passed', 'pass', 'passes'],
  failed_count: ['failed_count', 'failed', 'fail', 'fails'],
  is_offered: ['is_offered', 'offered'],
} as const satisfies ColumnAliases<string>;

export type OfferingColumn = keyof typeof OFFERING_COLUMNS;

/** Grouping columns of report-style workbooks, repeated down when left blank. */
export const OFFERING_GROUPING_COLUMNS: readonly OfferingColumn[] = ['year', 'semester', 'campus'];
