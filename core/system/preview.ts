import { z } from 'zod';
import { defineHandlers, handler } from '../registry';
import { requireExtension, uploadedFileSchema } from '../import/files';
import { previewJson, previewTable } from '../import/preview';
import { OFFERING_COLUMNS, OFFERING_GROUPING_COLUMNS } from '../offerings/columns';
import { DOCTOR_COLUMNS } from '../faculty/columns';
import { missingOfferingColumns } from '../offerings/upload';

export const previewHandlers = defineHandlers({
  'import-preview': handler(z.object({ kind: z.enum(['courses', 'offerings', 'doctors']), file: uploadedFileSchema }), 'The columns and first rows an import would read', async (_ctx, { kind, file }) => {
    if (kind === 'courses') {
      requireExtension(file, ['json'], 'The courses file');
      return previewJson(file, ['code', 'course_code', 'name', 'course_name', 'type', 'study_plan', 'prerequisites']);
    }
    if (kind === 'offerings') {
      requireExtension(file, ['csv', 'xlsx'], 'The offerings file');
      return previewTable(
        file,
        OFFERING_COLUMNS,
        (found) => missingOfferingColumns(found),
        OFFERING_GROUPING_COLUMNS,
      );
    }
    const ext = requireExtension(file, ['json', 'csv', 'xlsx'], 'The doctors file');
    if (ext === 'json') return previewJson(file, ['name', 'doctor_name', 'professor', 'allowed_courses', 'days', 'start', 'end', 'available_days', 'available_time']);
    return previewTable(file, DOCTOR_COLUMNS, (found) => (found.name === undefined ? ['name'] : []));
  }),
});
