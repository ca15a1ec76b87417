import { z } from 'zod';
import { defineHandlers, handler } from '../registry';
import { uploadedFileSchema } from '../import/files';
import { normaliseSemester } from '../domain/terms';
import { campusName } from '../input-fields';
import { importOfferings } from './service';
import { listOfferingsJson } from './repo';

const semesterField = z
  .string()
  .transform((v, ctx) => normaliseSemester(v) ?? (ctx.addIssue({ code: 'custom', message: 'must be Fall, Spring or Summer' }), z.NEVER))
  .optional();

export const offeringsHandlers = defineHandlers({
  'offerings-list': handler(z.object({}), 'All historical offering records', (ctx) => listOfferingsJson(ctx.db)),
  'offerings-upload': handler(
    z.object({ file: uploadedFileSchema, semester: semesterField, campus: campusName.optional() }),
    'Upsert offerings from a CSV or XLSX file (report layouts are normalised)',
    (ctx, { file, semester, campus }) => importOfferings(ctx, file, { semester, campus }),
    { writes: ['offerings'] },
  ),
});
