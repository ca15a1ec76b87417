import { call, type Result } from '../api/client';
import { prefetchLive, useLive } from '../api/live';
import type { Term } from '../api/wire';

/** A term's change history as the screens show it: newest first. */
export type TermHistory = Result<'schedule-history'>;
export type TermChange = TermHistory['changes'][number];

export interface HistoryFilter {
  person_id?: number | undefined;
  course_code?: string | undefined;
  section_name?: string | undefined;
  meeting_uid?: string | undefined;
}

const NONE: TermChange[] = [];

/** A term's changes, live (a change by anyone, anywhere, shows at once), filtered by person, section or meeting. */
export function useTermHistory(term: Term | null, filter: HistoryFilter = {}): { changes: TermChange[]; revision: number | null; error: string | null } {
  const args = term === null ? null : historyArgs(term, filter);
  const history = useLive('schedule-history', args);
  return { changes: history.data?.changes ?? NONE, revision: history.data?.revision ?? null, error: history.error };
}

/** How the panel asks a term's history: its latest changes, as filtered. */
const historyArgs = (term: Term, filter: HistoryFilter) => ({ year: term.year, semester: term.semester, limit: 200, ...withoutBlanks(filter) });

/** Starts loading a term's latest changes (the history panel below the week). */
export function prefetchTermHistory(term: Term): Promise<void> {
  return prefetchLive('schedule-history', historyArgs(term, {}));
}

function withoutBlanks(filter: HistoryFilter): HistoryFilter {
  return Object.fromEntries(Object.entries(filter).filter(([, v]) => v !== undefined && v !== ''));
}

/** Undoes one change, or the whole batch it was part of; the timetable and history show it on the change event. Throws the refusal. */
export function undoChange(change: Pick<TermChange, 'id' | 'batch'>, whole: boolean): Promise<Result<'schedule-undo'>> {
  return call('schedule-undo', whole ? { batch: change.batch } : { change_id: change.id });
}
