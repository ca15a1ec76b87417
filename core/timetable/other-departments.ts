import type { CoreContext } from '../context';
import { departmentNames } from '../departments/repo';
import { sectionLabel } from '../domain/meetings';
import { mayRead } from '../domain/people';
import type { Booking } from './conflicts';

/** How a refusal names another department's meeting to someone who may not read that department. */
export const ANOTHER_DEPARTMENT = 'another department';

/**
 * Names the other departments' meetings among `bookings` as the caller may see them: their section
 * and department to those who may read it (the registrar), else "another department" — a refusal
 * never tells one department what another plans. The caller's own meetings are left as they are.
 */
export async function showAsTheCallerMay(ctx: CoreContext, bookings: readonly Booking[]): Promise<void> {
  const others = bookings.filter((b) => b.department !== ctx.department);
  if (others.length === 0) return;
  const names = others.some((b) => mayRead(ctx.actor, b.department)) ? await departmentNames(ctx.db) : new Map<number, string>();
  for (const booking of others) {
    booking.shownAs = mayRead(ctx.actor, booking.department)
      ? `${sectionLabel(booking.course_code, booking.section_name)} of ${names.get(booking.department) ?? `department ${booking.department}`}`
      : ANOTHER_DEPARTMENT;
  }
}
