import { randomUUID } from 'node:crypto';
import type { CoreContext } from '../context';
import { CoreError, fieldError, forbidden, notFound } from '../domain/errors';
import { getDepartment, listDepartments } from '../departments/repo';
import { currentTerm, termOf } from '../timetable';
import { checkCampusInput, draftCampus, type CampusDraft, type CampusDraftInput } from './campus-draft';
import { campusPart, storeCampus } from './campus-service';
import type { Term } from '../domain/terms';
import type { SearchProgress } from '../solver';
import { applyTermDraft, placedAsStored, draftTermTimetable, type DraftControl, type TermDraft, type TermDraftInput, type TermSource } from './term-draft';
import {
  APPLYING,
  askToStop,
  beat,
  claimToApply,
  countRunning,
  draftRow,
  campusDraftRow,
  campusDraftRows,
  finishDraft,
  forgetDrafts,
  insertDraft,
  settleApply,
  type DraftRow,
} from './drafts-repo';

/**
 * Auto-fill drafts of a term made in the background: started, followed (the best draft so far, the
 * classes still to place), cancelled (the best draft so far is kept) and applied by id. A draft
 * belongs to the department that made it: another department's id is "not found". Drafts live in
 * the store for DRAFT_BOUNDS.keepMs, so any server process answers for any of them; the process that
 * makes one writes its progress there. Each department runs a few at a time.
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
  source: TermDraftInput['source'] | 'campus';
  progress: DraftProgress;
  /**
   * The draft (its moves and placed sections), once the search has stopped; a campus draft (source
   * "campus") as the caller may read it: the registrar all of it, a department its own part.
   */
  result: Omit<TermDraft, 'basis' | 'term' | 'source'> | Omit<CampusDraft, 'basis' | 'term'> | null;
  error: string | null;
  /** Meetings and sections stored by applying it (null until applied). */
  applied: number | null;
}

/** A running draft writes its progress (and that its process lives) this often; one not heard from for STALE_MS has lost its process. */
const BEAT_MS = 1_000;
const STALE_MS = 30_000;

/** Drafts this process is making: their latest progress and how to stop them (at once, when asked here). */
const making = new Map<string, { progress: DraftProgress; cancel: () => void; cancelled: boolean }>();

const DRAFT_NOT_FOUND = (id: string): CoreError => notFound(`No auto-fill draft ${id}: it was never made here, or it expired (drafts are kept an hour)`);

function answer(row: DraftRow, at: number, part?: string): DraftAnswer {
  let result: DraftAnswer['result'] = null;
  if (row.draft !== null && row.source === 'campus') {
    const { basis: _basis, term: _term, ...made } = campusPart(JSON.parse(row.draft) as CampusDraft, part === undefined ? undefined : [part]);
    // A department reads why its meetings lose their time without what they clash with (it may be another department's).
    result = part === undefined ? made : { ...made, unplaced: made.unplaced.map((u) => ({ ...u, reason: withoutClashDetail(u.reason) })) };
  } else if (row.draft !== null) {
    const { basis: _basis, term: _term, source: _source, ...made } = JSON.parse(row.draft) as TermDraft;
    result = made;
  }
  const local = making.get(row.id);
  // A draft whose process stopped beating (it was stopped or killed) will never finish.
  const lost = row.status === 'running' && local === undefined && at - Date.parse(row.heartbeat_at) > STALE_MS;
  return {
    draft_id: row.id,
    status: lost ? 'failed' : (row.status as DraftStatus),
    year: row.year,
    semester: row.semester as Term['semester'],
    source: row.source as DraftAnswer['source'],
    progress: local?.progress ?? (JSON.parse(row.progress) as DraftProgress),
    result,
    error: lost ? 'The server process making this draft stopped before it was done: start the draft again' : row.error,
    applied: row.applied === APPLYING ? null : row.applied,
  };
}

/** A campus draft's reason without the clashes it names ("…: Room X is already booked by …"), which may be another department's. */
function withoutClashDetail(reason: string): string {
  const parts = reason.split('; ').map((part) => part.replace(/: .*$/, ''));
  return `${parts.join('; ')} (where it is, it clashes with another meeting of the campus)`;
}

/**
 * A draft the caller may read, and the part of it they may (a campus draft: the registrar all of
 * it, a department with a part in it that part, under its code). Another department's draft, or a
 * campus draft the department has no part in, is not found: its id says nothing.
 */
