/**
 * The keys a courses JSON file may use for each field, first match wins: the one list the upload
 * reads and the preview shows.
 */
export const COURSE_JSON_KEYS = {
  code: ['code', 'course_code'],
  name: ['course_name', 'name', 'title'],
  type: ['type', 'types'],
  prerequisites: ['prerequisites', 'prereqs', 'prerequisite'],
  study_plan: ['study_plan', 'studyPlan', 'plan'],
} as const satisfies Record<string, readonly string[]>;
