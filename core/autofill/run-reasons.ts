import { bookingConflicts, type Booking, type ConflictRules, type DoctorAvailability } from '../timetable';
import type { Slot } from './grid';
import { inWords } from '../domain/campuses';

/**
 * Why a new section of a prediction run's plan cannot be placed, in a scheduler's words: asked
 * before the search (a section no draft could place is left out of it) and after it (of the
 * sections the draft left, with the loads and meetings the draft gives the instructors).
 */
export interface RunSectionNeed {
  course_code: string;
  /** Students it is expected to have. */
  size: number;
  /** Who may teach it (doctor ids, in the order the department lists them). */
  candidates: readonly number[];
  /** The section as the rules see it, without a time yet. */
  booking: Booking;
}

export interface RunReasonContext {
  campus: string;
  /** Seats of each declared room of the campus. */
  capacities: readonly number[];
  slots: readonly Slot[];
  rules: ConflictRules;
  maxSections: number;
  doctors: ReadonlyMap<number, DoctorAvailability>;
  /** Sections each instructor teaches (in all departments). */
  load: (id: number) => number;
  /** Each instructor's meetings. */
  meetingsOf: (id: number) => readonly Booking[];
  /** What is known of each instructor already (filled as sections are asked about: the same for every section at the campus). */
  known?: Map<number, { available: boolean; free: boolean }>;
}

/** The reason a section cannot be placed, or null when none is seen (it may fit). */
export function runSectionReason(section: RunSectionNeed, context: RunReasonContext): string | null {
  if (section.candidates.length === 0) return `No instructor is allowed to teach ${section.course_code}`;
  if (context.capacities.length === 0)
    return `No rooms with seats are declared for ${context.campus}: declare them in Scheduler → Rooms (Add, or Upload rooms…), or give seats to the rooms your meetings name (Declare… beside each)`;
  if (!context.capacities.some((c) => c >= section.size))
    return `No room at ${context.campus} seats ${section.size} students (the largest holds ${Math.max(...context.capacities)})`;
  const doctors = section.candidates.map((id) => context.doctors.get(id)).filter((d): d is DoctorAvailability => d !== undefined);
  const names = inWords(
    doctors.map((d) => d.name),
    'and',
  );
  const only = doctors.length === 1 ? 'the only allowed instructor' : 'the only allowed instructors';
  const verb = doctors.length === 1 ? 'is' : 'are';
  const max = context.maxSections;
  if (doctors.every((d) => context.load(d.id) >= max)) return `${names}, ${only}, ${verb} fully booked (at most ${max} section${max === 1 ? '' : 's'} each)`;
  const freeAt = (d: DoctorAvailability, slot: Slot, meetings: readonly Booking[]): boolean =>
    bookingConflicts(
      { ...section.booking, doctor_ids: [d.id], day: slot.day, start: slot.start, duration: slot.duration, roomKey: null },
      [d],
      meetings,
      context.rules,
    ).length === 0;
  const known = context.known ?? new Map<number, { available: boolean; free: boolean }>();
  const instructor = (d: DoctorAvailability): { available: boolean; free: boolean } => {
    let seen = known.get(d.id);
    if (seen === undefined) {
      const available = context.slots.some((slot) => freeAt(d, slot, []));
      seen = { available, free: available && context.slots.some((slot) => freeAt(d, slot, context.meetingsOf(d.id))) };
      known.set(d.id, seen);
    }
    return seen;
  };
  const available = doctors.filter((d) => instructor(d).available);
  if (available.length === 0) return `${names}, ${only}, ${verb} not available at any standard time`;
  if (!available.some((d) => instructor(d).free)) return `${names}, ${only}, ${verb} already teaching at every standard time they are available`;
  return null;
}

/** The reason for a section the draft left when none of the above holds: every room that seats it is taken when they can teach. */
export function noFreeRoomReason(section: RunSectionNeed, context: Pick<RunReasonContext, 'doctors'>): string {
  const names = inWords(
    section.candidates.map((id) => context.doctors.get(id)?.name).filter((n): n is string => n !== undefined),
    'and',
  );
  return `No room that seats ${section.size} is free when ${names} can teach ${section.course_code}`;
}
