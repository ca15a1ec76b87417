import { statement, type Db } from '../db/connection';
import { parseHHMM } from '../domain/time';
import { storedList } from '../domain/lists';
import { SEMESTER_ORDER_SQL, type Term } from '../domain/terms';
import { WHOLE_TERM, type PartOfTerm } from '../domain/parts';
import type { Booking } from './conflicts';
import { displayRoom, roomKey } from '../domain/meetings';
import { CHECKED_ROLE, type InstructorRole } from '../domain/roles';

/** One stored meeting, with its instructors in order. */
export interface EntryRow {
  id: number;
  year: number;
  semester: Term['semester'];
  course_code: string;
  section_name: string;
  doctor_ids: number[];
  /** Each instructor's role, in the order of doctor_ids. */
  doctor_roles: InstructorRole[];
  day: string;
  start_time: string;
  start_min: number;
  duration_mins: number;
  room: string;
  room_key: string | null;
  part_of_term: string;
  joint_group: string | null;
  campus: string;
}

/** What a write stores; the room is the display spelling (TBD when none). */
export type EntryValues = Omit<EntryRow, 'id' | 'start_min' | 'room_key'>;

const instructorsSql = (column: string, alias: string): string =>
  `(SELECT json_group_array(${column}) FROM (SELECT ${column} FROM schedule_entry_doctors d WHERE d.entry_id = e.id ORDER BY position)) AS ${alias}`;
const COLUMNS = `e.id, e.year, e.semester, e.course_code, e.section_name, e.day, e.start_time, e.start_min, e.duration_mins, e.room, e.room_key, e.part_of_term, e.joint_group, e.campus, ${instructorsSql('doctor_id', 'doctor_ids')}, ${instructorsSql('role', 'doctor_roles')}`;

type StoredRow = Omit<EntryRow, 'doctor_ids' | 'doctor_roles'> & { doctor_ids: string; doctor_roles: string };
const fromStored = (row: StoredRow): EntryRow => ({ ...row, doctor_ids: storedList(row.doctor_ids).map(Number), doctor_roles: storedList(row.doctor_roles) as InstructorRole[] });

/** The instructors the rules check: those who teach (coordinators and assistants are listed only). */
export function checkedInstructors(row: Pick<EntryRow, 'doctor_ids' | 'doctor_roles'>): number[] {
  return row.doctor_ids.filter((_, i) => (row.doctor_roles[i] ?? CHECKED_ROLE) === CHECKED_ROLE);
}

/** The booking the conflict rules see for a stored or proposed meeting; parts are the term's. */
export function bookingOf(row: Omit<EntryRow, 'start_min' | 'room_key' | 'id'> & { id?: number | null }, parts: ReadonlyMap<string, PartOfTerm>): Booking {
  return {
    id: row.id ?? null,
    course_code: row.course_code,
    section_name: row.section_name,
    doctor_ids: checkedInstructors(row),
    day: row.day,
    start: parseHHMM(row.start_time) ?? 0,
    duration: row.duration_mins,
    room: displayRoom(row.room),
    roomKey: roomKey(row.room),
    part: parts.get(row.part_of_term) ?? { ...WHOLE_TERM, code: row.part_of_term },
    joint_group: row.joint_group,
    campus: row.campus,
  };
}

export function getEntry(db: Db, id: number): EntryRow | undefined {
  const row = statement<[number], StoredRow>(db, `SELECT ${COLUMNS} FROM schedule_entries e WHERE e.id = ?`).get(id);
  return row ? fromStored(row) : undefined;
}

/** A term's meetings, by course and section. */
export function listEntries(db: Db, term: Term): EntryRow[] {
  return statement<[number, string], StoredRow>(db, `SELECT ${COLUMNS} FROM schedule_entries e WHERE e.year = ? AND e.semester = ? ORDER BY e.course_code, e.section_name, e.id`)
    .all(term.year, term.semester)
    .map(fromStored);
}

/**
 * A term's meetings of the given courses, without their instructors (what the curriculum rule
 * reads: when and where each section meets).
 */
