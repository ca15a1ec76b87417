/** What other features may use of the faculty (besides its repo): its import and the columns it reads. */
export { DOCTOR_COLUMNS, DOCTOR_JSON_KEYS } from './columns';
export { ensureDepartmentDoctors, importDoctors } from './service';
