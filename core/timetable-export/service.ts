import type { CoreContext } from '../context';
import { fieldError, notFound } from '../domain/errors';
import type { FileResult } from '../domain/file-result';
import type { Term } from '../domain/terms';
import { getDoctor } from '../faculty/repo';
import { listCourses } from '../catalog/repo';
import { EXPORT_FILENAME, exportScheduleXlsx } from './workbook';
import { CONTENT_TYPES } from '../util/content-types';
import { exportListingCsv } from './listing';
import { exportInstructorCalendar } from './calendar';
import { termEntries, partsByCode, termAsked } from '../timetable';

export interface ExportRequest extends Partial<Term> {
  format: 'xlsx' | 'csv' | 'ics';
  details: boolean;
  doctor_id?: number | undefined;
}

const fileSafe = (text: string): string => text.replace(/[^A-Za-z0-9_-]+/g, '_').slice(0, 80);

/** A term's timetable in the format asked for. */
export async function exportTimetable(ctx: CoreContext, request: ExportRequest): Promise<FileResult> {
  const term = await termAsked(ctx, request);
  const entries = await termEntries(ctx, term);
  const stem = `timetable_${term.semester}_${term.year}`;
  switch (request.format) {
    case 'xlsx': {
      if (!request.details) return { filename: EXPORT_FILENAME, contentType: CONTENT_TYPES.xlsx, content: await exportScheduleXlsx(entries) };
      // The detailed sheet says which term it is, in its name too, and names each course.
      const names = new Map((await listCourses(ctx.db, ctx.department)).map((c) => [c.code, c.name ?? '']));
      return { filename: `${stem}.xlsx`, contentType: CONTENT_TYPES.xlsx, content: await exportScheduleXlsx(entries, true, names) };
    }
    case 'csv':
      return { filename: `${stem}.csv`, contentType: CONTENT_TYPES.csv, content: exportListingCsv(entries, await partsByCode(ctx, term)) };
    case 'ics': {
      if (request.doctor_id === undefined) {
        const message = 'is required for format=ics: whose timetable to export';
        throw fieldError('doctor_id', message);
      }
      const doctor = await getDoctor(ctx.db, ctx.department, request.doctor_id);
      if (!doctor) throw notFound(`No doctor with id ${request.doctor_id}`);
      return {
        filename: `${stem}_${fileSafe(doctor.name)}.ics`,
        contentType: CONTENT_TYPES.ics,
        content: exportInstructorCalendar(doctor, entries, await partsByCode(ctx, term), term, ctx.now()),
      };
    }
  }
}
