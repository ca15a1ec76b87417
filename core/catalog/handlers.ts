import { z } from 'zod';
import { defineHandlers, handler } from '../registry';
import { uploadedFileSchema } from '../import/files';
import { importCourses } from './service';
import { listCourses } from './repo';

export const catalogHandlers = defineHandlers({
  'courses-list': handler(z.object({}), 'All catalog courses', (ctx) => listCourses(ctx.db, ctx.department)),
  'courses-upload': handler(z.object({ file: uploadedFileSchema }), 'Upsert courses from a JSON file', (ctx, { file }) => importCourses(ctx, file), {
    writes: ['catalog'],
  }),
});
