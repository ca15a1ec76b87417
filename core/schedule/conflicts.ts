import { parseTimeRange } from '../domain/time';
import { dayNames, formatInterval, sectionLabel, sessionsOverlap, sharedDays, type Session } from '../domain/meetings';

/**
 * The three rules every timetable write must pass. Pure: callers give the entry, its doctor and
 * the other entries that could clash; the answer is every problem, in a scheduler's words.
 */
export interface Booking extends Session {
  course_code: string;
  section_name: string;
  doctor_id: number | null;
  room: string;
  roomKey: string | null;
}

export interface DoctorAvailability {
  id: number;
  name: string;
  available_days: string | null;
  available_time: string | null;
}

/** Rule 1: every day of the session in the doctor's days, and [start, end) inside their hours. */
export function availabilityConflicts(doctor: DoctorAvailability, session: Session): string[] {
  const problems: string[] = [];
  const window = `available ${[doctor.available_days, doctor.available_time].filter(Boolean).join(' ')}`;
  if (doctor.available_days) {
    const missing = [...session.day].filter((d) => !doctor.available_days?.includes(d)).join('');
    if (missing) problems.push(`${doctor.name} is not available on ${dayNames(missing)} (${window})`);
  }
  const range = doctor.available_time ? parseTimeRange(doctor.available_time) : null;
  if (range && (session.start < range.start || session.start + session.duration > range.end)) {
    problems.push(`${doctor.name} is not available at ${formatInterval(session.start, session.duration)} (${window})`);
  }
  return problems;
}

/** Rule 2: the doctor teaches nothing else at an overlapping time. */
export function doctorConflicts(doctor: DoctorAvailability, booking: Session, doctorsOtherBookings: readonly Booking[]): string[] {
  return doctorsOtherBookings
    .filter((other) => sessionsOverlap(booking, other))
    .map((other) => `${doctor.name} already teaches ${sectionLabel(other.course_code, other.section_name)} on ${sharedDays(other.day, booking.day)} ${formatInterval(other.start, other.duration)}`);
}

/** Rule 3: nothing else in the same room at an overlapping time. */
export function roomConflicts(room: string, booking: Session, roomsOtherBookings: readonly Booking[]): string[] {
  return roomsOtherBookings
    .filter((other) => sessionsOverlap(booking, other))
    .map((other) => `Room ${room} is already booked by ${sectionLabel(other.course_code, other.section_name)} on ${sharedDays(other.day, booking.day)} ${formatInterval(other.start, other.duration)}`);
}

/**
 * All conflicts of a booking. Rules 1 and 2 are skipped for an unassigned booking; rule 3 when
 * the room is TBD. `others` must not contain the booking itself.
 */
export function bookingConflicts(booking: Booking, doctor: DoctorAvailability | null, others: readonly Booking[]): string[] {
  const problems: string[] = [];
  if (doctor) {
    problems.push(...availabilityConflicts(doctor, booking));
    problems.push(...doctorConflicts(doctor, booking, others.filter((o) => o.doctor_id === doctor.id)));
  }
  if (booking.roomKey !== null) problems.push(...roomConflicts(booking.room, booking, others.filter((o) => o.roomKey === booking.roomKey)));
  return problems;
}
