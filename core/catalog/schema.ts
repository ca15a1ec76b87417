import { z } from 'zod';

export const courseSchema = z.object({
  code: z.string(),
  name: z.string(),
  prefix: z.string(),
  number: z.string(),
  type: z.string().nullable(),
  study_plan: z.string().nullable(),
  prerequisites: z.string().nullable(),
  course_level: z.number().int(),
});
export type Course = z.infer<typeof courseSchema>;
