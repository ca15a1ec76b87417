import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { bookingConflicts, type Booking, type DoctorAvailability } from '../../core/timetable/conflicts';
import type { PartOfTerm } from '../../core/domain/parts';

/**
 * The timetable rules against an independent oracle, over random timetables with parts of term
 * (dates), several instructors, joint groups and two campuses. The oracle does not reuse the
 * production code: it lays every meeting out on the real calendar of a summer term, minute by
 * minute, and asks who is where when.
 */
const TERM = { first: '2018-06-04', last: '2018-08-10' };
const PARTS: PartOfTerm[] = [
  { code: '1', name: 'Whole term', start_date: null, end_date: null },
  { code: 'A', name: 'First four weeks', start_date: '2018-06-04', end_date: '2018-06-29' },
  { code: 'B', name: 'Second four weeks', start_date: '2018-07-02', end_date: '2018-07-27' },
  { code: 'C', name: 'Straddling', start_date: '2018-06-27', end_date: '2018-07-03' },
  { code: 'D', name: 'Last two weeks', start_date: '2018-07-30', end_date: '2018-08-10' },
  { code: 'E', name: 'One Tuesday', start_date: '2018-07-03', end_date: '2018-07-03' },
];
const DOCTORS: DoctorAvailability[] = [
  { id: 1, name: 'Dr. A', available_days: 'MTWRF', available_time: '08:00-18:00' },
  { id: 2, name: 'Dr. B', available_days: 'MWF', available_time: '08:00-14:00' },
  { id: 3, name: 'Dr. C', available_days: null, available_time: null },
];
const TRAVEL = 60;
const LETTERS = ['U', 'M', 'T', 'W', 'R', 'F', 'S'];

const meetingArb = fc.record({
  course: fc.constantFrom('CSC374', 'CSC574', 'PHY101'),
  section: fc.constantFrom('1', '2'),
  doctors: fc.subarray([1, 2, 3], { maxLength: 2 }).chain((ids) => fc.shuffledSubarray(ids, { minLength: ids.length, maxLength: ids.length })),
  day: fc.subarray(['M', 'T', 'W', 'R', 'F'], { minLength: 1, maxLength: 3 }).map((d) => d.join('')),
  start: fc.integer({ min: 32, max: 60 }).map((q) => q * 15),
  duration: fc.constantFrom(50, 60, 75, 90),
  room: fc.constantFrom('R1', 'R2', 'TBD'),
  part: fc.constantFrom(...PARTS.map((p) => p.code)),
  joint: fc.constantFrom(null, 'G1', 'G2'),
  campus: fc.constantFrom('Beirut', 'Byblos'),
});
type Meeting = typeof meetingArb extends fc.Arbitrary<infer T> ? T : never;

const partOf = (code: string): PartOfTerm => PARTS.find((p) => p.code === code) as PartOfTerm;

function toBooking(m: Meeting, id: number | null): Booking {
  return {
    id,
    department: 1,
    course_code: m.course,
    section_name: m.section,
    doctor_ids: m.doctors,
    day: m.day,
    start: m.start,
    duration: m.duration,
    room: m.room,
    roomKey: m.room === 'TBD' ? null : m.room.toLowerCase(),
    part: partOf(m.part),
    joint_group: m.joint,
    campus: m.campus,
  };
}

/** Every calendar date a meeting takes place on, by its part's dates (or the whole term) and its days. */
function datesOf(m: Meeting): string[] {
  const part = partOf(m.part);
  const from = Date.parse(`${part.start_date ?? TERM.first}T00:00:00Z`);
  const to = Date.parse(`${part.end_date ?? TERM.last}T00:00:00Z`);
  const dates: string[] = [];
  for (let t = from; t <= to; t += 86_400_000) if (m.day.includes(LETTERS[new Date(t).getUTCDay()] ?? '?')) dates.push(new Date(t).toISOString().slice(0, 10));
  return dates;
}

