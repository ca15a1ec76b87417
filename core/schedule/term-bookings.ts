import type { CoreContext } from '../context';
import type { Term } from '../domain/terms';
import type { PartOfTerm } from '../domain/parts';
import type { Booking } from './conflicts';
import { bookingOf, departmentsParts, listEntries, type EntryRow } from './repo';
import { partsMap } from './terms';
import { showAsTheCallerMay } from './other-departments';

/**
 * A term as the rules see it from one department: its own meetings, and every other department's
 * (rooms are shared and an instructor has one calendar), each dated by its own department's parts
 * of term and named as the caller may see it.
 */
export interface CampusTerm {
  /** The department's own meetings. */
  own: EntryRow[];
  /** Its own meetings' bookings, in the order of `own`. */
  ownBookings: Booking[];
  /** The other departments' bookings: taken. */
  taken: Booking[];
}

export async function campusTerm(ctx: CoreContext, term: Term): Promise<CampusTerm> {
  const rows = await listEntries(ctx.db, null, term);
  const departments = [...new Set(rows.map((r) => r.department_id))];
  const parts = new Map([...(await departmentsParts(ctx.db, departments, term))].map(([department, list]) => [department, partsMap(list)]));
  const own: EntryRow[] = [];
  const ownBookings: Booking[] = [];
  const taken: Booking[] = [];
  for (const row of rows) {
    const booking = bookingOf(row, parts.get(row.department_id) ?? new Map<string, PartOfTerm>());
    if (row.department_id === ctx.department) {
      own.push(row);
      ownBookings.push(booking);
    } else taken.push(booking);
  }
  await showAsTheCallerMay(ctx, taken);
  return { own, ownBookings, taken };
}
