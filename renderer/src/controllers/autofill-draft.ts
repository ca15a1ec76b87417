import { useCallback, useEffect, useRef, useState } from 'react';
import { call, type Args, type Result } from '../api/client';
import { messageOf } from '../api/errors';
import type { AutofillRequest, AutofillResult, Term } from '../api/wire';

/** How often a draft being made is asked for its progress. */
const POLL_MS = 250;

export type DraftJob = Result<'schedule-autofill-draft'>;
export type DraftRequest = Omit<Args<'schedule-autofill-start'>, 'year' | 'semester'>;

/** A background draft's answer as the preview shows any auto-fill draft. */
export function draftResult(job: DraftJob, durationMs: number): AutofillResult | null {
  // Background drafts are a term's (a run's draft is made at once, by POST /scheduler/auto; a campus draft is the registrar's).
  if (job.result === null || job.source === 'run' || job.source === 'campus' || !('placed' in job.result)) return null;
  return {
    source: job.source,
    year: job.year,
    semester: job.semester,
    ...job.result,
    draft_id: job.draft_id,
    stored: 0,
    duration_ms: durationMs,
    dry_run: true,
  };
}

/**
 * A run's draft for the term on screen (null: the current term), made at once: a dry run, nothing is
 * stored until applied. Throws the refusal.
 */
export function draftForRun(request: AutofillRequest, term: Term | null): Promise<AutofillResult> {
  return call('schedule-autofill', { ...request, dry_run: true, ...term });
}

/**
 * A term's draft made in the background (POST /scheduler/auto/drafts): started, followed while it
 * runs (progress), cancelled (the best draft so far is kept), and answered when it stops.
 */
export function useDraftJob(onDone: (job: DraftJob, result: AutofillResult) => void) {
  const [job, setJob] = useState<DraftJob | null>(null);
  const [error, setError] = useState<string | null>(null);
  const started = useRef(0);
  const done = useRef(onDone);
  done.current = onDone;
  /** A draft's state as asked: followed while it runs, answered once it stops. */
  const settle = useCallback((next: DraftJob): void => {
    setJob(next);
    if (next.status === 'failed') setError(next.error ?? 'The draft could not be made');
    const result = next.status === 'running' ? null : draftResult(next, performance.now() - started.current);
    if (result) done.current(next, result);
  }, []);

  useEffect(() => {
    if (job?.status !== 'running') return undefined;
    const timer = setTimeout(() => {
      call('schedule-autofill-draft', { draft_id: job.draft_id }).then(
        (next) => settle(next),
        (e: unknown) => {
          setError(messageOf(e));
          setJob(null);
        },
      );
    }, POLL_MS);
    return () => clearTimeout(timer);
  }, [job, settle]);

  return {
    job,
    error,
    running: job?.status === 'running',
    start: useCallback(async (request: DraftRequest, term: Term | null): Promise<void> => {
      setError(null);
      started.current = performance.now();
      try {
        settle(await call('schedule-autofill-start', { ...request, ...term }));
      } catch (e) {
        setError(messageOf(e));
      }
    }, []),
    cancel: useCallback(async (): Promise<void> => {
      if (!job) return;
      try {
        settle(await call('schedule-autofill-cancel', { draft_id: job.draft_id }));
      } catch (e) {
        setError(messageOf(e));
      }
    }, [job, settle]),
    reset: useCallback(() => {
      setJob(null);
      setError(null);
    }, []),
  };
}
