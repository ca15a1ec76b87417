import type { CoreContext } from '../context';
import type { Term } from '../domain/terms';
import type { PartOfTerm } from '../domain/parts';
import type { Booking, DoctorAvailability } from './conflicts';
import { listDoctors } from '../faculty/repo';
import { bookingOf, departmentsParts, listEntries, type EntryRow } from './repo';
import { partsMap, travelMinutes } from './terms';
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

/**
 * A term of the whole campus as the rules see it, every department alike (the registrar's campus
 * auto-fill and its apply): every meeting and its booking, each department's instructors once (one
 * person teaches in one place at a time), and the longest travel time any department set.
 */
export interface WholeCampusTerm {
  rows: EntryRow[];
  /** In the order of `rows`. */
  bookings: Booking[];
  doctors: Map<number, DoctorAvailability>;
  travelMinutes: number;
}

export async function wholeCampusTerm(ctx: CoreContext, term: Term): Promise<WholeCampusTerm> {
  const rows = await listEntries(ctx.db, null, term);
  const departments = [...new Set(rows.map((r) => r.department_id))];
  const parts = new Map([...(await departmentsParts(ctx.db, departments, term))].map(([department, list]) => [department, partsMap(list)]));
  const doctors = new Map<number, DoctorAvailability>();
  let travel = 0;
  for (const department of departments) {
    for (const d of await listDoctors(ctx.db, department)) doctors.set(d.id, d);
    travel = Math.max(travel, await travelMinutes({ ...ctx, department }));
  }
  const bookings = rows.map((row) => bookingOf(row, parts.get(row.department_id) ?? partsMap([])));
  return { rows, bookings, doctors, travelMinutes: travel };
}
