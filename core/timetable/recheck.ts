import type { CoreContext } from '../context';
import { CoreError } from '../domain/errors';
import type { Term } from '../domain/terms';
import { listDoctors } from '../faculty/repo';
import type { Booking, ConflictRules, DoctorAvailability } from './conflicts';
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

/** A clash among a term's meetings, keyed once per pair (or per meeting, for availability): its words and the meetings' ids. */
export interface TermClash {
  detail: string;
  ids: number[];
}

/**
 * Each clash of `own` meetings, with each other and with `taken` ones (other departments', each with
 * its own department's parts of term), once per pair (or per meeting, for availability): key → clash.
 * Pure: the same rules as every write, on a term as it stands or as a draft would leave it.
 */
export function termClashes(
  own: readonly Booking[],
  taken: readonly Booking[],
  doctors: ReadonlyMap<number, DoctorAvailability>,
  rules: ConflictRules,
): Map<string, TermClash> {
  const book = new TermBook(rules, new ComparisonBudget(COMPARISONS, 'The timetable'));
  for (const booking of taken) book.add(booking);
  const found = new Map<string, TermClash>();
  for (const booking of own) {
    const id = booking.id ?? 0;
    const teaching = booking.doctor_ids.map((d) => doctors.get(d)).filter((d): d is DoctorAvailability => d !== undefined);
    for (const clash of book.clashes(booking, teaching, Number.POSITIVE_INFINITY)) {
      const other = clash.with?.id ?? null;
      found.set(other === null ? `${id}` : `${Math.min(id, other)}|${Math.max(id, other)}`, { detail: clash.detail, ids: other === null ? [id] : [id, other] });
    }
    book.add(booking);
  }
  return found;
}

/** The clashes of the department's stored meetings in a term, with every department's meetings there. */
async function storedClashes(ctx: CoreContext, term: Term, doctors: ReadonlyMap<number, DoctorAvailability>): Promise<Map<string, TermClash>> {
  const { ownBookings, taken } = await campusTerm(ctx, term);
  return termClashes(ownBookings, taken, doctors, { travelMinutes: await travelMinutes(ctx) });
}

async function clashesOfTerms(ctx: CoreContext, terms: readonly Term[]): Promise<Map<string, string>> {
  const doctors = new Map((await listDoctors(ctx.db, ctx.department)).map((d) => [d.id, d]));
  const all = new Map<string, string>();
  for (const term of terms) for (const [key, clash] of await storedClashes(ctx, term, doctors)) all.set(`${term.year}|${term.semester}|${key}`, clash.detail);
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
    throw new CoreError(
      'conflict',
      `${what} would break the timetable's rules, so nothing was changed: ${named}${more}. Move or change those meetings first.`,
      { conflicts: added.slice(0, 50) },
    );
  }
  return result;
}
