import { z } from 'zod';
import { defineHandlers, handler } from '../registry';
import { uploadedFileSchema } from '../import/files';
import { normaliseSemester, SEMESTERS } from '../domain/terms';
import { campusName, yearNumber } from '../input-fields';
import { confirmCompleteTerm, importOfferings, leftOutTerms } from './service';
import { listOfferingsJson } from './repo';

const semesterField = z
  .string()
  .transform((v, ctx) => normaliseSemester(v) ?? (ctx.addIssue({ code: 'custom', message: 'must be Fall, Spring or Summer' }), z.NEVER))
  .optional();

export const offeringsHandlers = defineHandlers({
  'offerings-list': handler(z.object({}), 'All historical offering records', (ctx) => listOfferingsJson(ctx.db, ctx.department)),
  'offerings-upload': handler(
    z.object({ file: uploadedFileSchema, semester: semesterField, campus: campusName.optional() }),
    'Upsert offerings from a CSV or XLSX file (report layouts are normalised)',
    (ctx, { file, semester, campus }) => importOfferings(ctx, file, { semester, campus }),
    { writes: ['offerings'] },
  ),
  'offerings-incomplete-terms': handler(
    z.object({}),
    'Terms that list far fewer courses than the same campus usually does and that staff have not confirmed: the model leaves them out',
    (ctx) => leftOutTerms(ctx.db, ctx.department),
  ),
  'offerings-confirm-term': handler(
    z.object({
      campus: campusName,
      year: yearNumber,
      semester: z.enum(SEMESTERS, { error: 'must be Fall, Spring or Summer' }),
    }),
    'Confirm a term flagged as incomplete is complete: the model takes it into account again',
    (ctx, term) => confirmCompleteTerm(ctx, term),
    { writes: ['offerings'] },
  ),
});
