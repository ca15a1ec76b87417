import type { CoreContext } from '../context';
import { CoreError, fieldError } from '../domain/errors';
import type { Semester } from '../domain/terms';
import { storeCampusDraft, currentTerm, termOf } from '../timetable';
import { campusBasis } from './campus-reading';
import { draftCampus, type CampusDraft, type CampusDraftInput } from './campus-draft';

/**
 * The registrar's auto-fill of the whole campus (POST /scheduler/auto/campus): drafted in one
 * search, kept to review (dry run) or stored at once; a kept draft is applied whole or for chosen
 * departments (POST /scheduler/auto/{draft_id}/apply), through one transaction.
 */

export interface CampusAutofillInput extends CampusDraftInput {
  year?: number | undefined;
  semester?: Semester | undefined;
  dry_run: boolean;
}

export interface CampusAutofillResult extends Omit<CampusDraft, 'basis' | 'term'> {
  year: number;
  semester: Semester;
  /** A dry run's draft, kept an hour to review and apply; null once stored. */
  draft_id: string | null;
  /** Meetings changed (moved or left without a time); 0 on a dry run. */
  stored: number;
  duration_ms: number;
  dry_run: boolean;
}

/** The part of a campus draft for chosen departments (by code; all when none are given). */
export function campusPart(draft: CampusDraft, codes: readonly string[] | undefined): CampusDraft {
  if (codes === undefined) return draft;
  const known = new Set(draft.departments.map((d) => d.code.toLowerCase()));
  const unknown = codes.filter((c) => !known.has(c.toLowerCase()));
  if (unknown.length > 0)
    throw fieldError('departments', `${unknown.map((c) => `"${c}"`).join(', ')} ${unknown.length === 1 ? 'has' : 'have'} no part in this draft`);
  const chosen = new Set(codes.map((c) => c.toLowerCase()));
  const mine = (d: { department?: string; code?: string }): boolean => chosen.has((d.department ?? d.code ?? '').toLowerCase());
  return { ...draft, departments: draft.departments.filter(mine), moved: draft.moved.filter(mine), unplaced: draft.unplaced.filter(mine) };
}

/**
 * Stores a campus draft (or the chosen departments' part of it), all or nothing; answers the
 * meetings changed. Each department's open screens are told.
 */
export async function storeCampus(ctx: CoreContext, draft: CampusDraft, part?: readonly string[]): Promise<number> {
  const changed = await storeCampusDraft(ctx, {
    term: draft.term,
    moved: draft.moved,
    madeUntimed: draft.unplaced.map((u) => u.id),
    operation: 'campus-autofill',
    what:
      part === undefined
        ? 'Applying the campus auto-fill draft'
        : `Applying ${part.join(', ')}'s part of the campus auto-fill draft without the other departments' parts (their meetings are where the draft did not expect them)`,
    checkBasis: (rows, locked) => {
      if (campusBasis(rows, locked) !== draft.basis)
        throw new CoreError(
          'conflict',
          'The campus timetable has changed since this draft was made (a meeting, an instructor, a room or a lock, in some department), so nothing was stored: run the campus auto-fill again',
        );
    },
  });
  for (const department of changed.keys()) ctx.events.emit({ type: 'changed', areas: ['timetable'], department });
  return [...changed.values()].reduce((sum, n) => sum + n, 0);
}

/** Drafts the campus's term (the current term unless named); keeps it to review (dry run) or stores it. */
export async function autofillCampus(
  ctx: CoreContext,
  input: CampusAutofillInput,
  keep: (ctx: CoreContext, draft: CampusDraft) => Promise<string>,
): Promise<CampusAutofillResult> {
  const started = performance.now();
  const term = termOf(input, await currentTerm(ctx));
  const draft = await draftCampus(ctx, term, input);
  const stored = input.dry_run ? 0 : await storeCampus(ctx, draft);
  const { basis: _basis, term: _term, ...answer } = draft;
  return {
    ...answer,
    year: term.year,
    semester: term.semester,
    draft_id: input.dry_run ? await keep(ctx, draft) : null,
    stored,
    duration_ms: Math.round(performance.now() - started),
    dry_run: input.dry_run,
  };
}
