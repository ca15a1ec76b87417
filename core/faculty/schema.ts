import { storedList } from '../domain/lists';
import { z } from 'zod';

export const doctorSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  allowed_courses: z.string(),
  available_days: z.string().nullable(),
  available_time: z.string().nullable(),
});
export type Doctor = z.infer<typeof doctorSchema>;
export type DoctorRecord = Omit<Doctor, 'id'>;

/** The key doctors are matched by: the name trimmed, spaces folded, case ignored. */
export function doctorNameKey(name: string): string {
  return name.trim().replace(/\s+/g, ' ').toLowerCase();
}

export function allowedCourseList(doctor: Pick<Doctor, 'allowed_courses'>): string[] {
  return storedList(doctor.allowed_courses);
}
