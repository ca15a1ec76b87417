/**
 * The fields of requests in a scheduler's words, for messages: "Minutes (duration_mins) must be at
 * most 600 minutes" reads for a person and still names the field for a script. A field not listed
 * is named as sent.
 */
const FIELD_WORDS: Readonly<Record<string, string>> = {
  course_code: 'Course',
  section_name: 'Section',
  day: 'Days',
  start_time: 'Start time',
  end_time: 'End time',
  duration_mins: 'Minutes',
  room: 'Room',
  campus: 'Campus',
  doctor_id: 'Instructor',
  doctor_ids: 'Instructors',
  doctor_roles: 'Instructor roles',
  doctors: 'Instructors',
  part_of_term: 'Part of term',
  joint_group: 'Joint group',
  year: 'Year',
  semester: 'Semester',
  capacity: 'Seats',
  name: 'Name',
  code: 'Code',
  department_id: 'Department',
  available_days: 'Available days',
  available_time: 'Available hours',
  allowed_courses: 'Courses they may teach',
  start_date: 'Start date',
  end_date: 'End date',
  run_name: 'Run name',
  target_year: 'Target year',
  target_semester: 'Target semester',
  target_campus: 'Campus',
  new_freshman: 'New freshmen',
  new_sophomores: 'New sophomores',
  new_masters: 'New masters students',
  password: 'Password',
  login: 'Login',
  role: 'Role',
  label: 'Token name',
  time_budget_ms: 'Search time',
  max_sections_per_doctor: 'Max sections per instructor',
};

/** A field as a message names it: its words and, in brackets, its name ("Minutes (duration_mins)"). */
export function fieldInWords(field: string): string {
  const words = FIELD_WORDS[field.split('.')[0] ?? field];
  return words === undefined ? field : `${words} (${field})`;
}
