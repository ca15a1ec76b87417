import type { Db } from '../db/connection';
import { parseHHMM } from '../domain/time';
import type { Booking } from './conflicts';
import { displayRoom, roomKey } from '../domain/meetings';

export interface EntryRow {
  id: number;
  course_code: string;
  section_name: string;
  doctor_id: number | null;
  day: string;
  start_time: string;
  start_min: number;
  duration_mins: number;
  room: string;
  room_key: string | null;
}

const COLUMNS = 'id, course_code, section_name, doctor_id, day, start_time, start_min, duration_mins, room, room_key';

export type EntryValues = Omit<EntryRow, 'id' | 'start_min' | 'room_key'>;

export function toBooking(row: EntryRow): Booking {
  return { course_code: row.course_code, section_name: row.section_name, doctor_id: row.doctor_id, day: row.day, start: row.start_min, duration: row.duration_mins, room: row.room, roomKey: row.room_key };
}

export function bookingOf(values: EntryValues): Booking {
  return toBooking({ ...values, id: 0, start_min: parseHHMM(values.start_time) ?? 0, room: displayRoom(values.room), room_key: roomKey(values.room) });
}

export function getEntry(db: Db, id: number): EntryRow | undefined {
  return db.prepare<[number], EntryRow>(`SELECT ${COLUMNS} FROM schedule_entries WHERE id = ?`).get(id);
}

export function listEntries(db: Db): EntryRow[] {
  return db.prepare<[], EntryRow>(`SELECT ${COLUMNS} FROM schedule_entries ORDER BY course_code, section_name, id`).all();
}

/** Entries that could clash with a booking: same doctor or same room, other than `excludeId`. */
export function clashCandidates(db: Db, doctorId: number | null, key: string | null, excludeId: number | null): Booking[] {
  return db
    .prepare<[number, string, number], EntryRow>(`SELECT ${COLUMNS} FROM schedule_entries WHERE (doctor_id = ? OR room_key = ?) AND id != ?`)
    .all(doctorId ?? -1, key ?? '\u0000', excludeId ?? -1)
    .map(toBooking);
}

export function insertEntry(db: Db, values: EntryValues, createdAt: string): number {
  const result = db
    .prepare(`INSERT INTO schedule_entries (course_code, section_name, doctor_id, day, start_time, start_min, duration_mins, room, room_key, created_at)
      VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`)
    .run(values.course_code, values.section_name, values.doctor_id, values.day, values.start_time, parseHHMM(values.start_time), values.duration_mins, displayRoom(values.room), roomKey(values.room), createdAt);
  return Number(result.lastInsertRowid);
}

export function updateEntry(db: Db, id: number, values: EntryValues): void {
  db.prepare(`UPDATE schedule_entries SET course_code = ?, section_name = ?, doctor_id = ?, day = ?, start_time = ?, start_min = ?, duration_mins = ?, room = ?, room_key = ? WHERE id = ?`).run(
    values.course_code,
    values.section_name,
    values.doctor_id,
    values.day,
    values.start_time,
    parseHHMM(values.start_time),
    values.duration_mins,
    displayRoom(values.room),
    roomKey(values.room),
    id,
  );
}

export function deleteEntry(db: Db, id: number): boolean {
  return db.prepare('DELETE FROM schedule_entries WHERE id = ?').run(id).changes > 0;
}

/** Each room the timetable uses (by room key), with one of its spellings. */
export function roomsInUse(db: Db): { room: string; room_key: string }[] {
  return db.prepare<[], { room: string; room_key: string }>('SELECT MIN(room) AS room, room_key FROM schedule_entries WHERE room_key IS NOT NULL GROUP BY room_key').all();
}

export function countEntries(db: Db): number {
  return db.prepare<[], number>('SELECT COUNT(*) FROM schedule_entries').pluck().get() ?? 0;
}