interface Ignoring {
  dates?: boolean;
  jointGroups?: boolean;
  coInstructors?: boolean;
  campuses?: boolean;
}

/** The oracle: is there a minute on some date where the two collide by the rules' meaning? */
function oracleRefuses(candidate: Meeting, existing: readonly Meeting[], ignoring: Ignoring = {}): boolean {
  const instructors = ignoring.coInstructors ? candidate.doctors.slice(0, 1) : candidate.doctors;
  for (const id of instructors) {
    const d = DOCTORS.find((x) => x.id === id) as DoctorAvailability;
    if (d.available_days && [...candidate.day].some((day) => !d.available_days?.includes(day))) return true;
    if (d.available_time) {
      const [from, to] = d.available_time.split('-').map((t) => Number(t.slice(0, 2)) * 60 + Number(t.slice(3)));
      if (candidate.start < (from ?? 0) || candidate.start + candidate.duration > (to ?? 0)) return true;
    }
  }
  const mine = new Set(ignoring.dates ? [...candidate.day] : datesOf(candidate));
  for (const other of existing) {
    // One section: the same meeting twice is refused, whether or not its days fall in its part's dates
    // (a duplicate row); two different meetings at one time are the section in different weeks.
    const sameMeeting =
      other.course === candidate.course &&
      other.section === candidate.section &&
      other.day === candidate.day &&
      other.start === candidate.start &&
      other.duration === candidate.duration &&
      other.room === candidate.room &&
      other.part === candidate.part;
    if (sameMeeting) return true;
    const theirs = ignoring.dates ? [...other.day] : datesOf(other);
    const commonDates = theirs.filter((d) => mine.has(d));
    if (commonDates.length === 0) continue;
    let collide = false;
    for (let minute = candidate.start; minute < candidate.start + candidate.duration && !collide; minute++)
      collide = minute >= other.start && minute < other.start + other.duration;
    const sameSection = other.course === candidate.course && other.section === candidate.section;
    const partners = !ignoring.jointGroups && candidate.joint !== null && candidate.joint === other.joint;
    const sharedInstructor = instructors.some((id) => other.doctors.includes(id));
    if (collide && !sameSection && !partners && sharedInstructor) return true;
    if (collide && !sameSection && !partners && candidate.room !== 'TBD' && candidate.room === other.room) return true;
    if (!ignoring.campuses && !partners && sharedInstructor && other.campus !== candidate.campus) {
      const gap = Math.max(candidate.start, other.start) - Math.min(candidate.start + candidate.duration, other.start + other.duration);
      if (gap >= 0 && gap < TRAVEL) return true;
    }
  }
  return false;
}

function productionRefuses(candidate: Meeting, existing: readonly Meeting[]): boolean {
  const doctors = candidate.doctors.map((id) => DOCTORS.find((d) => d.id === id) as DoctorAvailability);
  return (
    bookingConflicts(
      toBooking(candidate, null),
      doctors,
      existing.map((m, i) => toBooking(m, i + 1)),
      { travelMinutes: TRAVEL },
    ).length > 0
  );
}

const scenario = fc.record({ existing: fc.array(meetingArb, { maxLength: 8 }), candidate: meetingArb });
const agrees = (ignoring: Ignoring) =>
  fc.property(scenario, ({ existing, candidate }) => productionRefuses(candidate, existing) === oracleRefuses(candidate, existing, ignoring));

describe('timetable rules against the calendar oracle', () => {
  it('refuses exactly the meetings that really collide', () => {
    fc.assert(agrees({}), { numRuns: 3000 });
  });

  it.each([['dates'], ['jointGroups'], ['coInstructors'], ['campuses']] as const)('is checked: an oracle that ignores %s disagrees somewhere', (dimension) => {
    const result = fc.check(agrees({ [dimension]: true }), { numRuns: 5000, seed: 11 });
    expect(result.failed, `the generator never exercised ${dimension}`).toBe(true);
  });
});
