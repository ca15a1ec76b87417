import { z } from 'zod';
import { defineHandlers, handler } from '../registry';
import { parseJsonFile, requireExtension, uploadedFileSchema } from '../import/files';
import { ImportLog } from '../import/result';
import { coursesFromJson } from './upload';
import { listCourses, upsertCourses } from './repo';

export const catalogHandlers = defineHandlers({
  'courses-list': handler(z.object({}), 'All catalog courses', (ctx) => listCourses(ctx.db)),
  'courses-upload': handler(z.object({ file: uploadedFileSchema }), 'Upsert courses from a JSON file', (ctx, { file }) => {
    requireExtension(file, ['json'], 'The courses file');
    const log = new ImportLog();
    const courses = coursesFromJson(parseJsonFile(file), log);
    const processed = ctx.db.transaction(() => upsertCourses(ctx.db, courses))();
    return log.result(processed);
  }),
});
