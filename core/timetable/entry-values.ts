import { CoreError, fieldError } from '../domain/errors';
import { displayRoom } from '../domain/meetings';
import { CHECKED_ROLE, type InstructorRole } from '../domain/roles';
import { formatHHMM, parseHHMM } from '../domain/time';
import type { Campus } from '../domain/campuses';
import { DAY_END, type EntryInstructor, type ScheduleEntry } from './schema';

/**
 * How a write's fields become a stored meeting's values, pure: every write path (POST, PATCH, the
 * import's plan, the term copy) goes through these, so a meeting means the same however it came.
 */

/**
 * The instructor list a write asks for. `doctor_ids` is the whole list; `doctor_id` alone (the
 * contract's field) sets the first instructor, keeping any others, and 0/null unassigns the meeting.
 */
function instructorList(input: { doctor_id?: number | null | undefined; doctor_ids?: readonly number[] | undefined }, current: readonly number[]): number[] {
  if (input.doctor_ids !== undefined) {
    if (input.doctor_id !== undefined && (input.doctor_id ?? null) !== (input.doctor_ids[0] ?? null)) {
      throw fieldError('doctor_id', `must be the first of doctor_ids (${input.doctor_ids[0] ?? 'none'}), or left out`);
    }
    return [...input.doctor_ids];
  }
  if (input.doctor_id === undefined) return [...current];
  if (input.doctor_id === null) return [];
  return [input.doctor_id, ...current.slice(1).filter((id) => id !== input.doctor_id)];
}

/**
 * Each instructor's role for a write: `doctor_roles` when given (one per instructor), else the
 * roles the instructors had, and "teaches" for anyone new.
 */
function roleList(
  given: readonly InstructorRole[] | undefined,
  ids: readonly number[],
  current: { doctor_ids: readonly number[]; doctor_roles: readonly InstructorRole[] },
): InstructorRole[] {
  if (given !== undefined) {
    if (given.length !== ids.length) {
      throw fieldError(
        'doctor_roles',
        `must give one role per instructor (${ids.length} instructor${ids.length === 1 ? '' : 's'}, ${given.length} role${given.length === 1 ? '' : 's'})`,
      );
    }
    return [...given];
  }
  return ids.map((id) => current.doctor_roles[current.doctor_ids.indexOf(id)] ?? CHECKED_ROLE);
}

/**
 * What a write may say of a meeting's instructors: `doctors` (the one field), or the separate fields
 * for its parts (`doctor_id`, `doctor_ids`, `doctor_roles`).
 */
export interface InstructorRequest {
  doctors?: readonly { id: number; role?: InstructorRole | undefined }[] | undefined;
  doctor_id?: number | null | undefined;
  doctor_ids?: readonly number[] | undefined;
  doctor_roles?: readonly InstructorRole[] | undefined;
}

/** A meeting's instructors as stored: ids, first one first, and each one's role in the same order. */
export interface StoredInstructors {
  doctor_ids: number[];
  doctor_roles: InstructorRole[];
}

const sameList = <T>(a: readonly T[], b: readonly T[]): boolean => a.length === b.length && a.every((v, i) => v === b[i]);

const sameInstructors = (a: StoredInstructors, b: StoredInstructors): boolean =>
  sameList(a.doctor_ids, b.doctor_ids) && sameList(a.doctor_roles, b.doctor_roles);

/**
 * The instructors a write asks for, from `doctors` or, without it, the separate fields. A write may
 * send both (an entry read, edited and sent back carries both): where they say different things,
 * the one that differs from what the meeting has now is the edit and wins; where both differ (or,
 * for a new meeting, neither is empty) the write is refused naming the separate field that disagrees.
 * `current` is what the meeting has now (nothing for a new one).
 */
export function requestedInstructors(input: InstructorRequest, current: StoredInstructors): StoredInstructors {
  const earlierSent = input.doctor_id !== undefined || input.doctor_ids !== undefined || input.doctor_roles !== undefined;
  const earlier = (): StoredInstructors => {
    const ids = instructorList(input, current.doctor_ids);
    return { doctor_ids: ids, doctor_roles: roleList(input.doctor_roles, ids, current) };
  };
  if (input.doctors === undefined) return earlier();
  const ids = input.doctors.map((d) => d.id);
  const asked: StoredInstructors = {
    doctor_ids: ids,
    doctor_roles: input.doctors.map((d) => d.role ?? current.doctor_roles[current.doctor_ids.indexOf(d.id)] ?? CHECKED_ROLE),
  };
  if (!earlierSent) return asked;
  const byEarlier = earlier();
  if (!sameInstructors(asked, byEarlier)) {
    if (sameInstructors(asked, current)) return byEarlier;
    if (sameInstructors(byEarlier, current)) return asked;
  }
  if (input.doctor_ids !== undefined && !sameList(input.doctor_ids, ids))
    throw fieldError('doctor_ids', 'must list the same instructors as doctors, in the same order, or be left out');
  if (input.doctor_id !== undefined && (input.doctor_id ?? null) !== (ids[0] ?? null))
    throw fieldError('doctor_id', `must be the first of doctors (${ids[0] ?? 'none'}), or left out`);
  if (input.doctor_roles !== undefined && !sameList(input.doctor_roles, asked.doctor_roles))
    throw fieldError('doctor_roles', 'must give the same roles as doctors, or be left out');
  return asked;
}

/** The earlier names for parts of a meeting's instructor list, each read off `doctors` here and nowhere else. */
export function instructorAliases(doctors: readonly EntryInstructor[]): Pick<ScheduleEntry, 'doctor_id' | 'doctor' | 'doctor_ids' | 'doctor_roles'> {
  const first = doctors[0];
  return {
    doctor_id: first?.id ?? null,
    doctor: first ? { id: first.id, name: first.name } : null,
    doctor_ids: doctors.map((d) => d.id),
    doctor_roles: doctors.map((d) => d.role),
  };
}

/**
 * A meeting's campus: its declared room's (`declared`: undefined when the room is not declared or
 * TBD, null when declared without a campus), else the one asked for, else the meeting's current
 * one, else the default campus. Asking for another campus than the room's is refused.
 */
export function meetingCampus(room: string, declared: Campus | null | undefined, asked: Campus | null, current: Campus | null, fallback: Campus): Campus {
  if (declared) {
    if (asked && asked !== declared)
      throw new CoreError('invalid', `Room ${displayRoom(room)} is at ${declared}, not ${asked}: leave campus out or pick a room at ${asked}`);
    return declared;
  }
  return asked ?? current ?? fallback;
}

/** A meeting ends by midnight: one that would run into the next day is refused. */
export function assertEndsByMidnight(values: { start_time: string; duration_mins: number }): void {
  const start = parseHHMM(values.start_time) ?? 0;
  if (start + values.duration_mins > DAY_END) {
    throw fieldError(
      'duration_mins',
      `the session must end by 24:00 (${values.start_time} + ${values.duration_mins} minutes ends at ${formatHHMM((start + values.duration_mins) % DAY_END)} the next day)`,
    );
  }
}
