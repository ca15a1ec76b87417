import type { CoreContext } from '../context';
import { CoreError, fieldError, notFound } from '../domain/errors';
import { nextPlannedTerm, SEMESTERS, termLabel, termOn, type Term } from '../domain/terms';
import { WHOLE_TERM, WHOLE_TERM_CODE, type PartOfTerm } from '../domain/parts';
import { latestPlannedTerm } from '../offerings/repo';
import { readSetting, writeSetting } from '../system/settings-repo';
import { deletePart, entriesInPart, hasUntermedEntries, settleUntermedEntries, termParts, termsWithEntries } from './repo';

/** The timetable's settings: the term shown and written by default, and the travel time between campuses. */
export interface TimetableSettings {
  current_term: Term;
  /** Whether the current term was chosen (true) or follows the offering history (false). */
  current_term_chosen: boolean;
  travel_minutes: number;
}

export const DEFAULT_TRAVEL_MINUTES = 60;
export const MAX_TRAVEL_MINUTES = 600;
export const CURRENT_TERM = 'timetable.current_term';
export const TRAVEL_MINUTES = 'timetable.travel_minutes';

function storedTerm(value: unknown): Term | null {
  if (!value || typeof value !== 'object') return null;
  const { year, semester } = value as { year?: unknown; semester?: unknown };
  return typeof year === 'number' && Number.isInteger(year) && SEMESTERS.includes(semester as Term['semester']) ? { year, semester: semester as Term['semester'] } : null;
}

/** Until one is chosen: the term after the latest Fall/Spring offering record, else the term running today. */
function defaultTerm(ctx: CoreContext): Term {
  const latest = latestPlannedTerm(ctx.db);
  return latest ? nextPlannedTerm(latest) : termOn(ctx.now());
}

/** The travel time an instructor needs between campuses (minutes), as every conflict check reads it. */
export function travelMinutes(ctx: CoreContext): number {
  const travel = readSetting(ctx.db, TRAVEL_MINUTES);
  return typeof travel === 'number' && Number.isInteger(travel) && travel >= 0 && travel <= MAX_TRAVEL_MINUTES ? travel : DEFAULT_TRAVEL_MINUTES;
}

export function timetableSettings(ctx: CoreContext): TimetableSettings {
  const chosen = storedTerm(readSetting(ctx.db, CURRENT_TERM));
  return { current_term: chosen ?? defaultTerm(ctx), current_term_chosen: chosen !== null, travel_minutes: travelMinutes(ctx) };
}

export function currentTerm(ctx: CoreContext): Term {
  return timetableSettings(ctx).current_term;
}

/**
 * The term a write goes to: the given one, else the current term — which is then kept as chosen, so
 * that new offering records never move the default view away from what was just written.
 */
export function termForWrite(ctx: CoreContext, given: Partial<Term>): Term {
  const term = termOf(given, null);
  if (term) return term;
  const settings = timetableSettings(ctx);
  if (!settings.current_term_chosen) writeSetting(ctx.db, CURRENT_TERM, settings.current_term);
  return settings.current_term;
}

/** The term a request names (year and semester together), else `fallback`. */
export function termOf<F extends Term | null>(given: Partial<Term>, fallback: F): Term | F {
  if (given.year === undefined && given.semester === undefined) return fallback;
  if (given.year === undefined || given.semester === undefined) {
    const field = given.year === undefined ? 'year' : 'semester';
    const message = 'give both year and semester, or neither for the current term';
    throw fieldError(field, message);
  }
  return { year: given.year, semester: given.semester };
}

/** Entries from before terms existed join the current term (which is then kept), on start-up. */
export function settleTimetable(ctx: CoreContext): void {
  if (!hasUntermedEntries(ctx.db)) return;
  ctx.db.transaction(() => settleUntermedEntries(ctx.db, termForWrite(ctx, {}), ctx.campuses.fallback))();
}

/** A term's parts of term: the whole term (unless redefined) and the stored ones. */
export function partsOf(ctx: CoreContext, term: Term): PartOfTerm[] {
  const stored = termParts(ctx.db, term);
  return stored.some((p) => p.code === WHOLE_TERM_CODE) ? stored : [WHOLE_TERM, ...stored];
}

export function partsByCode(ctx: CoreContext, term: Term): Map<string, PartOfTerm> {
  return new Map(partsOf(ctx, term).map((p) => [p.code, p]));
}

/** The part of term a write names, refusing (422) a code the term does not have. */
export function requirePart(parts: ReadonlyMap<string, PartOfTerm>, code: string, term: Term): PartOfTerm {
  const part = parts.get(code);
  if (part) return part;
  const message = `"${code}" is not a part of term of ${termLabel(term)}; known: ${[...parts.keys()].join(', ')} (add one with POST /scheduler/parts)`;
  throw fieldError('part_of_term', message);
}

export function removePart(ctx: CoreContext, term: Term, code: string): { status: 'deleted' } {
  return ctx.db
    .transaction(() => {
      const used = entriesInPart(ctx.db, term, code);
      if (used > 0) throw new CoreError('conflict', `Part of term ${code} of ${termLabel(term)} is used by ${used} meeting${used === 1 ? '' : 's'}; move them to another part first`);
      if (!deletePart(ctx.db, term, code)) throw notFound(`${termLabel(term)} has no stored part of term ${code}`);
      return { status: 'deleted' as const };
    })
    .immediate();
}

export function timetableTerms(ctx: CoreContext): { current: Term; terms: (Term & { entries: number })[] } {
  return { current: currentTerm(ctx), terms: termsWithEntries(ctx.db) };
}
