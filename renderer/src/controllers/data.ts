import { call, type FileUpload, type Result } from '../api/client';
import { useLive, type LiveResult } from '../api/live';
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

/** The Data screen's tables, live: the catalog, the offering history and the doctors. */
export function useDataTables(): {
  courses: LiveResult<Result<'courses-list'>>;
  offerings: LiveResult<Result<'offerings-list'>>;
  doctors: LiveResult<Result<'doctors-list'>>;
} {
  return { courses: useLive('courses-list', {}), offerings: useLive('offerings-list', {}), doctors: useLive('doctors-list', {}) };
}

/** Terms that look incomplete and are left out of the model, live. */
export function useIncompleteTerms(): Result<'offerings-incomplete-terms'> {
  return useLive('offerings-incomplete-terms', {}).data ?? [];
}
