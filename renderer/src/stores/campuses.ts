import { create } from 'zustand';
import { call } from '../api/client';
import { messageOf } from '../api/errors';
import type { Campus } from '../../../core/domain/campuses';

export type { Campus };

/** The campuses this installation plans for, as the core is configured (they never change while it runs). */
interface CampusesState {
  campuses: Campus[];
  error: string | null;
  load: () => Promise<void>;
}

export const useCampuses = create<CampusesState>((set) => ({
  campuses: [],
  error: null,
  async load() {
    try {
      set({ campuses: await call('campuses-list', {}), error: null });
    } catch (error) {
      set({ error: messageOf(error) });
    }
  },
}));
