import type { CoreContext } from '../context';
import { parseJsonFile, requireExtension, type UploadedFile } from '../import/files';
import { ImportLog, type UploadResult } from '../import/result';
import { coursesFromJson } from './upload';
import { upsertCourses } from './repo';
import { IMPORT_KINDS } from '../domain/import-kinds';

/** Upserts the courses of a JSON file in one transaction. */
export function importCourses(ctx: CoreContext, file: UploadedFile): UploadResult {
  requireExtension(file, IMPORT_KINDS.courses.extensions, IMPORT_KINDS.courses.label);
  const log = new ImportLog();
  const courses = coursesFromJson(parseJsonFile(file), log);
  const processed = ctx.db.transaction(() => upsertCourses(ctx.db, courses))();
  return log.result(processed);
}
