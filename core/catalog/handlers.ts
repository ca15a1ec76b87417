import { z } from 'zod';
import { defineHandlers, handler } from '../registry';
import { parseJsonFile, requireExtension, uploadedFileSchema, type UploadedFile } from '../import/files';
import type { CoreContext } from '../context';
import { ImportLog, type UploadResult } from '../import/result';
import { coursesFromJson } from './upload';
import { listCourses, upsertCourses } from './repo';

/** Upserts the courses of a JSON file in one transaction. */
export function importCourses(ctx: CoreContext, file: UploadedFile): UploadResult {
  requireExtension(file, ['json'], 'The courses file');
  const log = new ImportLog();
  const courses = coursesFromJson(parseJsonFile(file), log);
  const processed = ctx.db.transaction(() => upsertCourses(ctx.db, courses))();
  return log.result(processed);
}

export const catalogHandlers = defineHandlers({
  'courses-list': handler(z.object({}), 'All catalog courses', (ctx) => listCourses(ctx.db)),
  'courses-upload': handler(z.object({ file: uploadedFileSchema }), 'Upsert courses from a JSON file', (ctx, { file }) => importCourses(ctx, file), {
    writes: ['catalog'],
  }),
});
