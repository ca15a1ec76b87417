import { useEffect } from 'react';
import { call, type Args, type Result } from '../api/client';
import { fetchLive, patchLive, prefetchLive, useLive, writeSent, type LiveResult } from '../api/live';
import type { Entry, EntryPatch, NewEntry, PartOfTerm, Term, TimetableSettings } from '../api/wire';
import { useScheduleView } from '../stores/schedule';

const NONE: never[] = [];

export interface Timetable {
  /** The term on screen; null until the current term is known. */
  term: Term | null;
  settings: TimetableSettings | null;
  /** Terms that have a timetable, newest first. */
  terms: (Term & { entries: number })[];
  entries: Entry[];
  parts: PartOfTerm[];
  error: string | null;
}

const asked = (term: Term): Term => ({ year: term.year, semester: term.semester });

/**
 * Starts loading the timetable on screen (the settings, then the term's meetings and parts) while
 * the Scheduler's code loads; `after` starts other reads of that term once the meetings are in hand,
 * without waiting for them: asked together, they would keep the server from the meetings first.
 */
export async function prefetchTimetable(after: (term: Term) => void = () => undefined): Promise<void> {
  const settings = await fetchLive('schedule-settings', {});
  const term = asked(useScheduleView.getState().chosen ?? settings.current_term);
  await Promise.all([prefetchLive('schedule-list', term), prefetchLive('schedule-parts', term)]);
  after(term);
}

/** Starts loading a term's sections without a time (the panel below the week). */
export function prefetchUntimedSections(term: Term): Promise<void> {
  return prefetchLive('schedule-unscheduled', term);
}

/** The timetable on screen, live: the chosen term (else the current one), its meetings and parts. */
export function useTimetable(): Timetable {
  const settings = useLive('schedule-settings', {});
  const chosen = useScheduleView((s) => s.chosen);
  const showTerm = useScheduleView((s) => s.showTerm);
  const term = chosen ?? settings.data?.current_term ?? null;
  // The term first shown stays on screen until staff choose another: the current term, until chosen in
  // Settings, follows the offering history, and an import elsewhere must not move the timetable being edited.
  useEffect(() => {
    if (chosen === null && term !== null) showTerm(term);
  }, [chosen, term, showTerm]);
  const shown = term && asked(term);
  const entries = useLive('schedule-list', shown);
  const parts = useLive('schedule-parts', shown);
  const terms = useLive('schedule-terms', {});
  return {
    term,
    settings: settings.data ?? null,
    terms: terms.data?.terms ?? NONE,
    entries: entries.data ?? NONE,
    parts: parts.data ?? NONE,
    error: settings.error ?? entries.error ?? parts.error ?? terms.error,
  };
}

/** Writes of one meeting from this page: each shows its answer at once and clears the last refusal; a refusal throws. */
export async function createEntry(term: Term, entry: NewEntry): Promise<Entry> {
  const sent = writeSent();
  const created = await call('schedule-create', { ...term, ...entry });
  patchLive(sent, 'schedule-list', (list) => [...list, created], asked(created));
  useScheduleView.getState().clearRefusal();
  return created;
}

export async function updateEntry(patch: EntryPatch): Promise<Entry> {
  const sent = writeSent();
  const updated = await call('schedule-update', patch);
  patchLive(sent, 'schedule-list', (list) => list.map((e) => (e.id === updated.id ? updated : e)));
  useScheduleView.getState().clearRefusal();
  return updated;
}

export async function removeEntry(id: number): Promise<void> {
  const sent = writeSent();
  await call('schedule-delete', { entry_id: id });
  patchLive(sent, 'schedule-list', (list) => list.filter((e) => e.id !== id));
}

/** Adds or changes a part of term; its list shows it on the change event. Throws the refusal. */
export async function savePartOfTerm(term: Term, part: { code: string; name: string; start_date: string; end_date: string }): Promise<void> {
  await call('schedule-parts-save', { ...term, code: part.code, name: part.name, start_date: part.start_date || null, end_date: part.end_date || null });
}

/** Removes an unused part of term. Throws the refusal. */
export async function removePartOfTerm(term: Term, code: string): Promise<void> {
  await call('schedule-parts-delete', { ...term, code });
}

/** Rolls another term's timetable into `to`, answering what was copied and what stayed behind. Throws the refusal. */
export function copyTimetable(request: Args<'schedule-terms-copy'>): Promise<Result<'schedule-terms-copy'>> {
  return call('schedule-terms-copy', request);
}

/** A registrar's listing, dry run or applied. Throws the refusal. */
export function importListing(request: Args<'schedule-import'>): Promise<Result<'schedule-import'>> {
  return call('schedule-import', request);
}

/** A term's sections without a time, live. */
export function useUntimedSections(term: Term): LiveResult<Result<'schedule-unscheduled'>> {
  return useLive('schedule-unscheduled', asked(term));
}

/** The current timetable term (chosen in Settings, else the one after the offering history), live. */
export function useCurrentTerm(): Term | null {
  return useLive('schedule-settings', {}).data?.current_term ?? null;
}
