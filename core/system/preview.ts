import { requireExtension, type UploadedFile } from '../import/files';
import { previewJson, previewTable } from '../import/preview';
import { missingOfferingColumns, missingOfferingYears, OFFERING_COLUMNS, OFFERING_GROUPING_COLUMNS } from '../offerings';
import { DOCTOR_COLUMNS, DOCTOR_JSON_KEYS } from '../faculty';
import { COURSE_JSON_KEYS } from '../catalog';
import { IMPORT_KINDS, type ImportKind } from '../domain/import-kinds';

/** The columns and first rows an import of `kind` would read from the file, with what it would miss. */
export async function previewImport(kind: ImportKind, file: UploadedFile) {
  if (kind === 'courses') {
    requireExtension(file, IMPORT_KINDS.courses.extensions, IMPORT_KINDS.courses.label);
    return previewJson(file, Object.values(COURSE_JSON_KEYS).flat());
  }
  if (kind === 'offerings') {
    requireExtension(file, IMPORT_KINDS.offerings.extensions, IMPORT_KINDS.offerings.label);
    return previewTable(
      file,
      OFFERING_COLUMNS,
      (found, table) => [...missingOfferingColumns(found), ...missingOfferingYears(found, table)],
      OFFERING_GROUPING_COLUMNS,
    );
  }
  const ext = requireExtension(file, IMPORT_KINDS.doctors.extensions, IMPORT_KINDS.doctors.label);
  if (ext === 'json') return previewJson(file, Object.values(DOCTOR_JSON_KEYS).flat());
  return previewTable(file, DOCTOR_COLUMNS, (found) => (found.name === undefined ? ['name'] : []));
}
