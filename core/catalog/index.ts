/** What other features may use of the catalog (besides its repo): its import and the JSON keys it reads. */
export { COURSE_JSON_KEYS } from './columns';
export { importCourses, storeListedCourses } from './service';
