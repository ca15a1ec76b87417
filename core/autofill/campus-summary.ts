import { parseHHMM } from '../domain/time';
import { meetTogether, type Booking } from '../timetable';
import { pushTo } from '../util/multimap';
import type { CampusReading } from './campus-reading';
import type { MovedMeeting } from './term-draft';

/** A department's part of a campus draft. */
export interface CampusDepartmentPart {
  code: string;
  name: string;
  /** Its meetings with a time once the draft is applied (moved or where they are). */
  placed: number;
  /** Its meetings left without a time. */
  unplaced: number;
  moved: number;
  locked: number;
  /** What got better or worse for it, in words. */
  summary: string;
}

export interface CampusMove extends MovedMeeting {
  department: string;
}

/**
 * Each named department's part of a campus draft, and what got better or worse for it in words: its
 * meetings moved (to later or earlier hours), left without a time, its instructors' teaching days and
 * its cohorts' clashes before and after.
 */

const plural = (n: number, one: string, many = `${one}s`): string => `${n.toLocaleString('en-US')} ${n === 1 ? one : many}`;

/** Days each instructor teaches on (a day counted once per part of term), by instructor. */
function teachingDays(bookings: readonly Booking[]): Map<number, number> {
  const days = new Map<number, Set<string>>();
  for (const b of bookings) for (const id of b.doctor_ids) for (const d of b.day) days.set(id, (days.get(id) ?? new Set<string>()).add(`${b.part.code}|${d}`));
  return new Map([...days].map(([id, set]) => [id, set.size]));
}

/** Pairs of meetings of different courses one of the department's cohorts takes that meet together. */
function cohortClashes(bookings: readonly Booking[], cohortsOf: (b: Booking) => readonly string[]): number {
  const byCohort = new Map<string, Booking[]>();
  for (const b of bookings) for (const key of cohortsOf(b)) pushTo(byCohort, key, b);
  const pairs = new Set<string>();
  for (const list of byCohort.values())
    for (let x = 0; x < list.length; x++)
      for (let y = x + 1; y < list.length; y++) {
        const a = list[x] as Booking;
        const b = list[y] as Booking;
        if (a.course_code !== b.course_code && a.campus === b.campus && meetTogether(a, b))
          pairs.add(`${Math.min(a.id ?? 0, b.id ?? 0)}|${Math.max(a.id ?? 0, b.id ?? 0)}`);
      }
  return pairs.size;
}

/** What changed for one department, in words ("12 meetings moved (5 to later hours), …"), or that nothing did. */
function inWords(moved: readonly CampusMove[], out: number, days: { fewer: number; more: number }, clashes: { before: number; after: number }): string {
  const words: string[] = [];
  if (moved.length > 0) {
    const minutes = (t: string): number => parseHHMM(t) ?? 0;
    const later = moved.filter((m) => minutes(m.start_time) > minutes(m.was.start_time)).length;
    const earlier = moved.filter((m) => minutes(m.start_time) < minutes(m.was.start_time)).length;
    const hours = [later > 0 ? `${later} to later hours` : '', earlier > 0 ? `${earlier} to earlier hours` : ''].filter(Boolean).join(', ');
    words.push(`${plural(moved.length, 'meeting')} moved${hours === '' ? '' : ` (${hours})`}`);
  }
  if (days.fewer > 0) words.push(`${plural(days.fewer, 'instructor')} teaching on fewer days`);
  if (days.more > 0) words.push(`${plural(days.more, 'instructor')} teaching on more days`);
  if (clashes.before !== clashes.after) words.push(`cohort clashes ${clashes.before} → ${clashes.after}`);
  if (out > 0) words.push(`${plural(out, 'meeting')} left without a time`);
  return words.length === 0 ? 'nothing changes' : words.join(', ');
}

export function campusSummary(
  reading: CampusReading,
  named: ReadonlySet<number>,
  moved: readonly CampusMove[],
  out: ReadonlySet<number>,
): CampusDepartmentPart[] {
  const movedById = new Map(moved.map((m) => [m.id, m]));
  const cohortsOf = (b: Booking): readonly string[] => reading.cohorts.get(`${b.department}|${b.course_code}`) ?? [];
  // The named departments with meetings in the term (a campus lists many with none).
  const present = new Set(reading.bookings.map((b) => b.department));
  return reading.departments
    .filter((d) => named.has(d.id) && present.has(d.id))
    .map((department) => {
      const before = reading.bookings.filter((b) => b.department === department.id);
      const after = before.flatMap((b): Booking[] => {
        if (out.has(b.id ?? 0)) return [];
        const m = movedById.get(b.id ?? 0);
        return m === undefined ? [b] : [{ ...b, day: m.day, start: parseHHMM(m.start_time) ?? b.start, duration: m.duration_mins }];
      });
      const daysBefore = teachingDays(before);
      const daysAfter = teachingDays(after);
      let fewer = 0;
      let more = 0;
      for (const [id, n] of daysBefore) {
        const now = daysAfter.get(id) ?? 0;
        if (now < n) fewer++;
        else if (now > n) more++;
      }
      const mine = moved.filter((m) => m.department === department.code);
      const left = before.filter((b) => out.has(b.id ?? 0)).length;
      const clashes = { before: cohortClashes(before, cohortsOf), after: cohortClashes(after, cohortsOf) };
      return {
        code: department.code,
        name: department.name,
        placed: before.length - left,
        unplaced: left,
        moved: mine.length,
        locked: before.filter((b) => reading.locked.has(b.id ?? 0)).length,
        summary: `${department.code}: ${inWords(mine, left, { fewer, more }, clashes)}`,
      };
    });
}
