import { create } from 'zustand';
import { call, type Args, type Result } from '../api/client';
import { messageOf } from '../api/errors';
import type { Term } from '../../../core/domain/terms';
import type { PartOfTerm } from '../../../core/domain/parts';

export type Entry = Result<'schedule-list'>[number];
export type NewEntry = Args<'schedule-create'>;
export type EntryPatch = Args<'schedule-update'>;
export type TimetableSettings = Result<'schedule-settings'>;
export type { Term, PartOfTerm };

interface ScheduleState {
  /** The term on screen; null until the current term is known. */
  term: Term | null;
  /** Terms that have a timetable, newest first. */
  terms: (Term & { entries: number })[];
  parts: PartOfTerm[];
  settings: TimetableSettings | null;
  entries: Entry[];
  error: string | null;
  /** The server's words about the last refused change, next to the entry it concerns. */
  refusal: { entryId: number | null; message: string } | null;
  refresh: () => Promise<void>;
  /** Shows another term's timetable. */
  showTerm: (term: Term) => Promise<void>;
  create: (entry: NewEntry) => Promise<Entry>;
  update: (patch: EntryPatch) => Promise<Entry>;
  remove: (id: number) => Promise<void>;
  refuse: (entryId: number | null, message: string) => void;
}

export const useSchedule = create<ScheduleState>((set, get) => ({
  term: null,
  terms: [],
  parts: [],
  settings: null,
  entries: [],
  error: null,
  refusal: null,
  async refresh() {
    try {
      const settings = await call('schedule-settings', {});
      const term = get().term ?? settings.current_term;
      const [entries, terms, parts] = await Promise.all([call('schedule-list', term), call('schedule-terms', {}), call('schedule-parts', term)]);
      set({ settings, term, entries, terms: terms.terms, parts, error: null });
    } catch (error) {
      set({ error: messageOf(error) });
    }
  },
  async showTerm(term) {
    set({ term, entries: [], refusal: null });
    await get().refresh();
  },
  async create(entry) {
    const created = await call('schedule-create', { ...get().term, ...entry });
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
