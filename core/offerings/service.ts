import type { CoreContext } from '../context';
import { requireExtension, type UploadedFile } from '../import/files';
import { readCsv } from '../import/csv';
import { readReport } from '../import/xlsx';
import { ImportLog, type UploadResult } from '../import/result';
import type { Semester } from '../domain/terms';
import { OFFERING_COLUMNS, OFFERING_GROUPING_COLUMNS } from './columns';
import { offeringColumnsOf, offeringsFromTables } from './upload';
import { upsertOfferings } from './repo';

/**
 * Upserts the offerings of a CSV or XLSX file in one transaction. Rows without a semester or
 * campus take the given ones (else Fall, and the first configured campus).
 */
export async function importOfferings(ctx: CoreContext, file: UploadedFile, given: { semester?: Semester | undefined; campus?: string | undefined } = {}): Promise<UploadResult> {
  const campus = given.campus === undefined ? ctx.campuses.fallback : ctx.campuses.require(given.campus, 'campus');
  const ext = requireExtension(file, ['csv', 'xlsx'], 'The offerings file');
  const tables = ext === 'csv' ? [readCsv(file)] : await readReport(file, { aliases: OFFERING_COLUMNS, carryDown: OFFERING_GROUPING_COLUMNS });
  const withColumns = tables
    .filter((table) => table.headers.some((h) => h !== '') || table.rows.length > 0)
    .map((table) => ({ table, columns: offeringColumnsOf(table, file.filename) }));
  const log = new ImportLog();
  const records = offeringsFromTables(withColumns, { semester: given.semester ?? 'Fall', campus, campuses: ctx.campuses }, log);
  const processed = ctx.db.transaction(() => upsertOfferings(ctx.db, records, ctx.now().toISOString()))();
  return log.result(processed);
}
