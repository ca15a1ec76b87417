import { codeParts } from './codes';
import { storedList } from './lists';

/** Whether a doctor's allowed list covers a course; cross-listed codes match on any of their codes. */
export function mayTeach(allowed: readonly string[], courseCode: string): boolean {
  const singles = new Set(codeParts(courseCode).map((p) => `${p.prefix}${p.number}`));
  return allowed.some((code) => code === courseCode || codeParts(code).some((p) => singles.has(`${p.prefix}${p.number}`)));
}

/** The same for a doctor as stored (allowed courses as JSON-array text). */
export function doctorMayTeach(doctor: { allowed_courses: string }, courseCode: string): boolean {
  return mayTeach(storedList(doctor.allowed_courses), courseCode);
}
