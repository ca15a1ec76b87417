import { z } from 'zod';
import { defineHandlers, handler } from '../registry';
import { flagField } from '../input-fields';
import { termFields } from '../timetable';
import { exportTimetable } from './service';

/** The timetable's exports: XLSX, CSV and an instructor's iCalendar. */
export const timetableExportHandlers = defineHandlers({
  'schedule-export': handler(
    z.object({
      ...termFields,
      format: z.enum(['xlsx', 'csv', 'ics'], { error: 'must be xlsx, csv or ics' }).default('xlsx'),
      details: flagField.default(false),
      doctor_id: z.coerce.number({ error: 'must be a doctor id' }).int('must be a doctor id').positive('must be a doctor id').optional(),
    }),
    "A term's timetable (the current term unless year and semester are given): the registrar's XLSX sheet (details adds term, part of term, joint group and campus), a CSV listing the timetable import reads back, or one instructor's weekly timetable as iCalendar (format=ics&doctor_id=N)",
    (ctx, input) => exportTimetable(ctx, input),
  ),
});