export function meetingsOfCourses(db: Db, term: Term, codes: readonly string[]): EntryRow[] {
  if (codes.length === 0) return [];
  return statement<[number, string, string], Omit<EntryRow, 'doctor_ids' | 'doctor_roles'>>(
    db,
    `SELECT e.id, e.year, e.semester, e.course_code, e.section_name, e.day, e.start_time, e.start_min, e.duration_mins, e.room, e.room_key, e.part_of_term, e.joint_group, e.campus
     FROM schedule_entries e WHERE e.year = ? AND e.semester = ? AND e.course_code IN (SELECT value FROM json_each(?))`,
  )
    .all(term.year, term.semester, JSON.stringify(codes))
    .map((row) => ({ ...row, doctor_ids: [], doctor_roles: [] }));
}

/**
 * The term's meetings that could clash with a booking: those of its instructors, its room or its
 * section, other than `excludeId`.
 */
export function clashCandidates(db: Db, term: Term, booking: { doctor_ids: readonly number[]; room: string; course_code: string; section_name: string }, excludeId: number | null): EntryRow[] {
  // Three indexed lookups (the instructors' meetings, the room's, the section's), then each row by id:
  // CROSS JOIN keeps that order, so the term is never scanned.
  return statement<[string, number, string, string | null, number, string, string, string, number, string, number], StoredRow>(
    db,
    `WITH c(id) AS (
       SELECT entry_id FROM schedule_entry_doctors WHERE doctor_id IN (SELECT value FROM json_each(?))
       UNION SELECT id FROM schedule_entries WHERE year = ? AND semester = ? AND room_key = ?
       UNION SELECT id FROM schedule_entries WHERE year = ? AND semester = ? AND course_code = ? AND section_name = ?)
     SELECT ${COLUMNS} FROM c CROSS JOIN schedule_entries e ON e.id = c.id
     WHERE e.year = ? AND e.semester = ? AND e.id != ?`,
  )
    .all(JSON.stringify(booking.doctor_ids), term.year, term.semester, roomKey(booking.room), term.year, term.semester, booking.course_code, booking.section_name, term.year, term.semester, excludeId ?? -1)
    .map(fromStored);
}

function writeDoctors(db: Db, entryId: number, values: Pick<EntryValues, 'doctor_ids' | 'doctor_roles'>): void {
  statement(db, 'DELETE FROM schedule_entry_doctors WHERE entry_id = ?').run(entryId);
  const insert = statement(db, 'INSERT INTO schedule_entry_doctors (entry_id, doctor_id, position, role) VALUES (?, ?, ?, ?)');
  values.doctor_ids.forEach((doctorId, position) => insert.run(entryId, doctorId, position, values.doctor_roles[position] ?? CHECKED_ROLE));
}

/** The stored columns of a meeting, in the order the write statements name them. */
function writeParams(values: EntryValues): (string | number | null)[] {
  return [
    values.year,
    values.semester,
    values.course_code,
    values.section_name,
    values.day,
    values.start_time,
    parseHHMM(values.start_time),
    values.duration_mins,
    displayRoom(values.room),
    roomKey(values.room),
    values.part_of_term,
    values.joint_group,
    values.campus,
  ];
}
const WRITE_COLUMNS = 'year, semester, course_code, section_name, day, start_time, start_min, duration_mins, room, room_key, part_of_term, joint_group, campus';

/** The row a write stores, as a read would give it back. */
export function entryRow(id: number, values: EntryValues): EntryRow {
  return { ...values, id, room: displayRoom(values.room), start_min: parseHHMM(values.start_time) ?? 0, room_key: roomKey(values.room) };
}

export function insertEntry(db: Db, values: EntryValues, createdAt: string): number {
  const result = statement(db, `INSERT INTO schedule_entries (${WRITE_COLUMNS}, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`).run(...writeParams(values), createdAt);
  const id = Number(result.lastInsertRowid);
  writeDoctors(db, id, values);
  return id;
}

export function updateEntry(db: Db, id: number, values: EntryValues): void {
  const assignments = WRITE_COLUMNS.split(', ').map((column) => `${column} = ?`).join(', ');
  statement(db, `UPDATE schedule_entries SET ${assignments} WHERE id = ?`).run(...writeParams(values), id);
  writeDoctors(db, id, values);
}

export function deleteEntry(db: Db, id: number): boolean {
  return statement(db, 'DELETE FROM schedule_entries WHERE id = ?').run(id).changes > 0;
}

/** Each room the timetable uses (by room key), with one of its spellings. */
export function roomsInUse(db: Db): { room: string; room_key: string }[] {
  return statement<[], { room: string; room_key: string }>(db, 'SELECT MIN(room) AS room, room_key FROM schedule_entries WHERE room_key IS NOT NULL GROUP BY room_key').all();
}

