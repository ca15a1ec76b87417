import { useState } from 'react';
import { call, type Args, type Result } from '../api/client';
import { messageOf } from '../api/errors';
import { useLive } from '../api/live';
import type { AutofillResult, Term } from '../api/wire';
import { notifyDone, notifyError } from '../lib/notify';

/**
 * The registrar's auto-fill of the whole campus (POST /scheduler/auto/campus): drafted, reviewed per
 * department, applied whole or for chosen departments; and each department's part of it, reviewed
 * read-only in its own Scheduler.
 */

export type CampusDraft = Result<'schedule-autofill-campus'>;
export type CampusDraftListed = Result<'schedule-autofill-campus-drafts'>[number];
export type CampusOptions = Pick<Args<'schedule-autofill-campus'>, 'rebuild' | 'seed' | 'time_budget_ms'> & { departments: string[] };

export const DEFAULT_CAMPUS_OPTIONS: CampusOptions = { rebuild: false, seed: 1, time_budget_ms: 30_000, departments: [] };

/** The campus's departments, as the dialog offers them to choose from. */
export function useCampusDepartments(): { value: string; label: string }[] {
  const departments = useLive('departments-list', {}).data ?? [];
  return departments.map((d) => ({ value: d.code, label: `${d.code} · ${d.name}` }));
}

/** The campus drafts kept for a term that are not applied yet, with this department's part (the registrar's: every part). */
export function useCampusDrafts(term: Term | null): CampusDraftListed[] {
  const listed = useLive('schedule-autofill-campus-drafts', term ? { ...term } : null).data ?? [];
  return listed.filter((d) => !d.applied);
}

/**
 * A department's part of a campus draft as the Scheduler's draft review shows any term draft: its
 * meetings moved (with where they were) and those left without a time, with why.
 */
export async function campusPartForReview(listed: CampusDraftListed): Promise<AutofillResult> {
  const job = await call('schedule-autofill-draft', { draft_id: listed.draft_id });
  const part = job.result;
  if (part === null || !('departments' in part)) throw new Error('This campus draft has nothing to review');
  return {
    source: 'term',
    year: listed.year,
    semester: listed.semester,
    moved: part.moved,
    placed: [],
    unplaced: part.unplaced.map((u) => ({ id: u.id, untimed: false, course_code: u.course_code, section_name: u.section_name, reason: u.reason })),
    locked: part.locked,
    score: { hard_violations: 0, soft: part.score.soft },
    goals: { load_balance: 0, same_pattern: 0, same_start: 0, curriculum_clashes: 0, teaching_days: 0, empty_seats: 0, total: part.score.soft.total },
    moves: part.moves,
    draft_id: listed.draft_id,
    stored: 0,
    duration_ms: 0,
    dry_run: true,
  };
}

/** A campus draft as the dialog shows it: its id and what it changes (the registrar reads all of it). */
export interface CampusDraftShown {
  draft_id: string;
  result: Pick<CampusDraft, 'departments' | 'moved' | 'unplaced' | 'hard_violations'>;
}
export type CampusProgress = Result<'schedule-autofill-draft'>['progress'];

/** How often a campus draft being made is asked for its progress. */
const POLL_MS = 300;
const pause = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * The registrar's campus auto-fill dialog: the options, the draft made in the background (its
 * progress, a way to stop it keeping the best so far), the departments chosen to apply.
 */
export function useCampusAutofill(term: Term | null, onApplied: () => void) {
  const [options, setOptions] = useState<CampusOptions>(DEFAULT_CAMPUS_OPTIONS);
  const [draft, setDraft] = useState<CampusDraftShown | null>(null);
  const [running, setRunning] = useState<{ id: string; progress: CampusProgress } | null>(null);
  const [chosen, setChosen] = useState<Set<string>>(new Set());
  const [busy, setBusy] = useState<'drafting' | 'applying' | null>(null);
  const [error, setError] = useState<string | null>(null);
  const make = async (): Promise<void> => {
    setBusy('drafting');
    setError(null);
    setDraft(null);
    try {
      const { departments, ...rest } = options;
      let job = await call('schedule-autofill-campus-start', { ...rest, ...(departments.length > 0 ? { departments } : {}), ...(term ?? {}) });
      while (job.status === 'running') {
        setRunning({ id: job.draft_id, progress: job.progress });
        await pause(POLL_MS);
        job = await call('schedule-autofill-draft', { draft_id: job.draft_id });
      }
      const result = job.result;
      if (result === null || !('departments' in result)) throw new Error(job.error ?? 'The campus draft could not be made');
      setDraft({ draft_id: job.draft_id, result });
      setChosen(new Set(result.departments.map((d) => d.code)));
    } catch (e) {
      setError(messageOf(e));
    } finally {
      setRunning(null);
      setBusy(null);
    }
  };
  /** Stops the draft being made: the best draft so far is kept, to review. */
  const stop = async (): Promise<void> => {
    if (running === null) return;
    try {
      await call('schedule-autofill-cancel', { draft_id: running.id });
    } catch (e) {
      setError(messageOf(e));
    }
  };
  const apply = async (): Promise<void> => {
    if (draft === null) return;
    setBusy('applying');
    setError(null);
    try {
      const all = draft.result.departments.every((d) => chosen.has(d.code));
      const done = await call('schedule-autofill-apply', { draft_id: draft.draft_id, ...(all ? {} : { departments: [...chosen] }) });
      notifyDone(`${done.applied ?? 0} meetings changed across ${chosen.size} department${chosen.size === 1 ? '' : 's'}.`, 'Campus auto-fill applied');
      setDraft(null);
      onApplied();
    } catch (e) {
      notifyError(e, 'The campus draft could not be applied');
      setError(messageOf(e));
    } finally {
      setBusy(null);
    }
  };
  const toggle = (code: string): void =>
    setChosen((now) => {
      const next = new Set(now);
      if (next.has(code)) next.delete(code);
      else next.add(code);
      return next;
    });
  const reset = (): void => {
    setDraft(null);
    setError(null);
  };
  return { options, setOptions, draft, running, chosen, toggle, busy, error, make, stop, apply, reset };
}
