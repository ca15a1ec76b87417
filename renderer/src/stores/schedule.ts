import { create } from 'zustand';
import type { Term } from '../api/wire';

/** What the Scheduler keeps between visits: the term chosen (null: the current term) and the last refused change. */
interface ScheduleView {
  chosen: Term | null;
  /** The server's words about the last refused change, next to the entry it concerns. */
  refusal: { entryId: number | null; message: string } | null;
  showTerm: (term: Term) => void;
  refuse: (entryId: number | null, message: string) => void;
  clearRefusal: () => void;
}

export const useScheduleView = create<ScheduleView>((set) => ({
  chosen: null,
  refusal: null,
  showTerm: (term) => set({ chosen: { year: term.year, semester: term.semester }, refusal: null }),
  refuse: (entryId, message) => set({ refusal: { entryId, message } }),
  clearRefusal: () => set({ refusal: null }),
}));
