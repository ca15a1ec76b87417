import { z } from 'zod';
import { defineHandlers, handler } from '../registry';
import { requireExtension, uploadedFileSchema, type UploadedFile } from '../import/files';
import type { CoreContext } from '../context';
import { readCsv } from '../import/csv';
import { readReport } from '../import/xlsx';
import { ImportLog, type UploadResult } from '../import/result';
import { CAMPUSES, normaliseCampus, normaliseSemester } from '../domain/terms';
import { OFFERING_COLUMNS, OFFERING_GROUPING_COLUMNS } from './columns';
import { offeringColumnsOf, offeringsFromTables, type OfferingDefaults } from './upload';
import { listOfferingsJson, upsertOfferings } from './repo';

const semesterField = z
  .string()
  .transform((v, ctx) => normaliseSemester(v) ?? (ctx.addIssue({ code: 'custom', message: 'must be Fall, Spring or Summer' }), z.NEVER))
  .optional();
const campusField = z
  .string()
  .transform((v, ctx) => normaliseCampus(v) ?? (ctx.addIssue({ code: 'custom', message: `must be one of ${CAMPUSES.join(', ')}` }), z.NEVER))
  .optional();

/** Upserts the offerings of a CSV or XLSX file in one transaction. */
export async function importOfferings(ctx: CoreContext, file: UploadedFile, defaults: OfferingDefaults): Promise<UploadResult> {
  const ext = requireExtension(file, ['csv', 'xlsx'], 'The offerings file');
  const tables = ext === 'csv' ? [readCsv(file)] : await readReport(file, { aliases: OFFERING_COLUMNS, carryDown: OFFERING_GROUPING_COLUMNS });
  const withColumns = tables
    .filter((table) => table.headers.some((h) => h !== '') || table.rows.length > 0)
    .map((table) => ({ table, columns: offeringColumnsOf(table, file.filename) }));
  const log = new ImportLog();
  const records = offeringsFromTables(withColumns, defaults, log);
  const processed = ctx.db.transaction(() => upsertOfferings(ctx.db, records, ctx.now().toISOString()))();
  return log.result(processed);
}

export const offeringsHandlers = defineHandlers({
  'offerings-list': handler(z.object({}), 'All historical offering records', (ctx) => listOfferingsJson(ctx.db)),
  'offerings-upload': handler(
    z.object({ file: uploadedFileSchema, semester: semesterField, campus: campusField }),
    'Upsert offerings from a CSV or XLSX file (report layouts are normalised)',
    (ctx, { file, semester, campus }) => importOfferings(ctx, file, { semester: semester ?? 'Fall', campus: campus ?? 'Beirut' }),
    { writes: ['offerings'] },
  ),
});
