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

const clock = z.union([z.string(), z.number()]).nullable().optional();

export const createDoctorSchema = z.object({
  name: z.string().trim().min(1, 'a name is required'),
  allowed_courses: z
    .union([z.string(), z.array(z.string())])
    .nullable()
    .optional(),
  available_days: z.string().nullable().optional(),
  available_time: z.string().nullable().optional(),
  days: z.string().nullable().optional(),
  start: clock,
  end: clock,
});
export type CreateDoctorInput = z.output<typeof createDoctorSchema>;

/** The key doctors are matched by: the name trimmed, spaces folded, case ignored. */
export function doctorNameKey(name: string): string {
  return name.trim().replace(/\s+/g, ' ').toLowerCase();
}

export function allowedCourseList(doctor: Pick<Doctor, 'allowed_courses'>): string[] {
  return storedList(doctor.allowed_courses);
}
