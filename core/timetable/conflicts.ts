import { availabilityWindow } from '../domain/teaching';
import { dayNames, formatInterval, sectionLabel, sessionsOverlap, sharedDays, type Session } from '../domain/meetings';
import { describePart, partsShareDay, WHOLE_TERM, type PartOfTerm } from '../domain/parts';

/**
 * The rules every timetable write must pass. Pure: callers give the meeting, its instructors and
 * the other meetings of the same term that could clash; the answer is every problem, in a
 * scheduler's words. A meeting is one row of the timetable (day pattern, start, duration, room);
 * meetings with the same course code and section name are one section.
 *
 * What legitimately shares a time: meetings of one section (a lecture and its lab; rows a registrar
 * lists overlapping are the section meeting in different weeks, a note and not a clash); members of
 * one joint group (sections meeting together by design) on the room and instructor rules; meetings
 * in parts of term whose dates never overlap, on every rule.
 */
export interface Booking extends Session {
  /** The stored entry's id; null for a meeting not stored yet. */
  id: number | null;
  /** The department whose timetable holds it (rooms and instructors are shared between departments). */
  department: number;
  /**
   * How refusals name it when it is another department's meeting: its section and department to
   * those who may read that department, else words that give nothing away. Unset: its section.
   */
  shownAs?: string;
  course_code: string;
  section_name: string;
  /** Every instructor, the first one first; empty when unassigned. */
  doctor_ids: readonly number[];
  room: string;
  /** null for TBD: never conflicts on the room rule. */
  roomKey: string | null;
  part: PartOfTerm;
  /** Sections meeting together by design share a label; null when none. */
  joint_group: string | null;
  campus: string;
}

export interface DoctorAvailability {
  id: number;
  name: string;
  available_days: string | null;
  available_time: string | null;
}

export interface ConflictRules {
  /** Minutes an instructor needs between meetings at two campuses on one day. */
  travelMinutes: number;
}

/** A booking for a meeting with only the contract's first fields: whole term, no joint group. */
export function simpleBooking(
  fields: Omit<Booking, 'id' | 'department' | 'part' | 'joint_group' | 'campus'> &
    Partial<Pick<Booking, 'id' | 'department' | 'part' | 'joint_group' | 'campus'>>,
): Booking {
  return { id: null, department: 1, part: WHOLE_TERM, joint_group: null, campus: '', ...fields };
}

function sameSection(a: Booking, b: Booking): boolean {
  return a.department === b.department && a.course_code === b.course_code && a.section_name === b.section_name;
}

/** Sections of one joint group meet together by design; a group is one department's. */
export function jointPartners(a: Booking, b: Booking): boolean {
  return a.joint_group !== null && a.department === b.department && a.joint_group === b.joint_group;
}

/** How a refusal names another meeting: its section, or what the booking was given to show of it. */
const named = (other: Booking): string => other.shownAs ?? sectionLabel(other.course_code, other.section_name);

/** Both meet on one date (a shared day in their parts' common dates) at intersecting times. */
export function meetTogether(a: Booking, b: Booking): boolean {
  return sessionsOverlap(a, b) && partsShareDay(a.part, b.part, sharedDays(a.day, b.day));
}

/** When the parts are why two meetings clash, the messages say so. */
function partNote(a: Booking, b: Booking): string {
  if (a.part.code === WHOLE_TERM.code && b.part.code === WHOLE_TERM.code) return '';
  return a.part.code === b.part.code ? ` (both in ${describePart(a.part)})` : ` (${describePart(b.part)} overlaps ${describePart(a.part)})`;
}

function when(other: Booking, booking: Booking): string {
  return `on ${dayNames(sharedDays(other.day, booking.day))} ${formatInterval(other.start, other.duration)}${partNote(booking, other)}`;
}

/** A conflict and the stored meeting it is with (null for the instructor's own availability). */
export interface Clash {
  detail: string;
  with: Booking | null;
}

/** Rule 1: every day of the meeting in the instructor's days, and [start, end) inside their hours. */
export function availabilityConflicts(doctor: DoctorAvailability, session: Session): string[] {
  const problems: string[] = [];
  const window = `available ${[doctor.available_days, doctor.available_time].filter(Boolean).join(' ')}`;
  const available = availabilityWindow(doctor);
  const missing = [...session.day].filter((d) => !(available.days as string[]).includes(d)).join('');
  if (missing) problems.push(`${doctor.name} is not available on ${dayNames(missing)} (${window})`);
  if (session.start < available.start || session.start + session.duration > available.end) {
    problems.push(`${doctor.name} is not available at ${formatInterval(session.start, session.duration)} (${window})`);
  }
  return problems;
}

/** Rule 2 for one other meeting: the instructor teaches it at the same time (this section's meetings and joint group aside). */
function doctorClash(doctor: DoctorAvailability, booking: Booking, other: Booking): Clash | null {
  if (!other.doctor_ids.includes(doctor.id) || sameSection(booking, other) || jointPartners(booking, other) || !meetTogether(booking, other)) return null;
  return { detail: `${doctor.name} already teaches ${named(other)} ${when(other, booking)}`, with: other };
}

