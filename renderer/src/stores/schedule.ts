import { create } from 'zustand';
import { call, type Args, type Result } from '../api/client';
import { messageOf } from '../api/errors';

export type Entry = Result<'schedule-list'>[number];
export type NewEntry = Args<'schedule-create'>;
export type EntryPatch = Args<'schedule-update'>;

interface ScheduleState {
  entries: Entry[];
  error: string | null;
  /** The server's words about the last refused change, next to the entry it concerns. */
  refusal: { entryId: number | null; message: string } | null;
  refresh: () => Promise<void>;
  create: (entry: NewEntry) => Promise<Entry>;
  update: (patch: EntryPatch) => Promise<Entry>;
  remove: (id: number) => Promise<void>;
  refuse: (entryId: number | null, message: string) => void;
}

export const useSchedule = create<ScheduleState>((set, get) => ({
  entries: [],
  error: null,
  refusal: null,
  async refresh() {
    try {
      set({ entries: await call('schedule-list', {}), error: null });
    } catch (error) {
      set({ error: messageOf(error) });
    }
  },
  async create(entry) {
    const created = await call('schedule-create', entry);
    set({ entries: [...get().entries, created], refusal: null });
    return created;
  },
  async update(patch) {
    const updated = await call('schedule-update', patch);
    set({ entries: get().entries.map((e) => (e.id === updated.id ? updated : e)), refusal: null });
    return updated;
  },
  async remove(id) {
    await call('schedule-delete', { entry_id: id });
    set({ entries: get().entries.filter((e) => e.id !== id) });
  },
  refuse(entryId, message) {
    set({ refusal: { entryId, message } });
  },
}));
