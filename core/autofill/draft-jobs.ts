import { randomUUID } from 'node:crypto';
import type { CoreContext } from '../context';
import { CoreError, notFound } from '../domain/errors';
import type { Term } from '../domain/terms';
import type { SearchProgress } from '../solver';
import { applyTermDraft, draftTermTimetable, type TermDraft, type TermDraftInput, type TermSource } from './term-draft';

/**
 * Auto-fill drafts of a term made in the background: started, followed (the best draft so far, the
 * classes still to place), cancelled (the best draft so far is kept) and applied by id. A draft
 * belongs to the department that made it: another department's id is "not found". Drafts live in
 * the process that made them, for DRAFT_BOUNDS.keepMs; each department runs a few at a time.
 */
export const DRAFT_BOUNDS = { runningPerDepartment: 2, keptPerDepartment: 10, keepMs: 60 * 60_000 } as const;

export type DraftStatus = 'running' | 'done' | 'cancelled' | 'failed';

export interface DraftProgress {
  phase: 'starting' | 'construction' | 'optimization';
  /** Classes of the model placed so far (construction), and in all. */
  placed: number;
  classes: number;
  /** Classes not placed yet: the hard rules the draft does not meet yet. */
  hard_left: number;
  /** The best complete draft's penalty so far (lower is better); null before there is one. */
  best_total: number | null;
}

export interface DraftAnswer {
  draft_id: string;
  status: DraftStatus;
  year: number;
  semester: Term['semester'];
  source: TermDraftInput['source'];
  progress: DraftProgress;
  /** The draft (its moves and placed sections), once the search has stopped. */
  result: Omit<TermDraft, 'basis' | 'term' | 'source'> | null;
  error: string | null;
  /** Meetings and sections stored by applying it (null until applied). */
  applied: number | null;
}

interface Job {
  id: string;
  department: number;
  term: Term;
  source: TermDraftInput['source'];
  status: DraftStatus;
  progress: DraftProgress;
  draft: TermDraft | null;
  error: string | null;
  applied: number | null;
  cancel: () => void;
  cancelled: boolean;
  madeAt: number;
}

const jobs = new Map<string, Job>();

function forget(now: number): void {
  for (const [id, job] of jobs) if (job.status !== 'running' && now - job.madeAt > DRAFT_BOUNDS.keepMs) jobs.delete(id);
}

function answer(job: Job): DraftAnswer {
  let result: DraftAnswer['result'] = null;
  if (job.draft) {
    const { basis: _basis, term: _term, source: _source, ...made } = job.draft;
    result = made;
  }
  return {
    draft_id: job.id,
    status: job.status,
    year: job.term.year,
    semester: job.term.semester,
    source: job.source,
    progress: job.progress,
    result,
    error: job.error,
    applied: job.applied,
  };
}

function jobOf(ctx: CoreContext, id: string): Job {
  const job = jobs.get(id);
  // Another department's draft is not found: its id says nothing.
  if (!job || job.department !== ctx.department) throw notFound(`No auto-fill draft ${id}: it was never made here, or it expired (drafts are kept an hour)`);
  return job;
}

/** Room for one more draft of the department: the oldest finished ones go. */
function makeRoom(department: number, now: number): Job[] {
  forget(now);
  const mine = [...jobs.values()].filter((j) => j.department === department);
  const finished = mine.filter((j) => j.status !== 'running').sort((a, b) => a.madeAt - b.madeAt);
  for (const old of finished.slice(0, Math.max(0, mine.length + 1 - DRAFT_BOUNDS.keptPerDepartment))) jobs.delete(old.id);
  return mine;
}

/** A draft's record, kept under its new id. */
function newJob(department: number, term: Term, source: Job['source'], madeAt: number, state: Pick<Job, 'status' | 'progress' | 'draft'>): Job {
  const job: Job = { id: randomUUID(), department, term, source, ...state, error: null, applied: null, cancel: () => undefined, cancelled: false, madeAt };
  jobs.set(job.id, job);
  return job;
}

