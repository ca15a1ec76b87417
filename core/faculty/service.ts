import type { CoreContext } from '../context';
import { CoreError, fieldErrors } from '../domain/errors';
import { parseJsonFile, requireExtension, type UploadedFile } from '../import/files';
import { readCsv } from '../import/csv';
import { readReport } from '../import/xlsx';
import { ImportLog, type UploadResult } from '../import/result';
import { readAllowedCourses, readAvailability } from './fields';
import { DOCTOR_COLUMNS } from './columns';
import { doctorsFromJson, doctorsFromTables } from './upload';
import { ensureDoctors, findDoctorByName, insertDoctor, upsertDoctors, type DoctorRecord } from './repo';
import type { CreateDoctorInput, Doctor } from './schema';
import { IMPORT_KINDS } from '../domain/import-kinds';
import { inTransaction } from '../db/transactions';

/**
 * The department's instructors of these names, each added where the department lacks them (a
 * person of the campus another department has, or a new one): their ids, in order. Inside the
 * caller's transaction.
 */
export function ensureDepartmentDoctors(ctx: CoreContext, doctors: readonly DoctorRecord[]): Promise<number[]> {
  return ensureDoctors(ctx.db, ctx.department, doctors);
}

/** Upserts the doctors of a JSON, CSV or XLSX file in one transaction; "success" whenever it is readable. */
export async function importDoctors(ctx: CoreContext, file: UploadedFile): Promise<UploadResult> {
  const ext = requireExtension(file, IMPORT_KINDS.doctors.extensions, IMPORT_KINDS.doctors.label);
  const log = new ImportLog();
  const doctors =
    ext === 'json'
      ? doctorsFromJson(parseJsonFile(file), log)
      : doctorsFromTables(ext === 'csv' ? [readCsv(file)] : await readReport(file, { aliases: DOCTOR_COLUMNS }), file.filename, log);
  // The registrar sets a shared instructor's hours; a department's upload sets those of its own instructors.
  const { processed, kept } = await inTransaction(ctx.db, (trx) => upsertDoctors(trx, ctx.department, doctors, ctx.actor.role === 'registrar'));
  for (const name of kept.slice(0, 200))
    log.warn(`${name} also teaches in another department: their hours are kept as they are (the registrar sets a shared instructor's hours)`);
  return { ...log.result(processed), status: 'success' };
}

/** Adds one doctor; a course list or availability that cannot be read is refused field by field. */
export async function createDoctor(ctx: CoreContext, input: CreateDoctorInput): Promise<Doctor> {
  const allowed = readAllowedCourses(input.allowed_courses ?? []);
  const availability = readAvailability({ days: input.available_days ?? input.days, time: input.available_time, start: input.start, end: input.end });
  const fields = [
    ...allowed.rejected.map((code) => ({ field: 'allowed_courses', message: `"${code}" is not a course code` })),
    ...availability.problems.map((message) => ({ field: message.startsWith('days') ? 'available_days' : 'available_time', message })),
  ];
  if (fields.length > 0) throw fieldErrors(fields);
  return inTransaction(ctx.db, async (trx) => {
    const existing = await findDoctorByName(trx, ctx.department, input.name);
    if (existing) throw new CoreError('conflict', `A doctor named "${existing.name}" already exists (id ${existing.id})`);
    return insertDoctor(trx, ctx.department, {
      name: input.name.replace(/\s+/g, ' '),
      allowed_courses: JSON.stringify(allowed.codes),
      available_days: availability.days,
      available_time: availability.time,
    });
  });
}