/** Rule 3 for one other meeting: it is in the room then (joint partners aside; the section's own meetings are rule 4). */
function roomClash(booking: Booking, other: Booking): Clash | null {
  if (
    booking.roomKey === null ||
    other.roomKey !== booking.roomKey ||
    sameSection(booking, other) ||
    jointPartners(booking, other) ||
    !meetTogether(booking, other)
  )
    return null;
  return { detail: `Room ${booking.room} is already booked by ${named(other)} ${when(other, booking)}`, with: other };
}

/** The same meeting of one section twice: same days, time, room and part. */
function sameMeeting(booking: Booking, other: Booking): boolean {
  return (
    sameSection(booking, other) &&
    other.day === booking.day &&
    other.start === booking.start &&
    other.duration === booking.duration &&
    other.roomKey === booking.roomKey &&
    other.part.code === booking.part.code
  );
}

/** Rule 4 for one other meeting: the same meeting listed again. */
function sectionClash(booking: Booking, other: Booking): Clash | null {
  if (!sameMeeting(booking, other)) return null;
  const label = sectionLabel(booking.course_code, booking.section_name);
  return {
    detail: `${label} already has this meeting (${other.day} ${formatInterval(other.start, other.duration)} in ${other.room}${other.id === null ? '' : `, entry ${other.id}`})`,
    with: other,
  };
}

/**
 * Two different meetings of one section at overlapping times are the section meeting in different
 * weeks (as registrars list them): a note on the section, never a clash. The note, or null.
 */
export function sectionOverlapNote(booking: Booking, other: Booking): string | null {
  if (!sameSection(booking, other) || sameMeeting(booking, other) || !meetTogether(booking, other)) return null;
  const where = other.room === 'TBD' ? 'a room to be decided' : `room ${other.room}`;
  return `${sectionLabel(booking.course_code, booking.section_name)} also meets ${when(other, booking)} in ${where}: read as meeting in different weeks`;
}

/**
 * Rule 5 for one other meeting: an instructor teaching at two campuses on one day needs the travel
 * time between the end of one meeting and the start of the other (meetings that overlap are rule 2's).
 */
function travelClash(doctor: DoctorAvailability, booking: Booking, other: Booking, rules: ConflictRules): Clash | null {
  if (!other.doctor_ids.includes(doctor.id) || other.campus === booking.campus || jointPartners(booking, other)) return null;
  if (!partsShareDay(booking.part, other.part, sharedDays(booking.day, other.day))) return null;
  const gap = Math.max(booking.start, other.start) - Math.min(booking.start + booking.duration, other.start + other.duration);
  if (gap < 0 || gap >= rules.travelMinutes) return null;
  return {
    detail: `${doctor.name} teaches ${named(other)} at ${other.campus} ${when(other, booking)}: ${gap} minutes to get to ${booking.campus}, less than the ${rules.travelMinutes}-minute travel time between ${other.campus} and ${booking.campus}`,
    with: other,
  };
}

/** The clashes one pair rule finds among `others`, at most `limit`. */
function collect(others: readonly Booking[], clashOf: (other: Booking) => Clash | null, limit = Number.POSITIVE_INFINITY): Clash[] {
  const found: Clash[] = [];
  for (const other of others) {
    if (found.length >= limit) break;
    const clash = clashOf(other);
    if (clash) found.push(clash);
  }
  return found;
}

/** Rule 2: the instructor teaches nothing else then (their other meetings of this section and joint group aside). */
export function doctorConflicts(doctor: DoctorAvailability, booking: Booking, others: readonly Booking[]): Clash[] {
  return collect(others, (other) => doctorClash(doctor, booking, other));
}

/** Rule 3: nothing else in the room then (joint partners aside; the section's own meetings are rule 4). */
export function roomConflicts(booking: Booking, others: readonly Booking[]): Clash[] {
  return booking.roomKey === null ? [] : collect(others, (other) => roomClash(booking, other));
}

/**
 * All conflicts of a booking, each with the meeting it is about (an import keeps both sides of a
 * clash). `doctors` are its instructors (rules 1, 2 and 5 for each); rule 3 is skipped when the
 * room is TBD. `others` are the term's other meetings, never the booking itself. With `limit`, the
 * search stops once that many are found (a listing that clashes with itself thousands of times).
 */
export function bookingClashes(
  booking: Booking,
  doctors: readonly DoctorAvailability[],
  others: readonly Booking[],
  rules: ConflictRules,
  limit = Number.POSITIVE_INFINITY,
): Clash[] {
  const clashes: Clash[] = [];
  const left = (): number => limit - clashes.length;
  for (const doctor of doctors) {
    for (const detail of availabilityConflicts(doctor, booking)) clashes.push({ detail, with: null });
    clashes.push(...collect(others, (other) => doctorClash(doctor, booking, other), left()));
    clashes.push(...collect(others, (other) => travelClash(doctor, booking, other, rules), left()));
  }
  if (booking.roomKey !== null) clashes.push(...collect(others, (other) => roomClash(booking, other), left()));
  clashes.push(...collect(others, (other) => sectionClash(booking, other), left()));
  return clashes.slice(0, limit);
}

/** Every problem of a booking, in a scheduler's words (see bookingClashes). */
export function bookingConflicts(booking: Booking, doctors: readonly DoctorAvailability[], others: readonly Booking[], rules: ConflictRules): string[] {
  return bookingClashes(booking, doctors, others, rules).map((clash) => clash.detail);
}
