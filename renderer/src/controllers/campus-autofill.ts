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

/** The registrar's campus auto-fill dialog: the options, the draft, the departments chosen to apply. */
export function useCampusAutofill(term: Term | null, onApplied: () => void) {
  const [options, setOptions] = useState<CampusOptions>(DEFAULT_CAMPUS_OPTIONS);
  const [draft, setDraft] = useState<CampusDraft | null>(null);
  const [chosen, setChosen] = useState<Set<string>>(new Set());
  const [busy, setBusy] = useState<'drafting' | 'applying' | null>(null);
  const [error, setError] = useState<string | null>(null);
  const make = async (): Promise<void> => {
    setBusy('drafting');
    setError(null);
    try {
      const { departments, ...rest } = options;
      const made = await call('schedule-autofill-campus', { ...rest, ...(departments.length > 0 ? { departments } : {}), ...(term ?? {}), dry_run: true });
      setDraft(made);
      setChosen(new Set(made.departments.map((d) => d.code)));
    } catch (e) {
      setError(messageOf(e));
    } finally {
      setBusy(null);
    }
  };
  const apply = async (): Promise<void> => {
    if (draft?.draft_id == null) return;
    setBusy('applying');
    setError(null);
    try {
      const all = draft.departments.every((d) => chosen.has(d.code));
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
  return { options, setOptions, draft, chosen, toggle, busy, error, make, apply, reset };
}
