/**
 * What each instructor listed on a meeting does. Registrars list course coordinators and
 * assistants on many parallel sections at once; only those who teach are checked for
 * availability and double-booking (as UniTime marks which instructors are conflict-checked).
 */
export const INSTRUCTOR_ROLES = ['teaches', 'coordinates', 'assists'] as const;
export type InstructorRole = (typeof INSTRUCTOR_ROLES)[number];

/** The role the rules check, and the default of every instructor. */
export const CHECKED_ROLE: InstructorRole = 'teaches';

export function isInstructorRole(value: string): value is InstructorRole {
  return (INSTRUCTOR_ROLES as readonly string[]).includes(value);
}
