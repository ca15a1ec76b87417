import { z } from 'zod';
import { defineHandlers, handler } from '../registry';
import { campusName, flagField, yearField } from '../input-fields';
import { uploadedFileSchema } from '../import/files';
import { INSTRUCTOR_ROLES } from '../domain/roles';
import { LIMITS, parseBoundedJson } from '../domain/bounds';
import { revisionField, semesterField, termFields } from '../timetable';
import { importTimetable, publishListing } from './service';

/** The timetable import's operations: a registrar's listing brought into a term, or published as the whole term (replacing it). */
export const timetableImportHandlers = defineHandlers({
  'schedule-import': handler(
    z.object({
      file: uploadedFileSchema,
      ...termFields,
      campus: campusName.optional(),
      dry_run: flagField.default(true),
      conflicts: z.enum(['skip', 'flag'], { error: 'must be skip or flag' }).default('skip'),
      roles: z
        .union([z.string().transform((text) => parseBoundedJson(text, 'roles')), z.record(z.string(), z.unknown())])
        .pipe(
          z.record(z.string().max(LIMITS.nameChars), z.enum(INSTRUCTOR_ROLES, { error: `must be ${INSTRUCTOR_ROLES.join(', ')}` }), {
            error: 'must be an object of instructor name → role',
          }),
        )
        .optional(),
    }),
    "Bring a registrar's section listing (CSV or XLSX, one row per meeting) into the timetable: a dry run by default, then applied in one transaction",
    (ctx, input) => importTimetable(ctx, input),
    { writes: (input) => (input.dry_run ? [] : ['timetable', 'catalog', 'doctors', 'rooms']) },
  ),
  'schedule-publish': handler(
    z.object({
      file: uploadedFileSchema,
      year: yearField,
      semester: semesterField,
      campus: campusName.optional(),
      dry_run: flagField.default(false),
      replace: flagField.refine((v) => v, {
        message: 'must be true: a listing replaces the whole term (to publish changes without replacing, use POST /scheduler/terms/publish-changes)',
      }),
      base_revision: revisionField,
    }),
    "Replace a department's term with a whole listing (a script's CSV), naming the revision it replaces (refused in words if the term changed since): checked against every department's bookings and refused whole, with every clash listed, when any meeting clashes; else it replaces the department's meetings of the term in one transaction",
    (ctx, { replace: _replace, ...input }) => publishListing(ctx, input),
    { writes: (input) => (input.dry_run ? [] : ['timetable', 'catalog', 'doctors', 'rooms']) },
  ),
});
