import type { LockRequest } from '../db/locks';
import { roomKey } from '../domain/meetings';
import type { Term } from '../domain/terms';
import { roomOwnersLock } from '../rooms/repo';

/**
 * What a timetable write locks, so that the rules it checks hold across server processes (see
 * core/db/locks.ts). Every rule compares a meeting with the term's meetings that share its room,
 * one of its instructors (in any department) or its section; a write holds those keys, so two writes that could clash
 * take turns and the second sees the first. A change that moves a whole term's meetings at once
 * (an import, a copy, a part of term's dates, auto-fill) holds the term alone; one that moves every
 * term (the travel time between campuses) holds the whole timetable.
 */

const TIMETABLE = 'timetable';
/** Every timetable write reads rooms' owners: it holds their lock shared (see rooms/repo.ts). */
const ROOM_OWNERS = roomOwnersLock('shared');
const termKey = (term: Term): string => `timetable ${term.year} ${term.semester}`;

/** The meeting fields the rules compare by. */
export interface MeetingKeys {
  department_id: number;
  year: number;
  semester: Term['semester'];
  course_code: string;
  section_name: string;
  room: string;
  /** The instructors the rules check (those who teach). */
  doctor_ids: readonly number[];
}

/** A write of single meetings: the term shared with other such writes, each meeting's room, instructors and section alone. */
export function meetingLocks(meetings: readonly MeetingKeys[]): LockRequest[] {
  const locks: LockRequest[] = [{ key: TIMETABLE, mode: 'shared' }, ROOM_OWNERS];
  for (const m of meetings) {
    const term = termKey(m);
    locks.push({ key: term, mode: 'shared' });
    const room = roomKey(m.room);
    if (room !== null) locks.push({ key: `${term} room ${room}`, mode: 'exclusive' });
    for (const id of m.doctor_ids) locks.push({ key: `${term} instructor ${id}`, mode: 'exclusive' });
    locks.push({ key: `${term} section ${m.department_id} ${m.course_code}\u0000${m.section_name}`, mode: 'exclusive' });
  }
  return locks;
}

/** A change of one stored meeting: its terms (where it is, where it goes) shared with other such changes. */
export function meetingTermLocks(terms: readonly Term[]): LockRequest[] {
  return [{ key: TIMETABLE, mode: 'shared' }, ROOM_OWNERS, ...terms.map((term): LockRequest => ({ key: termKey(term), mode: 'shared' }))];
}

/** A change to whole terms (their meetings written or moved together): each term alone. */
export function termLocks(terms: readonly Term[]): LockRequest[] {
  return [{ key: TIMETABLE, mode: 'shared' }, ROOM_OWNERS, ...terms.map((term): LockRequest => ({ key: termKey(term), mode: 'exclusive' }))];
}

/** A change to every term at once (the travel time between campuses): the whole timetable alone. */
export function timetableLock(): LockRequest[] {
  return [{ key: TIMETABLE, mode: 'exclusive' }, ROOM_OWNERS];
}

/** A stored meeting being changed: taken with its terms, before its row is read (see gate.ts). */
export function entryLock(id: number): LockRequest {
  return { key: `timetable entry ${id}`, mode: 'exclusive' };
}
