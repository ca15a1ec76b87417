import { z } from 'zod';
import { defineHandlers, handler } from '../registry';
import { uploadedFileSchema } from '../import/files';
import { createDoctor, importDoctors } from './service';
import { createDoctorSchema } from './schema';
import { listDoctors } from './repo';

export const facultyHandlers = defineHandlers({
  'doctors-list': handler(z.object({}), 'All doctors', (ctx) => listDoctors(ctx.db, ctx.department)),
  'doctors-create': handler(createDoctorSchema, 'Add one doctor', (ctx, input) => createDoctor(ctx, input), { writes: ['doctors'] }),
  'doctors-upload': handler(
    z.object({ file: uploadedFileSchema }),
    'Upsert doctors from a JSON, CSV or XLSX file',
    (ctx, { file }) => importDoctors(ctx, file),
    { writes: ['doctors'] },
  ),
});
