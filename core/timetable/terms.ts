import type { CoreContext } from '../context';
import { CoreError, fieldError, notFound } from '../domain/errors';
import { nextPlannedTerm, SEMESTERS, termLabel, termOn, type Term } from '../domain/terms';
import { WHOLE_TERM, WHOLE_TERM_CODE, type PartOfTerm } from '../domain/parts';
import { latestPlannedTerm } from '../offerings/repo';
import { readSetting, readSettings, writeSetting } from '../db/settings';
import { inTransaction } from '../db/transactions';
import { takeLocks } from '../db/locks';
import { termLocks, timetableLock } from './locks';
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
  return typeof year === 'number' && Number.isInteger(year) && SEMESTERS.includes(semester as Term['semester'])
    ? { year, semester: semester as Term['semester'] }
    : null;
}

/** Until one is chosen: the term after the latest Fall/Spring offering record, else the term running today. */
async function defaultTerm(ctx: CoreContext): Promise<Term> {
  const latest = await latestPlannedTerm(ctx.db, ctx.department);
  return latest ? nextPlannedTerm(latest) : termOn(ctx.now());
}

/** The travel time an instructor needs between campuses (minutes), as every conflict check reads it. */
export async function travelMinutes(ctx: CoreContext): Promise<number> {
  return storedTravel(await readSetting(ctx.db, ctx.department, TRAVEL_MINUTES));
}

function storedTravel(travel: unknown): number {
  return typeof travel === 'number' && Number.isInteger(travel) && travel >= 0 && travel <= MAX_TRAVEL_MINUTES ? travel : DEFAULT_TRAVEL_MINUTES;
}

export async function timetableSettings(ctx: CoreContext): Promise<TimetableSettings> {
  const stored = await readSettings(ctx.db, ctx.department, [CURRENT_TERM, TRAVEL_MINUTES]);
  const chosen = storedTerm(stored.get(CURRENT_TERM));
  return { current_term: chosen ?? (await defaultTerm(ctx)), current_term_chosen: chosen !== null, travel_minutes: storedTravel(stored.get(TRAVEL_MINUTES)) };
}

export async function currentTerm(ctx: CoreContext): Promise<Term> {
  return (await timetableSettings(ctx)).current_term;
}

/**
 * The term a write goes to: the given one, else the current term. Until a term is chosen, the first
 * write keeps the current term (the one every screen shows by default) as chosen, whichever term it
 * names: the view stays where the work began, and new offering records never move it.
 */
export async function termForWrite(ctx: CoreContext, given: Partial<Term>): Promise<Term> {
  return (await writeSettings(ctx, given)).term;
}

/** What a meeting's write needs of the settings: the term it goes to and the travel time the rules check. */
export interface WriteSettings {
  term: Term;
  travelMinutes: number;
  /** The stored values they come from, to be compared again under the write's locks (see sameWriteSettings). */
  stored: ReadonlyMap<string, unknown>;
}

/** The settings a meeting's write reads. */
export const WRITE_SETTING_KEYS = [CURRENT_TERM, TRAVEL_MINUTES] as const;

/** The settings a meeting's write last read, per process and department (see keptWriteSettings). */
const kept = new WeakMap<CoreContext['events'], Map<number, ReadonlyMap<string, unknown>>>();
/** Departments whose settings a process keeps at most. */
const MAX_KEPT = 500;

/**
 * What a meeting's write needs of the settings, in one read: the term it goes to (see
 * termForWrite) and the travel time between campuses the rules check.
 */
export async function writeSettings(ctx: CoreContext, given: Partial<Term>): Promise<WriteSettings> {
  const stored = await readSettings(ctx.db, ctx.department, WRITE_SETTING_KEYS);
  const known = settingsFor(given, stored);
  if (known) return known;
  const current = await defaultTerm(ctx);
  await writeSetting(ctx.db, ctx.department, CURRENT_TERM, current);
  return {
    term: termOf(given, null) ?? current,
    travelMinutes: storedTravel(stored.get(TRAVEL_MINUTES)),
    stored: new Map([...stored, [CURRENT_TERM, current]]),
  };
}

/** The settings of a write once a current term is chosen; null until then (the write keeps one: writeSettings). */
function settingsFor(given: Partial<Term>, stored: ReadonlyMap<string, unknown>): WriteSettings | null {
  const chosen = storedTerm(stored.get(CURRENT_TERM));
  if (chosen === null) return null;
  return { term: termOf(given, null) ?? chosen, travelMinutes: storedTravel(stored.get(TRAVEL_MINUTES)), stored };
}