export function countEntries(db: Db): number {
  return statement<[], number>(db, 'SELECT COUNT(*) FROM schedule_entries').pluck().get() ?? 0;
}

/** Entries from before terms existed (migration 0005) take the given term and campus. */
export function settleUntermedEntries(db: Db, term: Term, fallbackCampus: string): number {
  const moved = statement(db, 'UPDATE schedule_entries SET year = ?, semester = ? WHERE year IS NULL OR semester IS NULL').run(term.year, term.semester).changes;
  statement(db, 'UPDATE schedule_entries SET campus = ? WHERE campus IS NULL').run(fallbackCampus);
  return moved;
}

export function hasUntermedEntries(db: Db): boolean {
  return statement(db, 'SELECT 1 FROM schedule_entries WHERE year IS NULL OR semester IS NULL OR campus IS NULL LIMIT 1').get() !== undefined;
}

/** The term's parts of term that are stored (the whole term, code 1, needs no row). */
export function termParts(db: Db, term: Term): PartOfTerm[] {
  return statement<[number, string], PartOfTerm>(db, 'SELECT code, name, start_date, end_date FROM term_parts WHERE year = ? AND semester = ? ORDER BY start_date, code')
    .all(term.year, term.semester);
}

export function upsertPart(db: Db, term: Term, part: PartOfTerm): void {
  statement(db, 
    `INSERT INTO term_parts (year, semester, code, name, start_date, end_date) VALUES (?, ?, ?, ?, ?, ?)
     ON CONFLICT (year, semester, code) DO UPDATE SET name = excluded.name, start_date = excluded.start_date, end_date = excluded.end_date`,
  ).run(term.year, term.semester, part.code, part.name, part.start_date, part.end_date);
}

export function deletePart(db: Db, term: Term, code: string): boolean {
  return statement(db, 'DELETE FROM term_parts WHERE year = ? AND semester = ? AND code = ?').run(term.year, term.semester, code).changes > 0;
}

export function entriesInPart(db: Db, term: Term, code: string): number {
  return statement<[number, string, string], number>(db, 'SELECT COUNT(*) FROM schedule_entries WHERE year = ? AND semester = ? AND part_of_term = ?').pluck().get(term.year, term.semester, code) ?? 0;
}

/** The terms that have a timetable, newest first, with how many meetings each holds. */
export function termsWithEntries(db: Db): (Term & { entries: number })[] {
  return statement<[], Term & { entries: number }>(db, 
      `SELECT year, semester, COUNT(*) AS entries FROM schedule_entries WHERE year IS NOT NULL GROUP BY year, semester
       ORDER BY year DESC, ${SEMESTER_ORDER_SQL} DESC`,
    )
    .all();
}

/** The meetings of one joint group in a term. */
export function jointGroupEntries(db: Db, term: Term, group: string): EntryRow[] {
  return statement<[number, string, string], StoredRow>(db, `SELECT ${COLUMNS} FROM schedule_entries e WHERE e.year = ? AND e.semester = ? AND e.joint_group = ? ORDER BY e.course_code, e.section_name, e.id`)
    .all(term.year, term.semester, group)
    .map(fromStored);
}

/** Keeps a clash an import stored on purpose, between a new meeting and an existing one. */
export function insertClash(db: Db, entryId: number, otherId: number, detail: string): void {
  statement(db, 'INSERT OR IGNORE INTO schedule_clashes (entry_id, other_id, detail) VALUES (?, ?, ?)').run(entryId, otherId, detail);
}

/** A changed meeting passed every rule: the clashes it was stored with are gone. */
export function clearClashes(db: Db, entryId: number): void {
  statement(db, 'DELETE FROM schedule_clashes WHERE entry_id = ? OR other_id = ?').run(entryId, entryId);
}

export interface StoredClash {
  entry_id: number;
  other_id: number;
  detail: string;
}

/** The kept clashes that involve any of the given meetings. */
export function clashesOf(db: Db, entryIds: readonly number[]): StoredClash[] {
  if (entryIds.length === 0) return [];
  return statement<[string, string], StoredClash>(
    db,
    `SELECT entry_id, other_id, detail FROM schedule_clashes
     WHERE entry_id IN (SELECT value FROM json_each(?)) OR other_id IN (SELECT value FROM json_each(?)) ORDER BY rowid`,
  ).all(JSON.stringify(entryIds), JSON.stringify(entryIds));
}
