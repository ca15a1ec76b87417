import { sql } from 'kysely';
import type { Db } from '../db/store';
import { inBatches, isRowId, readInBatches } from '../db/batches';
import { reserveIds } from '../db/ids';
import { bulkInsert, type BulkColumn } from '../db/bulk';
import { isPostgres } from '../db/transactions';
import { prepared } from '../db/prepared';
import { knownRead, mapRead, readAlone, type PendingRead } from '../db/read-together';
import { parseHHMM } from '../domain/time';
import { SEMESTER_ORDER_SQL, type Term } from '../domain/terms';
import { WHOLE_TERM, type PartOfTerm } from '../domain/parts';
import type { Booking } from './conflicts';
import { displayRoom, roomKey } from '../domain/meetings';
import { CHECKED_ROLE, type InstructorRole } from '../domain/roles';

/** One stored meeting, with its instructors in order. */
export interface EntryRow {
  id: number;
  /** The meeting's id in every store: a laptop's copy and the campus server's name it alike (history and sync use it). */
  uid: string;
  /** The department whose timetable holds it. */
  department_id: number;
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

const COLUMNS = [
  'id',
  'uid',
  'department_id',
  'year',
  'semester',
  'course_code',
  'section_name',
  'day',
  'start_time',
  'start_min',
  'duration_mins',
  'room',
  'room_key',
  'part_of_term',
  'joint_group',
  'campus',
] as const;

type StoredRow = Omit<EntryRow, 'doctor_ids' | 'doctor_roles'>;
interface InstructorRow {
  entry_id: number;
  doctor_id: number;
  role: string;
}

/** Puts each meeting's instructors (rows ordered by entry and position) on its row. */
function withInstructors(rows: readonly StoredRow[], instructors: readonly InstructorRow[]): EntryRow[] {
  const byEntry = new Map<number, InstructorRow[]>();
  for (const row of instructors) {
    const list = byEntry.get(row.entry_id);
    if (list) list.push(row);
    else byEntry.set(row.entry_id, [row]);
  }
  return rows.map((row) => {
    const list = byEntry.get(row.id) ?? [];
    return { ...row, doctor_ids: list.map((d) => d.doctor_id), doctor_roles: list.map((d) => d.role as InstructorRole) };
  });
}

/** A meeting's row joined with one of its instructors (none: doctor_id null), ordered by meeting and position. */
type JoinedRow = StoredRow & { doctor_id: number | null; role: string | null };

/** Folds rows joined with their instructors into meetings, in the order of the rows. */
function foldInstructors(rows: readonly JoinedRow[]): EntryRow[] {
  const meetings: EntryRow[] = [];
  let last: EntryRow | undefined;
  for (const { doctor_id, role, ...row } of rows) {
    if (last?.id !== row.id) meetings.push((last = { ...row, doctor_ids: [], doctor_roles: [] }));
    if (doctor_id !== null) {
      last.doctor_ids.push(doctor_id);
      last.doctor_roles.push((role ?? CHECKED_ROLE) as InstructorRole);
    }
  }
  return meetings;
}

const ENTRY_WITH_INSTRUCTORS = sql.raw(
  'e.id, e.uid, e.department_id, e.year, e.semester, e.course_code, e.section_name, e.day, e.start_time, e.start_min, e.duration_mins, e.room, e.room_key, e.part_of_term, e.joint_group, e.campus, d.doctor_id, d.role',
);

/** The instructors the rules check: those who teach (coordinators and assistants are listed only). */
export function checkedInstructors(row: Pick<EntryRow, 'doctor_ids' | 'doctor_roles'>): number[] {
  return row.doctor_ids.filter((_, i) => (row.doctor_roles[i] ?? CHECKED_ROLE) === CHECKED_ROLE);
}

/** The booking the conflict rules see for a stored or proposed meeting; parts are the term's. */
export function bookingOf(
  row: Omit<EntryRow, 'start_min' | 'room_key' | 'id' | 'uid'> & { id?: number | null },
  parts: ReadonlyMap<string, PartOfTerm>,
): Booking {
  return {
    id: row.id ?? null,
    department: row.department_id,
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

const entryById = prepared(
  (_db: Db, department: number, id: number) =>
    sql<JoinedRow>`SELECT ${ENTRY_WITH_INSTRUCTORS} FROM schedule_entries e LEFT JOIN schedule_entry_doctors d ON d.entry_id = e.id
    WHERE e.id = ${id} AND e.department_id = ${department} ORDER BY d.position`,
);

export async function getEntry(db: Db, department: number, id: number): Promise<EntryRow | undefined> {
  if (!isRowId(id)) return undefined;
  return foldInstructors(await entryById.rows(db, department, id))[0];
}

const entryByUidQuery = prepared(
  (_db: Db, department: number, uid: string) =>
    sql<JoinedRow>`SELECT ${ENTRY_WITH_INSTRUCTORS} FROM schedule_entries e LEFT JOIN schedule_entry_doctors d ON d.entry_id = e.id
    WHERE e.uid = ${uid} AND e.department_id = ${department} ORDER BY d.position`,
);

/** A department's meeting by its id across stores. */
export async function entryByUid(db: Db, department: number, uid: string): Promise<EntryRow | undefined> {
  return foldInstructors(await entryByUidQuery.rows(db, department, uid))[0];
}

/** A department's meetings with the given ids across stores, with their instructors, read in slices. */
export async function entriesByUids(db: Db, department: number, uids: readonly string[]): Promise<EntryRow[]> {
  if (uids.length === 0) return [];
  const rows = (await readInBatches([...new Set(uids)], (batch) =>
    db.selectFrom('schedule_entries').select(COLUMNS).where('department_id', '=', department).where('uid', 'in', batch).execute(),
  )) as StoredRow[];
  const instructors = await readInBatches(
    rows.map((r) => r.id),
    (batch) =>
      db
        .selectFrom('schedule_entry_doctors')
        .select(['entry_id', 'doctor_id', 'role'])
        .where('entry_id', 'in', batch)
        .orderBy('entry_id')
        .orderBy('position')
        .execute(),
  );
  return withInstructors(rows, instructors);
}

const termOfEntry = prepared((db: Db, department: number, id: number) =>
  db.selectFrom('schedule_entries').select(['year', 'semester']).where('id', '=', id).where('department_id', '=', department),
);

/** The term a department's meeting is in now (undefined: no such meeting): a first look, before its locks are taken. */
export async function entryTerm(db: Db, department: number, id: number): Promise<Term | undefined> {
  if (!isRowId(id)) return undefined;
  const row = await termOfEntry.first(db, department, id);
  return row && row.year !== null ? { year: Number(row.year), semester: row.semester as Term['semester'] } : undefined;
}

/** The terms the department's meetings and sections without a time with the given ids are in now. */
export async function termsOfUids(db: Db, department: number, uids: readonly string[]): Promise<Term[]> {
  if (uids.length === 0) return [];
  const rows = await readInBatches([...new Set(uids)], (batch) =>
    db
      .selectFrom('schedule_entries')
      .select(['year', 'semester'])
      .where('department_id', '=', department)
      .where('uid', 'in', batch)
      .union(db.selectFrom('unscheduled_sections').select(['year', 'semester']).where('department_id', '=', department).where('uid', 'in', batch))
      .execute(),
  );
  const terms = new Map<string, Term>();
  for (const row of rows)
    if (row.year !== null) terms.set(`${row.year} ${row.semester}`, { year: Number(row.year), semester: row.semester as Term['semester'] });
  return [...terms.values()];
}

/** Which of the given ids across stores other departments' meetings hold. */
export async function uidsOfOtherDepartments(db: Db, department: number, uids: readonly string[]): Promise<Set<string>> {
  const rows = await readInBatches([...new Set(uids)], (batch) =>
    db
      .selectFrom('schedule_entries')
      .select('uid')
      .where('department_id', '!=', department)
      .where('uid', 'in', batch)
      .union(db.selectFrom('unscheduled_sections').select('uid').where('department_id', '!=', department).where('uid', 'in', batch))
      .execute(),
  );
  return new Set(rows.map((r) => r.uid));
}

/** Whether any department's meeting, or section without a time, has this id across stores. */
export async function uidInUse(db: Db, uid: string): Promise<boolean> {
  const meeting = await db.selectFrom('schedule_entries').select('id').where('uid', '=', uid).executeTakeFirst();
  return meeting !== undefined || (await db.selectFrom('unscheduled_sections').select('id').where('uid', '=', uid).executeTakeFirst()) !== undefined;
}

/** Gives a stored meeting the id another store knows it by (a laptop's first fetch adopting the server's ids). */
export async function setEntryUid(db: Db, department: number, id: number, uid: string): Promise<void> {
  await db.updateTable('schedule_entries').set({ uid }).where('id', '=', id).where('department_id', '=', department).execute();
}

/** A department's meetings in a term (every department's with `department` null), by course and section. */
export async function listEntries(db: Db, department: number | null, term: Term): Promise<EntryRow[]> {
  let query = db.selectFrom('schedule_entries').select(COLUMNS);
  if (department !== null) query = query.where('department_id', '=', department);
  const rows = (await query
    .where('year', '=', term.year)
    .where('semester', '=', term.semester)
    .orderBy('course_code')
    .orderBy('section_name')
    .orderBy('id')
    .execute()) as StoredRow[];
  if (rows.length === 0) return [];
  // The term's instructors in one read (not a list of thousands of ids).
  let instructorQuery = db
    .selectFrom('schedule_entry_doctors as d')
    .innerJoin('schedule_entries as e', 'e.id', 'd.entry_id')
    .select(['d.entry_id', 'd.doctor_id', 'd.role'])
    .where('e.year', '=', term.year)
    .where('e.semester', '=', term.semester);
  if (department !== null) instructorQuery = instructorQuery.where('e.department_id', '=', department);
  const instructors = await instructorQuery.orderBy('d.entry_id').orderBy('d.position').execute();
  return withInstructors(rows, instructors);
}

/**
 * A term's meetings of the given courses, without their instructors (what the curriculum rule
 * reads: when and where each section meets).
 */
const sectionQuery = prepared((db: Db, department: number, year: number, semester: Term['semester'], course: string, section: string) =>
  db
    .selectFrom('schedule_entries')
    .select(COLUMNS)
    .where('year', '=', year)
    .where('semester', '=', semester)
    .where('department_id', '=', department)
    .where('course_code', '=', course)
    .where('section_name', '=', section)
    .orderBy('id'),
);

/** The meetings of one section in a term (without their instructors), read by the section's index. */
export async function meetingsOfSection(db: Db, department: number, term: Term, course: string, section: string): Promise<EntryRow[]> {
  return readAlone(db, meetingsOfSectionRead(db, department, term, course, section));
}

/** meetingsOfSection, to be read with other reads (see readTogether). */
export function meetingsOfSectionRead(db: Db, department: number, term: Term, course: string, section: string): PendingRead<EntryRow[]> {
  return mapRead(sectionQuery.read(db, department, term.year, term.semester, course, section), (rows) =>
    (rows as StoredRow[]).map((row) => ({ ...row, doctor_ids: [], doctor_roles: [] })),
  );
}

export async function meetingsOfCourses(db: Db, department: number, term: Term, codes: readonly string[]): Promise<EntryRow[]> {
  if (codes.length === 0) return [];
  const rows = (await readInBatches([...new Set(codes)], (batch) =>
    db
      .selectFrom('schedule_entries')
      .select(COLUMNS)
      .where('department_id', '=', department)
      .where('year', '=', term.year)
      .where('semester', '=', term.semester)
      .where('course_code', 'in', batch)
      .orderBy('id')
      .execute(),
  )) as StoredRow[];
  return rows.map((row) => ({ ...row, doctor_ids: [], doctor_roles: [] }));
}

/** The meetings of a term sharing an instructor, the room or the section with a booking, near it in the week (see clashCandidates). */
const candidates = prepared(
  (
    db: Db,
    year: number,
    semester: string,
    doctorIds: number[],
    key: string | null,
    department: number,
    course: string,
    section: string,
    excludeId: number,
    dayPatterns: string[],
    from: number,
    until: number,
  ) => {
    // Three indexed lookups (the instructors' meetings, the room's, the section's) find the few ids
    // first; each row is then read by its id, with its instructors, so the term is never scanned:
    // SQLite keeps the order of a CROSS JOIN, PostgreSQL needs a LATERAL it cannot flatten (OFFSET 0).
    const row = isPostgres(db)
      ? sql`CROSS JOIN LATERAL (SELECT * FROM schedule_entries x WHERE x.id = c.id OFFSET 0) e`
      : sql`CROSS JOIN schedule_entries e ON e.id = c.id`;
    return sql<JoinedRow>`WITH c(id) AS MATERIALIZED (
        SELECT entry_id FROM schedule_entry_doctors WHERE doctor_id IN (${sql.join(doctorIds)})
        UNION SELECT id FROM schedule_entries WHERE year = ${year} AND semester = ${semester} AND room_key = ${key}
        UNION SELECT id FROM schedule_entries WHERE year = ${year} AND semester = ${semester} AND department_id = ${department} AND course_code = ${course} AND section_name = ${section})
      SELECT ${ENTRY_WITH_INSTRUCTORS} FROM c ${row} LEFT JOIN schedule_entry_doctors d ON d.entry_id = e.id
      WHERE e.year = ${year} AND e.semester = ${semester} AND e.id != ${excludeId} AND e.start_min < ${until} AND e.start_min + e.duration_mins > ${from}
        AND (${sql.join(
          dayPatterns.map((pattern) => sql`e.day LIKE ${pattern}`),
          sql` OR `,
        )})
      ORDER BY e.id, d.position`;
  },
);

/**
 * The term's meetings that could clash with a booking, other than `excludeId`: those of its
 * instructors and its room, in any department (an instructor has one calendar, a room one week),
 * and those of its section, that share a day with it and start or end within `margin` minutes of
 * it (the rules never compare meetings further apart; the travel rule's margin is the longest). A
 * narrowing in SQL: the rules themselves decide, on what it returns.
 */
export async function clashCandidates(db: Db, term: Term, booking: CandidateKeys, excludeId: number | null, margin: number): Promise<EntryRow[]> {
  return readAlone(db, clashCandidatesRead(db, term, booking, excludeId, margin));
}

/** What a booking's candidates are looked up by. */
interface CandidateKeys {
  department_id: number;
  doctor_ids: readonly number[];
  room: string;
  course_code: string;
  section_name: string;
  day: string;
  start_time: string;
  duration_mins: number;
}

/** clashCandidates, to be read with other reads (see readTogether). */
export function clashCandidatesRead(db: Db, term: Term, booking: CandidateKeys, excludeId: number | null, margin: number): PendingRead<EntryRow[]> {
  const doctors = booking.doctor_ids.filter(isRowId);
  const start = parseHHMM(booking.start_time) ?? 0;
  const days = [...new Set(booking.day)].map((letter) => `%${letter}%`);
  // No instructor: a list that names none (an empty list is not SQL).
  const read = candidates.read(
    db,
    term.year,
    term.semester,
    doctors.length > 0 ? doctors : [0],
    roomKey(booking.room),
    booking.department_id,
    booking.course_code,
    booking.section_name,
    excludeId ?? -1,
    days.length > 0 ? days : ['%'],
    start - margin,
    start + booking.duration_mins + margin,
  );
  return mapRead(read, foldInstructors);
}

/** The stored columns of a meeting. */
function storedValues(values: EntryValues) {
  return {
    uid: values.uid,
    department_id: values.department_id,
    year: values.year,
    semester: values.semester,
    course_code: values.course_code,
    section_name: values.section_name,
    day: values.day,
    start_time: values.start_time,
    start_min: parseHHMM(values.start_time) ?? 0,
    duration_mins: values.duration_mins,
    room: displayRoom(values.room),
    room_key: roomKey(values.room),
    part_of_term: values.part_of_term,
    joint_group: values.joint_group,
    campus: values.campus,
  };
}

const instructorRows = (
  entryId: number,
  values: Pick<EntryValues, 'doctor_ids' | 'doctor_roles'>,
): { entry_id: number; doctor_id: number; position: number; role: string }[] =>
  values.doctor_ids.map((doctorId, position) => ({ entry_id: entryId, doctor_id: doctorId, position, role: values.doctor_roles[position] ?? CHECKED_ROLE }));

const deleteInstructors = prepared((db: Db, entryId: number) => db.deleteFrom('schedule_entry_doctors').where('entry_id', '=', entryId));
const insertInstructors = prepared((db: Db, rows: { entry_id: number; doctor_id: number; position: number; role: string }[]) =>
  db.insertInto('schedule_entry_doctors').values(rows),
);

async function writeDoctors(db: Db, entryId: number, values: Pick<EntryValues, 'doctor_ids' | 'doctor_roles'>, replacing: boolean): Promise<void> {
  if (replacing) await deleteInstructors.run(db, entryId);
  const rows = instructorRows(entryId, values);
  if (rows.length > 0) await insertInstructors.run(db, rows);
}

/** The row a write stores, as a read would give it back. */
export function entryRow(id: number, values: EntryValues): EntryRow {
  return { ...values, id, room: displayRoom(values.room), start_min: parseHHMM(values.start_time) ?? 0, room_key: roomKey(values.room) };
}

const insertOne = prepared((db: Db, row: ReturnType<typeof storedValues> & { created_at: string }) =>
  db.insertInto('schedule_entries').values(row).returning('id'),
);

/** PostgreSQL: the meeting and its instructors in one statement (one round trip to the server, not two). */
const insertWithInstructors = prepared(
  (_db: Db, row: ReturnType<typeof storedValues> & { created_at: string }, instructors: { doctor_id: number; position: number; role: string }[]) => {
    const columns = Object.keys(row) as (keyof typeof row)[];
    return sql<{ entry_id: number }>`WITH e AS (
      INSERT INTO schedule_entries (${sql.join(columns.map((c) => sql.ref(c)))}) VALUES (${sql.join(columns.map((c) => row[c]))}) RETURNING id)
    INSERT INTO schedule_entry_doctors (entry_id, doctor_id, position, role)
    SELECT e.id, v.doctor_id, v.position, v.role FROM e, (VALUES ${sql.join(instructors.map((i) => sql`(${i.doctor_id}::integer, ${i.position}::integer, ${i.role}::text)`))}) AS v(doctor_id, position, role)
    RETURNING entry_id`;
  },
);

export async function insertEntry(db: Db, values: EntryValues, createdAt: string): Promise<number> {
  const row = { ...storedValues(values), created_at: createdAt };
  const instructors = instructorRows(0, values);
  if (isPostgres(db) && instructors.length > 0) {
    const inserted = await insertWithInstructors.first(
      db,
      row,
      instructors.map(({ doctor_id, position, role }) => ({ doctor_id, position, role })),
    );
    if (!inserted) throw new Error('The new meeting was not stored');
    return inserted.entry_id;
  }
  const inserted = await insertOne.first(db, row);
  if (!inserted) throw new Error('The new meeting was not stored');
  await writeDoctors(db, inserted.id, values, false);
  return inserted.id;
}

/** Inserts many meetings with few statements; answers their ids, in order. Call inside a transaction. */
const ENTRY_COLUMNS: BulkColumn<'schedule_entries'>[] = [
  { name: 'id', type: 'integer' },
  { name: 'uid', type: 'text' },
  { name: 'department_id', type: 'integer' },
  { name: 'year', type: 'integer' },
  { name: 'semester', type: 'text' },
  { name: 'course_code', type: 'text' },
  { name: 'section_name', type: 'text' },
  { name: 'day', type: 'text' },
  { name: 'start_time', type: 'text' },
  { name: 'start_min', type: 'integer' },
  { name: 'duration_mins', type: 'integer' },
  { name: 'room', type: 'text' },
  { name: 'room_key', type: 'text' },
  { name: 'part_of_term', type: 'text' },
  { name: 'joint_group', type: 'text' },
  { name: 'campus', type: 'text' },
  { name: 'created_at', type: 'text' },
];

const INSTRUCTOR_COLUMNS: BulkColumn<'schedule_entry_doctors'>[] = [
  { name: 'entry_id', type: 'integer' },
  { name: 'doctor_id', type: 'integer' },
  { name: 'position', type: 'integer' },
  { name: 'role', type: 'text' },
];

export async function insertEntries(db: Db, list: readonly EntryValues[], createdAt: string): Promise<number[]> {
  const ids = await reserveIds(db, 'schedule_entries', list.length);
  await bulkInsert(
    db,
    'schedule_entries',
    ENTRY_COLUMNS,
    list.map((values, i) => ({ id: ids[i] as number, ...storedValues(values), created_at: createdAt })),
  );
  await bulkInsert(
    db,
    'schedule_entry_doctors',
    INSTRUCTOR_COLUMNS,
    list.flatMap((values, i) => instructorRows(ids[i] as number, values)),
  );
  return ids;
}

const updateOne = prepared((db: Db, id: number, row: ReturnType<typeof storedValues>) => db.updateTable('schedule_entries').set(row).where('id', '=', id));

export async function updateEntry(db: Db, id: number, values: EntryValues): Promise<void> {
  await updateOne.run(db, id, storedValues(values));
  await writeDoctors(db, id, values, true);
}

const deleteOne = prepared((db: Db, department: number, id: number) =>
  db.deleteFrom('schedule_entries').where('id', '=', id).where('department_id', '=', department),
);

export async function deleteEntry(db: Db, department: number, id: number): Promise<boolean> {
  if (!isRowId(id)) return false;
  return ((await deleteOne.run(db, department, id)).numAffectedRows ?? 0n) > 0n;
}

/** Deletes every meeting of a department's term (their instructors and clashes go with them); answers how many. */
export async function deleteTermEntries(db: Db, department: number, term: Term): Promise<number> {
  const result = await db
    .deleteFrom('schedule_entries')
    .where('department_id', '=', department)
    .where('year', '=', term.year)
    .where('semester', '=', term.semester)
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}

/** Every department's meetings of a term held in a room (all rooms, or those of `keys`), in room and time order. */
export async function meetingsInRooms(
  db: Db,
  term: Term,
  keys: readonly string[] | null,
): Promise<
  {
    id: number;
    department_id: number;
    course_code: string;
    section_name: string;
    day: string;
    start_time: string;
    start_min: number;
    duration_mins: number;
    room: string | null;
    room_key: string | null;
    part_of_term: string;
  }[]
> {
  let query = db
    .selectFrom('schedule_entries')
    .select(['id', 'department_id', 'course_code', 'section_name', 'day', 'start_time', 'start_min', 'duration_mins', 'room', 'room_key', 'part_of_term'])
    .where('year', '=', term.year)
    .where('semester', '=', term.semester)
    .where('room_key', 'is not', null);
  if (keys !== null) query = query.where('room_key', 'in', [...keys]);
  return query.orderBy('room_key').orderBy('start_min').orderBy('day').execute();
}

/** Other departments' meetings in a term taught by instructors the department shares with them (one row per meeting and instructor). */
export async function sharedInstructorsElsewhere(
  db: Db,
  term: Term,
  department: number,
): Promise<{ doctor_id: number; department_id: number; course_code: string; section_name: string; day: string; start_min: number; duration_mins: number }[]> {
  return db
    .selectFrom('schedule_entries as e')
    .innerJoin('schedule_entry_doctors as d', 'd.entry_id', 'e.id')
    .innerJoin('department_doctors as mine', (join) => join.onRef('mine.doctor_id', '=', 'd.doctor_id').on('mine.department_id', '=', department))
    .select(['d.doctor_id', 'e.department_id', 'e.course_code', 'e.section_name', 'e.day', 'e.start_min', 'e.duration_mins'])
    .where('e.year', '=', term.year)
    .where('e.semester', '=', term.semester)
    .where('e.department_id', '!=', department)
    .orderBy('d.doctor_id')
    .orderBy('e.start_min')
    .execute();
}

/** Each room the department's timetable uses (by room key), with one of its spellings. */
export async function roomsInUse(db: Db, department: number): Promise<{ room: string; room_key: string }[]> {
  const rows = await db
    .selectFrom('schedule_entries')
    .select([(eb) => eb.fn.min('room').as('room'), 'room_key'])
    .where('department_id', '=', department)
    .where('room_key', 'is not', null)
    .groupBy('room_key')
    .orderBy('room_key')
    .execute();
  return rows as { room: string; room_key: string }[];
}

export async function countEntries(db: Db, department: number): Promise<number> {
  const row = await db
    .selectFrom('schedule_entries')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('department_id', '=', department)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/** Entries without a term (a store made before entries had one) take the given term and campus. */
export async function settleUntermedEntries(db: Db, term: Term, fallbackCampus: string): Promise<number> {
  const moved = await db
    .updateTable('schedule_entries')
    .set({ year: term.year, semester: term.semester })
    .where((eb) => eb.or([eb('year', 'is', null), eb('semester', 'is', null)]))
    .executeTakeFirst();
  await db.updateTable('schedule_entries').set({ campus: fallbackCampus }).where('campus', 'is', null).execute();
  return Number(moved.numUpdatedRows);
}

export async function hasUntermedEntries(db: Db): Promise<boolean> {
  const row = await db
    .selectFrom('schedule_entries')
    .select('id')
    .where((eb) => eb.or([eb('year', 'is', null), eb('semester', 'is', null), eb('campus', 'is', null)]))
    .limit(1)
    .executeTakeFirst();
  return row !== undefined;
}

/** The term's parts of term that are stored (the whole term, code 1, needs no row). */
const partsOfTerm = prepared((db: Db, department: number, year: number, semester: string) =>
  db
    .selectFrom('term_parts')
    .select(['code', 'name', 'start_date', 'end_date'])
    .where('department_id', '=', department)
    .where('year', '=', year)
    .where('semester', '=', semester)
    .orderBy('start_date')
    .orderBy('code'),
);

export async function termParts(db: Db, department: number, term: Term): Promise<PartOfTerm[]> {
  return readAlone(db, termPartsRead(db, department, term));
}

/** termParts, to be read with other reads (see readTogether). */
export function termPartsRead(db: Db, department: number, term: Term): PendingRead<PartOfTerm[]> {
  return partsOfTerm.read(db, department, term.year, term.semester);
}

/** The parts of term of several departments in one term, by department. */
export async function departmentsParts(db: Db, departments: readonly number[], term: Term): Promise<Map<number, PartOfTerm[]>> {
  const parts = new Map<number, PartOfTerm[]>(departments.map((d) => [d, []]));
  if (departments.length === 0) return parts;
  const rows = await db
    .selectFrom('term_parts')
    .select(['department_id', 'code', 'name', 'start_date', 'end_date'])
    .where('department_id', 'in', [...departments])
    .where('year', '=', term.year)
    .where('semester', '=', term.semester)
    .orderBy('start_date')
    .orderBy('code')
    .execute();
  for (const { department_id, ...part } of rows) parts.get(department_id)?.push(part);
  return parts;
}

export async function upsertPart(db: Db, department: number, term: Term, part: PartOfTerm): Promise<void> {
  await db
    .insertInto('term_parts')
    .values({
      department_id: department,
      year: term.year,
      semester: term.semester,
      code: part.code,
      name: part.name,
      start_date: part.start_date,
      end_date: part.end_date,
    })
    .onConflict((oc) =>
      oc
        .columns(['department_id', 'year', 'semester', 'code'])
        .doUpdateSet((eb) => ({ name: eb.ref('excluded.name'), start_date: eb.ref('excluded.start_date'), end_date: eb.ref('excluded.end_date') })),
    )
    .execute();
}

export async function deletePart(db: Db, department: number, term: Term, code: string): Promise<boolean> {
  const result = await db
    .deleteFrom('term_parts')
    .where('department_id', '=', department)
    .where('year', '=', term.year)
    .where('semester', '=', term.semester)
    .where('code', '=', code)
    .executeTakeFirst();
  return result.numDeletedRows > 0n;
}

export async function entriesInPart(db: Db, department: number, term: Term, code: string): Promise<number> {
  const row = await db
    .selectFrom('schedule_entries')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('department_id', '=', department)
    .where('year', '=', term.year)
    .where('semester', '=', term.semester)
    .where('part_of_term', '=', code)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/** The terms that have a timetable, newest first, with how many meetings each holds. */
export async function termsWithEntries(db: Db, department: number): Promise<(Term & { entries: number })[]> {
  const { rows } = await sql<Term & { entries: number }>`
    SELECT year, semester, COUNT(*) AS entries FROM schedule_entries WHERE department_id = ${department} AND year IS NOT NULL GROUP BY year, semester
    ORDER BY year DESC, ${sql.raw(SEMESTER_ORDER_SQL)} DESC`.execute(db);
  return rows.map((row) => ({ ...row, entries: Number(row.entries) }));
}

/** The meetings of one joint group in a term. */
const groupMembers = prepared(
  (_db: Db, department: number, year: number, semester: string, group: string) =>
    sql<JoinedRow>`SELECT ${ENTRY_WITH_INSTRUCTORS} FROM schedule_entries e LEFT JOIN schedule_entry_doctors d ON d.entry_id = e.id
    WHERE e.joint_group = ${group} AND e.department_id = ${department} AND e.year = ${year} AND e.semester = ${semester} ORDER BY e.course_code, e.section_name, e.id, d.position`,
);

export async function jointGroupEntries(db: Db, department: number, term: Term, group: string): Promise<EntryRow[]> {
  return readAlone(db, jointGroupEntriesRead(db, department, term, group));
}

/** jointGroupEntries, to be read with other reads (see readTogether). */
export function jointGroupEntriesRead(db: Db, department: number, term: Term, group: string): PendingRead<EntryRow[]> {
  return mapRead(groupMembers.read(db, department, term.year, term.semester, group), foldInstructors);
}

/** Keeps the clashes an import stored on purpose, each between a new meeting and another (once each). */
export async function insertClashes(db: Db, clashes: readonly { entry_id: number; other_id: number; detail: string }[]): Promise<void> {
  const unique = [...new Map(clashes.map((c) => [`${c.entry_id}|${c.other_id}|${c.detail}`, c])).values()];
  await inBatches(unique, (batch) =>
    db
      .insertInto('schedule_clashes')
      .values(batch)
      .onConflict((oc) => oc.doNothing())
      .execute(),
  );
}

/** A changed meeting passed every rule: the clashes it was stored with are gone. */
export async function clearClashes(db: Db, entryId: number): Promise<void> {
  await db
    .deleteFrom('schedule_clashes')
    .where((eb) => eb.or([eb('entry_id', '=', entryId), eb('other_id', '=', entryId)]))
    .execute();
}

export interface StoredClash {
  entry_id: number;
  other_id: number;
  detail: string;
}

/** The kept clashes that involve any of the given meetings, in the order they were stored. */
export async function clashesOf(db: Db, entryIds: readonly number[]): Promise<StoredClash[]> {
  if (entryIds.length === 0) return [];
  const wanted = new Set(entryIds);
  // The clashes of a term's meetings: read by the lower of the two ids, which a term's meetings bound.
  const low = entryIds.reduce((min, id) => Math.min(min, id), Number.POSITIVE_INFINITY);
  const high = entryIds.reduce((max, id) => Math.max(max, id), 0);
  const rows = await db
    .selectFrom('schedule_clashes')
    .select(['entry_id', 'other_id', 'detail'])
    .where((eb) => eb.or([eb.between('entry_id', low, high), eb.between('other_id', low, high)]))
    .orderBy('entry_id')
    .orderBy('other_id')
    .orderBy('detail')
    .execute();
  return rows.filter((row) => wanted.has(row.entry_id) || wanted.has(row.other_id));
}

/** Which of the given meetings staff locked (auto-fill never moves them). */
export async function lockedEntries(db: Db, entryIds: readonly number[]): Promise<Set<number>> {
  if (entryIds.length === 0) return new Set();
  const low = entryIds.reduce((min, id) => Math.min(min, id), Number.POSITIVE_INFINITY);
  const high = entryIds.reduce((max, id) => Math.max(max, id), 0);
  const wanted = new Set(entryIds);
  const rows = await db.selectFrom('schedule_entry_locks').select('entry_id').where('entry_id', '>=', low).where('entry_id', '<=', high).execute();
  return new Set(rows.map((r) => r.entry_id).filter((id) => wanted.has(id)));
}

/** Whether a meeting is locked, to be read with other reads (see readTogether). */
export function entryLockedRead(db: Db, entryId: number): PendingRead<boolean> {
  if (!isRowId(entryId)) return knownRead(false);
  return mapRead(lockOfEntry.read(db, entryId), (rows) => rows.length > 0);
}

const lockOfEntry = prepared((db: Db, entryId: number) => db.selectFrom('schedule_entry_locks').select('entry_id').where('entry_id', '=', entryId));

/** Locks or unlocks a meeting (of the caller's department: the caller has read it). */
export async function setEntryLocked(db: Db, entryId: number, locked: boolean, at: string): Promise<void> {
  if (locked)
    await db
      .insertInto('schedule_entry_locks')
      .values({ entry_id: entryId, locked_at: at })
      .onConflict((oc) => oc.doNothing())
      .execute();
  else await db.deleteFrom('schedule_entry_locks').where('entry_id', '=', entryId).execute();
}
