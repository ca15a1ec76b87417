import type { CoreContext } from '../context';
import { CoreError } from '../domain/errors';
import type { Term } from '../domain/terms';
import { listDoctors } from '../faculty/repo';
import type { DoctorAvailability } from './conflicts';
import { termsWithEntries } from './repo';
import { travelMinutes } from './terms';
import { campusTerm } from './term-bookings';
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

/**
 * Each clash of the department's stored meetings in a term, once per pair (or per meeting, for
 * availability): key → words. The other departments' meetings of the term are in the book too (a
 * room or an instructor they share can clash with the department's meetings), each with its own
 * department's parts of term.
 */
async function termClashes(ctx: CoreContext, term: Term, doctors: ReadonlyMap<number, DoctorAvailability>): Promise<Map<string, string>> {
  const { ownBookings, taken } = await campusTerm(ctx, term);
  const book = new TermBook({ travelMinutes: await travelMinutes(ctx) }, new ComparisonBudget(COMPARISONS, 'The timetable'));
  for (const booking of taken) book.add(booking);
  const found = new Map<string, string>();
  for (const booking of ownBookings) {
    const id = booking.id ?? 0;
    const teaching = booking.doctor_ids.map((d) => doctors.get(d)).filter((d): d is DoctorAvailability => d !== undefined);
    for (const clash of book.clashes(booking, teaching, Number.POSITIVE_INFINITY)) {
      found.set(clash.with === null ? `${id}` : `${Math.min(id, clash.with.id ?? 0)}|${Math.max(id, clash.with.id ?? 0)}`, clash.detail);
    }
    book.add(booking);
  }
  return found;
}

async function clashesOfTerms(ctx: CoreContext, terms: readonly Term[]): Promise<Map<string, string>> {
  const doctors = new Map((await listDoctors(ctx.db, ctx.department)).map((d) => [d.id, d]));
  const all = new Map<string, string>();
  for (const term of terms) for (const [key, detail] of await termClashes(ctx, term, doctors)) all.set(`${term.year}|${term.semester}|${key}`, detail);
  return all;
}

/**
 * Runs `change` (inside the caller's transaction) and refuses it when the stored meetings of
 * `terms` (every term with a timetable when omitted) clash where they did not before.
 * `what` names the change for the message ("Moving part of term S1 to …").
 */
export async function withoutNewClashes<T>(ctx: CoreContext, what: string, change: () => Promise<T>, terms?: readonly Term[]): Promise<T> {
  const checked = terms ?? (await termsWithEntries(ctx.db, ctx.department));
  const before = await clashesOfTerms(ctx, checked);
  const result = await change();
  const added = [...(await clashesOfTerms(ctx, checked))].filter(([key]) => !before.has(key)).map(([, detail]) => detail);
  if (added.length > 0) {
    const named = added.slice(0, NAMED).join('; ');
    const more = added.length > NAMED ? `; and ${added.length - NAMED} more` : '';
    throw new CoreError('conflict', `${what} would break the timetable's rules, so nothing was changed: ${named}${more}. Move or change those meetings first.`, { conflicts: added.slice(0, 50) });
  }
  return result;
}
