import type { CoreContext } from '../context';
import { parseJsonFile, requireExtension, type UploadedFile } from '../import/files';
import { ImportLog, type UploadResult } from '../import/result';
import { coursesFromJson } from './upload';
import { upsertCourses, type Course } from './repo';
import { IMPORT_KINDS } from '../domain/import-kinds';
import { inTransaction } from '../db/transactions';

/** Adds or updates the department's courses a listing names (inside the caller's transaction). */
export async function storeListedCourses(ctx: CoreContext, courses: readonly Course[]): Promise<void> {
  await upsertCourses(ctx.db, ctx.department, courses);
}

/** Upserts the courses of a JSON file in one transaction. */
export async function importCourses(ctx: CoreContext, file: UploadedFile): Promise<UploadResult> {
  requireExtension(file, IMPORT_KINDS.courses.extensions, IMPORT_KINDS.courses.label);
  const log = new ImportLog();
  const courses = coursesFromJson(parseJsonFile(file), log);
  const processed = await inTransaction(ctx.db, (trx) => upsertCourses(trx, ctx.department, courses));
  return log.result(processed);
}