async function rowOf(ctx: CoreContext, id: string): Promise<{ row: DraftRow; part?: string }> {
  const row = await draftRow(ctx.db, ctx.department, id);
  if (row && (row.source !== 'campus' || ctx.actor.role === 'registrar')) return { row };
  const campus = row ?? (await campusDraftRow(ctx.db, id));
  if (campus?.source === 'campus') {
    if (ctx.actor.role === 'registrar') return { row: campus };
    const code = (await getDepartment(ctx.db, ctx.department))?.code;
    const parts = campus.draft === null ? [] : (JSON.parse(campus.draft) as CampusDraft).departments;
    if (code !== undefined && parts.some((d) => d.code === code)) return { row: campus, part: code };
  }
  throw DRAFT_NOT_FOUND(id);
}

/** A new draft's row, kept under a new id, after room is made for it (the department's oldest finished drafts go). */
async function newDraft(
  ctx: CoreContext,
  term: Term,
  source: DraftAnswer['source'],
  state: Pick<DraftRow, 'status' | 'progress' | 'draft'>,
): Promise<DraftRow> {
  const at = ctx.now();
  await forgetDrafts(ctx.db, ctx.department, new Date(at.getTime() - DRAFT_BOUNDS.keepMs).toISOString(), DRAFT_BOUNDS.keptPerDepartment - 1);
  const row: DraftRow = {
    id: randomUUID(),
    department_id: ctx.department,
    year: term.year,
    semester: term.semester,
    source,
    ...state,
    error: null,
    applied: null,
    cancel_asked: 0,
    made_at: at.toISOString(),
    heartbeat_at: at.toISOString(),
  };
  await insertDraft(ctx.db, row);
  return row;
}

/** Keeps a draft made at once (POST /scheduler/auto with dry_run), to review and apply by its id; answers the id. */
export async function keepDraft(ctx: CoreContext, draft: TermDraft): Promise<string> {
  const left = draft.unplaced.length;
  const placed = draft.moved.length + draft.placed.length;
  const progress: DraftProgress = { phase: 'optimization', placed, classes: placed + left, hard_left: left, best_total: draft.score.soft.total };
  const row = await newDraft(ctx, draft.term, draft.source, { status: 'done', progress: JSON.stringify(progress), draft: JSON.stringify(draft) });
  return row.id;
}

/**
 * Starts drafting a term in the background; answers its id at once. This process makes it and
 * writes its progress to the store each BEAT_MS, where any process reads it and may ask it to stop.
 */
export async function startDraft(ctx: CoreContext, term: Term, input: TermDraftInput & { source: TermSource }): Promise<DraftAnswer> {
  return startJob(ctx, term, input.source, async (control) => {
    const draft = await draftTermTimetable(ctx, term, input, control);
    return { draft, left: draft.unplaced.length, total: draft.score.soft.total };
  });
}

/**
 * Starts the registrar's campus draft in the background (POST /scheduler/auto/campus/drafts): its
 * progress followed, stopped and applied by id as any draft; each department with a part is told when it is done.
 */
export async function startCampusDraft(ctx: CoreContext, input: CampusDraftInput & Partial<Term>): Promise<DraftAnswer> {
  await checkCampusInput(ctx, input);
  const term = termOf(input, await currentTerm(ctx));
  // The campus has one registrar's draft in the making: a new one stops those still running (each keeps its best so far).
  const since = new Date(ctx.now().getTime() - STALE_MS).toISOString();
  for (const row of await campusDraftRows(ctx.db, since, DRAFT_BOUNDS.keptPerDepartment)) if (row.status === 'running') await stopDraft(ctx, row.id);
  return startJob(
    ctx,
    term,
    'campus',
    async (control) => {
      const draft = await draftCampus(ctx, term, input, control);
      return { draft, left: draft.unplaced.length, total: draft.score.soft.total, done: () => tellDepartments(ctx, draft) };
    },
    { limited: false },
  );
}

/** A background draft's work: made with `control` (progress, cancel), answered with what it left and its penalty. */
type DraftWork = (control: DraftControl) => Promise<{ draft: object; left: number; total: number; done?: () => Promise<void> }>;