/**
 * writeSettings as this process last read them for the department, without reading: a single
 * meeting's write takes its locks first, and reads the settings again with what it checks under
 * them. When they differ (another write changed them meanwhile), it forgets these and starts again.
 */
export async function keptWriteSettings(ctx: CoreContext, given: Partial<Term>): Promise<WriteSettings> {
  const department = kept.get(ctx.events)?.get(ctx.department);
  const known = department && settingsFor(given, department);
  if (known) return known;
  const read = await writeSettings(ctx, given);
  keepWriteSettings(ctx, read.stored);
  return read;
}

/** Whether the settings read under a write's locks are those it started with; if not, the new ones are kept. */
export function sameWriteSettings(ctx: CoreContext, started: WriteSettings, read: ReadonlyMap<string, unknown>): boolean {
  const same = WRITE_SETTING_KEYS.every((key) => JSON.stringify(started.stored.get(key)) === JSON.stringify(read.get(key)));
  if (!same) keepWriteSettings(ctx, read);
  return same;
}

function keepWriteSettings(ctx: CoreContext, stored: ReadonlyMap<string, unknown>): void {
  let departments = kept.get(ctx.events);
  if (!departments) kept.set(ctx.events, (departments = new Map<number, ReadonlyMap<string, unknown>>()));
  if (departments.size >= MAX_KEPT) departments.clear();
  departments.set(ctx.department, stored);
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

/** The term a request names, else the current term. */
export async function termAsked(ctx: CoreContext, given: Partial<Term>): Promise<Term> {
  return termOf(given, null) ?? currentTerm(ctx);
}

/** Entries from before terms existed join the current term (which is then kept), on start-up. */
export async function settleTimetable(ctx: CoreContext): Promise<void> {
  if (!(await hasUntermedEntries(ctx.db))) return;
  await inTransaction(ctx.db, async (db) => {
    await takeLocks(db, timetableLock());
    await settleUntermedEntries(db, await termForWrite({ ...ctx, db }, {}), ctx.campuses.fallback);
  });
}

/** A term's parts of term (the current term unless named): the whole term (unless redefined) and the stored ones. */
export async function partsOf(ctx: CoreContext, asked: Partial<Term>): Promise<PartOfTerm[]> {
  const stored = await termParts(ctx.db, ctx.department, await termAsked(ctx, asked));
  return stored.some((p) => p.code === WHOLE_TERM_CODE) ? stored : [WHOLE_TERM, ...stored];
}

export async function partsByCode(ctx: CoreContext, term: Term): Promise<Map<string, PartOfTerm>> {
  return partsMap(await termParts(ctx.db, ctx.department, term));
}

/** A department's stored parts of a term by code, with the whole term unless redefined. */
export function partsMap(stored: readonly PartOfTerm[]): Map<string, PartOfTerm> {
  const parts = stored.some((p) => p.code === WHOLE_TERM_CODE) ? stored : [WHOLE_TERM, ...stored];
  return new Map(parts.map((p) => [p.code, p]));
}

/** The part of term a write names, refusing (422) a code the term does not have. */
export function requirePart(parts: ReadonlyMap<string, PartOfTerm>, code: string, term: Term): PartOfTerm {
  const part = parts.get(code);
  if (part) return part;
  const message = `"${code}" is not a part of term of ${termLabel(term)}; known: ${[...parts.keys()].join(', ')} (add one with POST /scheduler/parts)`;
  throw fieldError('part_of_term', message);
}

/** Removes a part of term (the current term's unless named) no meeting uses. */
export async function removePart(ctx: CoreContext, asked: Partial<Term>, code: string): Promise<{ status: 'deleted' }> {
  const term = await termAsked(ctx, asked);
  return inTransaction(ctx.db, async (db) => {
    // No meeting may join the part while it goes.
    await takeLocks(db, termLocks([term]));
    const used = await entriesInPart(db, ctx.department, term, code);
    if (used > 0)
      throw new CoreError(
        'conflict',
        `Part of term ${code} of ${termLabel(term)} is used by ${used} meeting${used === 1 ? '' : 's'}; move them to another part first`,
      );
    if (!(await deletePart(db, ctx.department, term, code))) throw notFound(`${termLabel(term)} has no stored part of term ${code}`);
    return { status: 'deleted' as const };
  });
}

export async function timetableTerms(ctx: CoreContext): Promise<{ current: Term; terms: (Term & { entries: number })[] }> {
  // Independent reads at once (a server store answers them on two connections).
  const [current, terms] = await Promise.all([currentTerm(ctx), termsWithEntries(ctx.db, ctx.department)]);
  return { current, terms };
}
