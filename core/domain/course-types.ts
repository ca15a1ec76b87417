/** Course types. A cross-listed course stores several as a JSON-array string: ["core","elective"]. */
export const COURSE_TYPES = ['core', 'elective', 'masters', 'minor'] as const;
export type CourseType = (typeof COURSE_TYPES)[number];

/** The list of types of a stored type value. */
export function courseTypes(stored: string | null): string[] {
  if (stored === null || stored === '') return [];
  if (stored.startsWith('[')) {
    try {
      const parsed: unknown = JSON.parse(stored);
      if (Array.isArray(parsed)) return parsed.map(String);
    } catch {
      return [stored];
    }
  }
  return [stored];
}
