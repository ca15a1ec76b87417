import { codeParts } from './codes';
import { storedList } from './lists';
import { DAY_LETTERS, type DayLetter } from './days';
import { parseTimeRange } from './time';

/** Whether a doctor's allowed list covers a course; cross-listed codes match on any of their codes. */
export function mayTeach(allowed: readonly string[], courseCode: string): boolean {
  const singles = new Set(codeParts(courseCode).map((p) => `${p.prefix}${p.number}`));
  return allowed.some((code) => code === courseCode || codeParts(code).some((p) => singles.has(`${p.prefix}${p.number}`)));
}

/** The same for a doctor as stored (allowed courses as JSON-array text). */
export function doctorMayTeach(doctor: { allowed_courses: string }, courseCode: string): boolean {
  return mayTeach(allowedCourseList(doctor), courseCode);
}

/**
 * When an instructor can teach: on their days (every day when none are given) within their hours
 * (the whole day when none are given, or when the stored hours cannot be read). The one reading of
 * availability, for the conflict rules and the calendar's bands alike.
 */
export function availabilityWindow(doctor: { available_days: string | null; available_time: string | null }): {
  days: DayLetter[];
  start: number;
  end: number;
} {
  const days = doctor.available_days ? DAY_LETTERS.filter((d) => doctor.available_days?.includes(d)) : [...DAY_LETTERS];
  const range = doctor.available_time ? parseTimeRange(doctor.available_time) : null;
  return { days, start: range?.start ?? 0, end: range?.end ?? 24 * 60 };
}

/** The key doctors are matched by: the name trimmed, spaces folded, case ignored. */
export function doctorNameKey(name: string): string {
  return name.trim().replace(/\s+/g, ' ').toLowerCase();
}

/** A doctor's allowed courses as a list (stored as JSON-array text). */
export function allowedCourseList(doctor: { allowed_courses: string }): string[] {
  return storedList(doctor.allowed_courses);
}
