import { call, type FileUpload, type Result } from '../api/client';
import type { Campus, ImportKind, Term } from '../api/wire';

/** Each import's operation. */
const UPLOAD = { courses: 'courses-upload', offerings: 'offerings-upload', doctors: 'doctors-upload' } as const;

/** The columns and first rows an import of `kind` would read from the file. Throws the refusal. */
export function previewImport(kind: ImportKind, file: FileUpload): Promise<Result<'import-preview'>> {
  return call('import-preview', { kind, file });
}

/** Imports the file; every screen showing what it changes loads again on the change event. Throws the refusal. */
export function importData(kind: ImportKind, file: FileUpload): Promise<Result<(typeof UPLOAD)[ImportKind]>> {
  return call(UPLOAD[kind], { file });
}

/** Confirms a term that looked incomplete; the list loads again on the change event. Throws the refusal. */
export async function confirmCompleteTerm(term: Term & { campus: Campus }): Promise<void> {
  await call('offerings-confirm-term', { campus: term.campus, year: term.year, semester: term.semester });
}
