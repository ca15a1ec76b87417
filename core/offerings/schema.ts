import { z } from 'zod';
import { SEMESTERS } from '../domain/terms';

export const offeringSchema = z.object({
  id: z.number().int(),
  year: z.number().int(),
  semester: z.enum(SEMESTERS),
  campus: z.string(),
  course_code: z.string(),
  total_enrolled: z.number().int(),
  passed_count: z.number().int(),
  failed_count: z.number().int(),
  fail_ratio: z.number(),
  is_offered: z.boolean(),
  created_at: z.string(),
});
export type Offering = z.infer<typeof offeringSchema>;

/** An offering as imported, before it has an id. */
export type OfferingRecord = Omit<Offering, 'id' | 'fail_ratio' | 'created_at'>;