/** Keeps a draft made at once (POST /scheduler/auto with dry_run), to review and apply by its id; answers the id. */
export function keepDraft(ctx: CoreContext, draft: TermDraft): string {
  const now = Date.now();
  makeRoom(ctx.department, now);
  const left = draft.unplaced.length;
  const placed = draft.moved.length + draft.placed.length;
  const job = newJob(ctx.department, draft.term, draft.source, now, {
    status: 'done',
    progress: { phase: 'optimization', placed, classes: placed + left, hard_left: left, best_total: draft.score.soft.total },
    draft,
  });
  return job.id;
}

/** Starts drafting a term in the background; answers its id at once. */
export function startDraft(ctx: CoreContext, term: Term, input: TermDraftInput & { source: TermSource }): DraftAnswer {
  const now = Date.now();
  if ([...jobs.values()].filter((j) => j.department === ctx.department && j.status === 'running').length >= DRAFT_BOUNDS.runningPerDepartment) {
    throw new CoreError('busy', `${DRAFT_BOUNDS.runningPerDepartment} auto-fill drafts are already running for this department: wait for one or cancel it`);
  }
  makeRoom(ctx.department, now);
  const job = newJob(ctx.department, term, input.source, now, {
    status: 'running',
    progress: { phase: 'starting', placed: 0, classes: 0, hard_left: 0, best_total: null },
    draft: null,
  });
  const onProgress = (p: SearchProgress): void => {
    job.progress = {
      phase: p.phase,
      placed: p.placed,
      classes: p.classes,
      hard_left: p.classes - p.placed,
      best_total: p.bestTotal === null ? null : p.bestTotal / 10,
    };
  };
  draftTermTimetable(ctx, term, input, {
    onProgress,
    started: (cancel) => {
      job.cancel = cancel;
      if (job.cancelled) cancel();
    },
  }).then(
    (draft) => {
      job.draft = draft;
      job.status = job.cancelled ? 'cancelled' : 'done';
      const left = draft.unplaced.length;
      job.progress = { ...job.progress, placed: Math.max(0, job.progress.classes - left), hard_left: left, best_total: draft.score.soft.total };
    },
    (error: unknown) => {
      job.status = 'failed';
      job.error = error instanceof CoreError ? error.message : 'The draft could not be made (a fault of Termwise; it is logged)';
      if (!(error instanceof CoreError)) console.error(error);
    },
  );
  return answer(job);
}

/** A draft as it stands: running with its progress, or stopped with its result. */
export function draftState(ctx: CoreContext, id: string): DraftAnswer {
  return answer(jobOf(ctx, id));
}

/** Stops a running draft: the best draft so far is its result. */
export function cancelDraft(ctx: CoreContext, id: string): DraftAnswer {
  const job = jobOf(ctx, id);
  if (job.status === 'running') {
    job.cancelled = true;
    job.cancel();
  }
  return answer(job);
}

/**
 * Stores a finished draft, all or nothing (see applyTermDraft); `sections` keeps only those
 * meetings (by id) and sections without a time (by id) of it. A draft is applied once.
 */
export async function applyDraft(
  ctx: CoreContext,
  id: string,
  only?: { meetings?: readonly number[] | undefined; sections?: readonly number[] | undefined },
): Promise<DraftAnswer> {
  const job = jobOf(ctx, id);
  if (job.status === 'running')
    throw new CoreError('invalid', 'This draft is still being made: wait for it or cancel it (the best draft so far is kept), then apply');
  if (job.applied !== null) throw new CoreError('invalid', 'This draft was applied already');
  if (!job.draft) throw new CoreError('invalid', `This draft has nothing to apply: ${job.error ?? 'it failed'}`);
  const meetings = only?.meetings === undefined ? null : new Set(only.meetings);
  const sections = only?.sections === undefined ? null : new Set(only.sections);
  const chosen = {
    ...job.draft,
    moved: job.draft.moved.filter((m) => meetings === null || meetings.has(m.id)),
    placed: job.draft.placed.filter((p) => sections === null || sections.has(p.id)),
  };
  job.applied = (await applyTermDraft(ctx, chosen)).count;
  return answer(job);
}
