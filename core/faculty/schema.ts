import { z } from 'zod';
import { boundedText } from '../input-fields';

export const doctorSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  allowed_courses: z.string(),
  available_days: z.string().nullable(),
  available_time: z.string().nullable(),
});
export type Doctor = z.infer<typeof doctorSchema>;
export type DoctorRecord = Omit<Doctor, 'id'>;

const clock = z
  .union([boundedText(20), z.number()])
  .nullable()
  .optional();

export const createDoctorSchema = z.object({
  name: boundedText().trim().min(1, 'a name is required'),
  allowed_courses: z
    .union([boundedText(), z.array(boundedText(64)).max(2_000, 'at most 2,000 courses')])
    .nullable()
    .optional(),
  available_days: boundedText(40).nullable().optional(),
  available_time: boundedText(40).nullable().optional(),
  days: boundedText(40).nullable().optional(),
  start: clock,
  end: clock,
});
export type CreateDoctorInput = z.output<typeof createDoctorSchema>;