/** Runs a draft's work in the background under a new draft id, beating its progress into the store; answers at once. */
async function startJob(ctx: CoreContext, term: Term, source: DraftAnswer['source'], work: DraftWork, options = { limited: true }): Promise<DraftAnswer> {
  const aliveSince = new Date(ctx.now().getTime() - STALE_MS).toISOString();
  if (options.limited && (await countRunning(ctx.db, ctx.department, aliveSince)) >= DRAFT_BOUNDS.runningPerDepartment) {
    throw new CoreError('busy', `${DRAFT_BOUNDS.runningPerDepartment} auto-fill drafts are already running for this department: wait for one or cancel it`);
  }
  const starting: DraftProgress = { phase: 'starting', placed: 0, classes: 0, hard_left: 0, best_total: null };
  const row = await newDraft(ctx, term, source, { status: 'running', progress: JSON.stringify(starting), draft: null });
  const job = { progress: starting, cancel: () => undefined as void, cancelled: false };
  making.set(row.id, job);
  const stop = (): void => {
    if (job.cancelled) return;
    job.cancelled = true;
    job.cancel();
  };
  const beating = setInterval(() => {
    beat(ctx.db, row.id, JSON.stringify(job.progress), ctx.now().toISOString()).then(
      (asked) => {
        if (asked) stop();
      },
      () => undefined, // a busy store misses a beat; the next one tells
    );
  }, BEAT_MS);
  beating.unref();
  const finish = async (end: Pick<DraftRow, 'status' | 'draft' | 'error'>): Promise<void> => {
    clearInterval(beating);
    try {
      await finishDraft(ctx.db, row.id, { ...end, progress: JSON.stringify(job.progress), heartbeat_at: ctx.now().toISOString() });
    } finally {
      making.delete(row.id);
    }
  };
  work({
    onProgress: (p: SearchProgress) => {
      job.progress = {
        phase: p.phase,
        placed: p.placed,
        classes: p.classes,
        hard_left: p.classes - p.placed,
        best_total: p.bestTotal === null ? null : p.bestTotal / 10,
      };
    },
    started: (cancel) => {
      job.cancel = cancel;
      if (job.cancelled) cancel();
    },
  })
    .then(
      async ({ draft, left, total, done }) => {
        job.progress = { ...job.progress, placed: Math.max(0, job.progress.classes - left), hard_left: left, best_total: total };
        await finish({ status: job.cancelled ? 'cancelled' : 'done', draft: JSON.stringify(draft), error: null });
        await done?.();
      },
      (error: unknown) => {
        if (!(error instanceof CoreError)) console.error(error);
        return finish({
          status: 'failed',
          draft: null,
          error: error instanceof CoreError ? error.message : 'The draft could not be made (a fault of Termwise; it is logged)',
        });
      },
    )
    .catch((error: unknown) => console.error(error));
  return answer(row, ctx.now().getTime());
}

/** A draft as it stands: running with its progress, or stopped with its result. */
export async function draftState(ctx: CoreContext, id: string): Promise<DraftAnswer> {
  const { row, part } = await rowOf(ctx, id);
  return answer(row, ctx.now().getTime(), part);
}

/** A campus draft as listed: its term, when it was made, whether it was applied, and its departments' parts (the caller's own, for a department). */
export interface CampusDraftListed {
  draft_id: string;
  year: number;
  semester: Term['semester'];
  made_at: string;
  applied: boolean;
  rebuild: boolean;
  departments: CampusDraft['departments'];
}

/**
 * The campus auto-fill drafts kept (an hour): the registrar's all, each department's those it has a
 * part in (its own part only), for a term when one is named.
 */
export async function listCampusDrafts(ctx: CoreContext, term: Partial<Term>): Promise<CampusDraftListed[]> {
  const since = new Date(ctx.now().getTime() - DRAFT_BOUNDS.keepMs).toISOString();
  const code = ctx.actor.role === 'registrar' ? undefined : (await getDepartment(ctx.db, ctx.department))?.code;
  const listed: CampusDraftListed[] = [];
  for (const row of await campusDraftRows(ctx.db, since, DRAFT_BOUNDS.keptPerDepartment)) {
    if (row.draft === null || (term.year !== undefined && row.year !== term.year) || (term.semester !== undefined && row.semester !== term.semester)) continue;
    const draft = JSON.parse(row.draft) as CampusDraft;
    const parts = code === undefined ? draft.departments : draft.departments.filter((d) => d.code === code);
    if (parts.length === 0) continue;
    listed.push({
      draft_id: row.id,
      year: row.year,
      semester: row.semester as Term['semester'],
      made_at: row.made_at,
      applied: row.applied !== null && row.applied !== APPLYING,
      rebuild: draft.rebuild,
      departments: parts,
    });
  }
  return listed;
}

/** Tells each department with a part in a campus draft, so its Scheduler offers the part to review. */
async function tellDepartments(ctx: CoreContext, draft: CampusDraft): Promise<void> {
  const codes = new Set(draft.departments.map((d) => d.code));
  for (const d of await listDepartments(ctx.db)) if (codes.has(d.code)) ctx.events.emit({ type: 'changed', areas: ['timetable'], department: d.id });
}

/** Keeps a campus draft (POST /scheduler/auto/campus with dry_run) under the registrar's department; answers its id. */
export async function keepCampusDraft(ctx: CoreContext, draft: CampusDraft): Promise<string> {
  const left = draft.unplaced.length;
  const placed = draft.departments.reduce((sum, d) => sum + d.placed, 0);
  const progress: DraftProgress = { phase: 'optimization', placed, classes: placed + left, hard_left: left, best_total: draft.score.soft.total };
  const row = await newDraft(ctx, draft.term, 'campus', { status: 'done', progress: JSON.stringify(progress), draft: JSON.stringify(draft) });
  await tellDepartments(ctx, draft);
  return row.id;
}

