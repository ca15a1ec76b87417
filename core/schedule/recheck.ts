import type { CoreContext } from '../context';
import { CoreError } from '../domain/errors';
import type { Term } from '../domain/terms';
import { listDoctors } from '../faculty/repo';
import type { DoctorAvailability } from './conflicts';
import { bookingOf, listEntries, termsWithEntries } from './repo';
import { partsByCode, travelMinutes } from './terms';
import { ComparisonBudget, TermBook } from './term-book';

/**
 * Changes that move meetings in time without touching them — a part of term's dates, the travel
 * time between campuses, an instructor's availability — pass the same rules as a write: the
 * stored meetings are checked before and after, and a change that makes any two of them clash
 * (or puts one outside its instructor's hours) is refused in words, changing nothing.
 */

/** Clashes named in a refusal; the rest are counted. */
const NAMED = 5;
/** Meetings a term's check may compare in all (far above any real term). */
const COMPARISONS = 20_000_000;

/** Each clash among a term's stored meetings, once per pair (or per meeting, for availability): key → words. */
function termClashes(ctx: CoreContext, term: Term, doctors: ReadonlyMap<number, DoctorAvailability>): Map<string, string> {
  const parts = partsByCode(ctx, term);
  const book = new TermBook({ travelMinutes: travelMinutes(ctx) }, new ComparisonBudget(COMPARISONS, 'The timetable'));
  const found = new Map<string, string>();
  for (const row of listEntries(ctx.db, term)) {
    const booking = bookingOf(row, parts);
    const teaching = booking.doctor_ids.map((id) => doctors.get(id)).filter((d): d is DoctorAvailability => d !== undefined);
    for (const clash of book.clashes(booking, teaching, Number.POSITIVE_INFINITY)) {
      found.set(clash.with === null ? `${row.id}` : `${Math.min(row.id, clash.with.id ?? 0)}|${Math.max(row.id, clash.with.id ?? 0)}`, clash.detail);
    }
    book.add(booking);
  }
  return found;
}

function clashesOfTerms(ctx: CoreContext, terms: readonly Term[]): Map<string, string> {
  const doctors = new Map(listDoctors(ctx.db).map((d) => [d.id, d]));
  const all = new Map<string, string>();
  for (const term of terms) for (const [key, detail] of termClashes(ctx, term, doctors)) all.set(`${term.year}|${term.semester}|${key}`, detail);
  return all;
}

/**
 * Runs `change` (inside the caller's transaction) and refuses it when the stored meetings of
 * `terms` (every term with a timetable when omitted) clash where they did not before.
 * `what` names the change for the message ("Moving part of term S1 to …").
 */
export function withoutNewClashes<T>(ctx: CoreContext, what: string, change: () => T, terms?: readonly Term[]): T {
  const checked = terms ?? termsWithEntries(ctx.db);
  const before = clashesOfTerms(ctx, checked);
  const result = change();
  const added = [...clashesOfTerms(ctx, checked)].filter(([key]) => !before.has(key)).map(([, detail]) => detail);
  if (added.length > 0) {
    const named = added.slice(0, NAMED).join('; ');
    const more = added.length > NAMED ? `; and ${added.length - NAMED} more` : '';
    throw new CoreError('conflict', `${what} would break the timetable's rules, so nothing was changed: ${named}${more}. Move or change those meetings first.`, { conflicts: added.slice(0, 50) });
  }
  return result;
}
