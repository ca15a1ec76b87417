import type { CoreContext } from '../context';
import { requireExtension, type UploadedFile } from '../import/files';
import { readCsv } from '../import/csv';
import { readReport } from '../import/xlsx';
import { ImportLog, type UploadResult } from '../import/result';
import type { Semester } from '../domain/terms';
import { OFFERING_COLUMNS, OFFERING_GROUPING_COLUMNS } from './columns';
import { offeringColumnsOf, offeringsFromTables } from './upload';
import { confirmedTermKeys, confirmTerm, termCourseCounts, termHasOfferings, upsertOfferings } from './repo';
import { incompleteTerms, campusTermKey, type IncompleteTerm } from './completeness';
import type { Db } from '../db/store';
import { inTransaction } from '../db/transactions';
import { notFound } from '../domain/errors';
import { termLabel } from '../domain/terms';
import { IMPORT_KINDS } from '../domain/import-kinds';

/**
 * Upserts the offerings of a CSV or XLSX file in one transaction. Rows without a semester or
 * campus take the given ones (else Fall, and the first configured campus).
 */
export async function importOfferings(
  ctx: CoreContext,
  file: UploadedFile,
  given: { semester?: Semester | undefined; campus?: string | undefined } = {},
): Promise<UploadResult & { incomplete_terms: IncompleteTerm[] }> {
  const campus = given.campus === undefined ? ctx.campuses.fallback : ctx.campuses.require(given.campus, 'campus');
  const ext = requireExtension(file, IMPORT_KINDS.offerings.extensions, IMPORT_KINDS.offerings.label);
  const tables = ext === 'csv' ? [readCsv(file)] : await readReport(file, { aliases: OFFERING_COLUMNS, carryDown: OFFERING_GROUPING_COLUMNS });
  const withColumns = tables
    .filter((table) => table.headers.some((h) => h !== '') || table.rows.length > 0)
    .map((table) => ({ table, columns: offeringColumnsOf(table, file.filename) }));
  const log = new ImportLog();
  const records = offeringsFromTables(withColumns, { semester: given.semester ?? 'Fall', campus, campuses: ctx.campuses }, log);
  const processed = await inTransaction(ctx.db, (trx) => upsertOfferings(trx, ctx.department, records, ctx.now().toISOString()));
  const result = log.result(processed);
  // The terms of this file that look incomplete, said in words: the model leaves them out until confirmed.
  const inFile = new Set(records.map(campusTermKey));
  const incomplete = (await leftOutTerms(ctx.db, ctx.department)).filter((term) => inFile.has(campusTermKey(term)));
  return {
    ...result,
    warnings: [
      ...incomplete.map((t) => `${t.message} It is left out of the recommendations until you confirm it complete (Data screen) or upload it again.`),
      ...result.warnings,
    ],
    incomplete_terms: incomplete,
  };
}

/**
 * The terms that look incomplete (far fewer courses than the campus's usual terms) and that staff
 * have not confirmed: the model leaves them out.
 */
export async function leftOutTerms(db: Db, department: number): Promise<IncompleteTerm[]> {
  return incompleteTerms(await termCourseCounts(db, department), await confirmedTermKeys(db, department));
}

/** Staff confirm a term complete: the model takes it into account again (it retrains before its next run). */
export async function confirmCompleteTerm(
  ctx: CoreContext,
  term: { campus: string; year: number; semester: Semester },
): Promise<{ confirmed: typeof term; incomplete_terms: IncompleteTerm[] }> {
  const campus = ctx.campuses.require(term.campus, 'campus');
  const confirmed = { ...term, campus };
  return inTransaction(ctx.db, async (trx) => {
    if (!(await termHasOfferings(trx, ctx.department, confirmed))) throw notFound(`There are no offering records for ${termLabel(term)} at ${campus}`);
    await confirmTerm(trx, ctx.department, confirmed, ctx.now().toISOString());
    return { confirmed, incomplete_terms: await leftOutTerms(trx, ctx.department) };
  });
}
