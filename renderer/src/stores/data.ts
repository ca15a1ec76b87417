import { create } from 'zustand';
import { call, type Result } from '../api/client';
import { messageOf } from '../api/errors';

export type Course = Result<'courses-list'>[number];
export type Offering = Result<'offerings-list'>[number];
export type Doctor = Result<'doctors-list'>[number];
export type { ImportKind } from '../../../core/domain/import-kinds';
import type { ImportKind } from '../../../core/domain/import-kinds';
export type UploadResult = Result<'courses-upload'>;
export type IncompleteTerm = Result<'offerings-incomplete-terms'>[number];

interface DataState {
  courses: Course[];
  offerings: Offering[];
  doctors: Doctor[];
  /** Terms that look incomplete and are left out of the recommendations until confirmed. */
  incompleteTerms: IncompleteTerm[];
  loading: boolean;
  error: string | null;
  refresh: () => Promise<void>;
  refreshDoctors: () => Promise<void>;
  /** Courses and doctors only: what the Scheduler needs, without the (possibly huge) history. */
  refreshCatalog: () => Promise<void>;
  importFile: (kind: ImportKind, file: { filename: string; content: Uint8Array }) => Promise<UploadResult>;
  /** Staff confirm a flagged term is complete; the list reloads on the `changed` event. */
  confirmTerm: (term: Pick<IncompleteTerm, 'campus' | 'year' | 'semester'>) => Promise<void>;
}

const UPLOAD = { courses: 'courses-upload', offerings: 'offerings-upload', doctors: 'doctors-upload' } as const;

export const useData = create<DataState>((set) => ({
  courses: [],
  offerings: [],
  doctors: [],
  incompleteTerms: [],
  loading: false,
  error: null,
  async refresh() {
    set({ loading: true, error: null });
    try {
      const [courses, offerings, doctors, incompleteTerms] = await Promise.all([call('courses-list', {}), call('offerings-list', {}), call('doctors-list', {}), call('offerings-incomplete-terms', {})]);
      set({ courses, offerings, doctors, incompleteTerms, loading: false });
    } catch (error) {
      set({ loading: false, error: messageOf(error) });
    }
  },
  async refreshDoctors() {
    set({ doctors: await call('doctors-list', {}) });
  },
  async refreshCatalog() {
    const [courses, doctors] = await Promise.all([call('courses-list', {}), call('doctors-list', {})]);
    set({ courses, doctors });
  },
  async importFile(kind, file) {
    // The stores reload on the core's `changed` event (see changes.ts).
    return call(UPLOAD[kind], { file });
  },
  async confirmTerm({ campus, year, semester }) {
    await call('offerings-confirm-term', { campus, year, semester });
  },
}));
