import { echo } from '../domain/bounds';
import { invalid } from '../domain/errors';
import { cellText, firstField, matchColumns, type Table } from '../import/table';
import { DOCTOR_COLUMNS, DOCTOR_JSON_KEYS } from './columns';
import type { ImportLog } from '../import/result';
import { readAllowedCourses, readAvailability } from './fields';
import { doctorNameKey } from '../domain/teaching';
import type { DoctorRecord } from './schema';

/** One doctor from loose fields, as uploads and the create form give them. */
export function doctorFromFields(fields: Record<string, unknown>, where: string, log: ImportLog): DoctorRecord | null {
  const name = cellText(firstField(fields, DOCTOR_JSON_KEYS.name)).replace(/\s+/g, ' ');
  if (name === '') {
    log.skip(where, 'no name');
    return null;
  }
  const allowed = readAllowedCourses(firstField(fields, DOCTOR_JSON_KEYS.allowed_courses));
  for (const bad of allowed.rejected) log.warn(`${where} (${name}): "${bad}" is not a course code and was left out of the allowed courses`);
  const availability = readAvailability({
    days: firstField(fields, DOCTOR_JSON_KEYS.days),
    time: firstField(fields, DOCTOR_JSON_KEYS.time),
    start: firstField(fields, DOCTOR_JSON_KEYS.start),
    end: firstField(fields, DOCTOR_JSON_KEYS.end),
  });
  // Hours that cannot be read are not "any time": the row is left out (an instructor already listed keeps their hours), saying why.
  if (availability.problems.length > 0) {
    log.skip(where, `${name}: ${availability.problems.join('; ')}; fix the hours and upload again`);
    return null;
  }
  return { name, allowed_courses: JSON.stringify(allowed.codes), available_days: availability.days, available_time: availability.time };
}

export function doctorsFromJson(document: unknown, log: ImportLog): DoctorRecord[] {
  let located: { where: string; fields: unknown }[];
  if (Array.isArray(document)) located = (document as unknown[]).map((fields, i) => ({ where: `item ${i + 1}`, fields }));
  else if (document !== null && typeof document === 'object') {
    const object = document as Record<string, unknown>;
    const list = object.doctors ?? object.faculty;
    if (Array.isArray(list)) located = (list as unknown[]).map((fields, i) => ({ where: `item ${i + 1}`, fields }));
    else
      located = Object.entries(object).map(([name, fields]) => ({
        where: `"${name}"`,
        fields: fields !== null && typeof fields === 'object' ? { name, ...fields } : fields,
      }));
  } else throw invalid('The doctors file must hold an array of doctors, an object with "doctors" or "faculty", or an object keyed by name');
  return dedupe(
    located.flatMap(({ where, fields }) => {
      if (fields === null || typeof fields !== 'object' || Array.isArray(fields)) {
        log.skip(where, 'not a doctor object');
        return [];
      }
      const doctor = doctorFromFields(fields as Record<string, unknown>, where, log);
      return doctor ? [doctor] : [];
    }),
  );
}

export function doctorsFromTables(tables: Table[], filename: string, log: ImportLog): DoctorRecord[] {
  const doctors: DoctorRecord[] = [];
  for (const table of tables) {
    if (table.headers.every((h) => h === '') && table.rows.length === 0) continue;
    const columns = matchColumns(table.headers, DOCTOR_COLUMNS);
    if (columns.name === undefined) {
      throw invalid(
        `"${filename}" is missing the required column name (or ${DOCTOR_COLUMNS.name
          .slice(1)
          .map((n) => `"${n}"`)
          .join(', ')}). Columns found: ${echo(table.headers.filter(Boolean).join(', ') || 'none')}`,
      );
    }
    for (const row of table.rows) {
      const fields: Record<string, unknown> = {};
      for (const [field, index] of Object.entries(columns)) fields[field] = row.values[index];
      const doctor = doctorFromFields(fields, row.where, log);
      if (doctor) doctors.push(doctor);
    }
  }
  return dedupe(doctors);
}

function dedupe(doctors: DoctorRecord[]): DoctorRecord[] {
  const byKey = new Map<string, DoctorRecord>();
  for (const d of doctors) byKey.set(doctorNameKey(d.name), d);
  return [...byKey.values()];
}