/** Asks a running draft to stop, whichever process makes it (at once when this one does). */
async function stopDraft(ctx: CoreContext, id: string): Promise<void> {
  await askToStop(ctx.db, id);
  const local = making.get(id);
  if (local && !local.cancelled) {
    local.cancelled = true;
    local.cancel();
  }
}

/** Stops a running draft, whichever process makes it: the best draft so far is its result. */
export async function cancelDraft(ctx: CoreContext, id: string): Promise<DraftAnswer> {
  const { row, part } = await rowOf(ctx, id);
  if (part !== undefined) throw forbidden('Only the registrar stops a campus auto-fill draft');
  if (row.status === 'running') await stopDraft(ctx, id);
  return answer(row, ctx.now().getTime(), part);
}

/**
 * Stores a finished draft, all or nothing (see applyTermDraft); `sections` keeps only those
 * meetings (by id) and sections without a time (by id) of it. A draft is applied once, whichever
 * process is asked, however many ask at once.
 */
export async function applyDraft(
  ctx: CoreContext,
  id: string,
  only?: { meetings?: readonly number[] | undefined; sections?: readonly number[] | undefined; departments?: readonly string[] | undefined },
): Promise<DraftAnswer> {
  const { row, part } = await rowOf(ctx, id);
  if (part !== undefined)
    throw forbidden('Only the registrar applies a campus auto-fill draft: each department reviews its part, and the registrar applies it');
  if (row.source === 'campus') return applyCampusDraft(ctx, row, only?.departments);
  if (only?.departments !== undefined) throw fieldError('departments', "is for a campus auto-fill draft; this draft is one department's");
  if (row.status === 'running' && making.has(id))
    throw new CoreError('invalid', 'This draft is still being made: wait for it or cancel it (the best draft so far is kept), then apply');
  if (row.applied !== null) throw new CoreError('invalid', 'This draft was applied already');
  if (row.draft === null) {
    const state = answer(row, ctx.now().getTime());
    if (state.status === 'running')
      throw new CoreError('invalid', 'This draft is still being made: wait for it or cancel it (the best draft so far is kept), then apply');
    throw new CoreError('invalid', `This draft has nothing to apply: ${state.error ?? 'it failed'}`);
  }
  if (!(await claimToApply(ctx.db, id))) throw new CoreError('invalid', 'This draft was applied already');
  const draft = JSON.parse(row.draft) as TermDraft;
  const meetings = only?.meetings === undefined ? null : new Set(only.meetings);
  const sections = only?.sections === undefined ? null : new Set(only.sections);
  const chosen = {
    ...draft,
    moved: draft.moved.filter((m) => meetings === null || meetings.has(m.id)),
    placed: draft.placed.filter((p) => sections === null || sections.has(p.id)),
  };
  let done: Awaited<ReturnType<typeof applyTermDraft>>;
  try {
    done = await applyTermDraft(ctx, chosen);
  } catch (error) {
    await settleApply(ctx.db, id, null);
    throw error;
  }
  await settleApply(ctx.db, id, done.count);
  const state = answer({ ...row, applied: done.count }, ctx.now().getTime());
  // What was applied, each placed section with its stored meeting's id (a script goes on from those).
  const made = state.result as Omit<TermDraft, 'basis' | 'term' | 'source'> | null;
  return made === null ? state : { ...state, result: { ...made, moved: chosen.moved, placed: placedAsStored(chosen.placed, done.stored) } };
}

/** Stores a campus draft, whole or the chosen departments' part, once (see applyDraft). */
async function applyCampusDraft(ctx: CoreContext, row: DraftRow, departments: readonly string[] | undefined): Promise<DraftAnswer> {
  if (row.applied !== null) throw new CoreError('invalid', 'This draft was applied already');
  if (row.draft === null) {
    if (answer(row, ctx.now().getTime()).status === 'running')
      throw new CoreError('invalid', 'This draft is still being made: wait for it or cancel it (the best draft so far is kept), then apply');
    throw new CoreError('invalid', `This draft has nothing to apply: ${row.error ?? 'it failed'}`);
  }
  const chosen = campusPart(JSON.parse(row.draft) as CampusDraft, departments);
  if (!(await claimToApply(ctx.db, row.id))) throw new CoreError('invalid', 'This draft was applied already');
  let count: number;
  try {
    count = await storeCampus(ctx, chosen, departments);
  } catch (error) {
    await settleApply(ctx.db, row.id, null);
    throw error;
  }
  await settleApply(ctx.db, row.id, count);
  const state = answer({ ...row, applied: count }, ctx.now().getTime());
  const { basis: _basis, term: _term, ...applied } = chosen;
  return { ...state, result: applied };
}
