import { z } from 'zod';
import { defineHandlers, handler } from '../registry';
import type { FileResult } from '../domain/file-result';
import { createEntrySchema, entryIdField, patchEntrySchema } from './schema';
import { allEntries, createEntry, patchEntry, removeEntry } from './service';
import { EXPORT_FILENAME, exportScheduleXlsx, XLSX_CONTENT_TYPE } from './export';

export const scheduleHandlers = defineHandlers({
  'schedule-list': handler(z.object({}), 'All timetable entries, each with its doctor', (ctx) => allEntries(ctx.db)),
  'schedule-create': handler(createEntrySchema, 'Add a timetable entry (conflict-checked)', (ctx, input) => createEntry(ctx.db, input, ctx.now()), {
    writes: ['timetable'],
  }),
  'schedule-update': handler(patchEntrySchema, 'Change a timetable entry (conflict-checked)', (ctx, input) => patchEntry(ctx.db, input), {
    writes: ['timetable'],
  }),
  'schedule-delete': handler(z.object({ entry_id: entryIdField }), 'Remove a timetable entry', (ctx, { entry_id }) => removeEntry(ctx.db, entry_id), {
    writes: ['timetable'],
  }),
  'schedule-export': handler(z.object({}), 'The timetable as an XLSX workbook', async (ctx): Promise<FileResult> => ({
    filename: EXPORT_FILENAME,
    contentType: XLSX_CONTENT_TYPE,
    content: await exportScheduleXlsx(allEntries(ctx.db)),
  })),
});
