import { sql } from 'kysely';
import type { Db } from '../db/store';
import { inBatches, isRowId, readInBatches } from '../db/batches';
import { doctorNameKey } from '../domain/teaching';
import { prepared } from '../db/prepared';
import { knownRead, mapRead, type PendingRead } from '../db/read-together';
import { invalid } from '../domain/errors';
import { echo } from '../domain/bounds';
import type { Doctor, DoctorRecord } from './schema';

/** The rows this repository reads and writes, for features that read doctors through it. */
export type { Doctor, DoctorRecord };

/**
 * Instructors belong to the campus: one row (one calendar) per person, found by name, whatever
 * departments they teach for. A department sees the instructors it lists, each with the courses
 * they may teach there.
 */

/** A department's view of its instructors: the person, and the courses they may teach there. */
const listed = (db: Db, department: number) =>
  db
    .selectFrom('doctors as d')
    .innerJoin('department_doctors as l', 'l.doctor_id', 'd.id')
    .select(['d.id', 'd.name', 'l.allowed_courses', 'd.available_days', 'd.available_time'])
    .where('l.department_id', '=', department);

/**
 * Upserts the people (by name; their availability from the file) and lists them in the department
 * with the courses the file gives. An instructor another department lists too keeps the hours they
 * have (the registrar sets a shared instructor's hours) unless `setsSharedHours`: answered in `kept`.
 */
export async function upsertDoctors(
  db: Db,
  department: number,
  doctors: readonly DoctorRecord[],
  setsSharedHours: boolean,
): Promise<{ processed: number; kept: string[] }> {
  // Two spellings of one name are one doctor: the last listing wins.
  const unique = [...new Map(doctors.map((d) => [doctorNameKey(d.name), d])).entries()];
  const kept: string[] = [];
  await inBatches(unique, async (batch) => {
    const shared = setsSharedHours
      ? new Set<string>()
      : new Set(
          (
            await db
              .selectFrom('doctors as d')
              .innerJoin('department_doctors as l', 'l.doctor_id', 'd.id')
              .select('d.name_key')
              .where('l.department_id', '!=', department)
              .where(
                'd.name_key',
                'in',
                batch.map(([key]) => key),
              )
              .execute()
          ).map((r) => r.name_key),
        );
    for (const [key, d] of batch) if (shared.has(key)) kept.push(d.name);
    const people = await db
      .insertInto('doctors')
      .values(batch.map(([name_key, d]) => ({ name: d.name, name_key, available_days: d.available_days, available_time: d.available_time })))
      .onConflict((oc) =>
        oc.column('name_key').doUpdateSet((eb) => ({
          name: eb.ref('excluded.name'),
          // A shared instructor's hours stay as they are (sql: the stored value) unless this caller sets them.
          available_days: sql<
            string | null
          >`CASE WHEN ${eb.ref('doctors.name_key')} IN (${sql.join(shared.size > 0 ? [...shared] : [''])}) THEN ${eb.ref('doctors.available_days')} ELSE ${eb.ref('excluded.available_days')} END`,
          available_time: sql<
            string | null
          >`CASE WHEN ${eb.ref('doctors.name_key')} IN (${sql.join(shared.size > 0 ? [...shared] : [''])}) THEN ${eb.ref('doctors.available_time')} ELSE ${eb.ref('excluded.available_time')} END`,
        })),
      )
      .returning(['id', 'name_key'])
      .execute();
    const ids = new Map(people.map((p) => [p.name_key, p.id]));
    await db
      .insertInto('department_doctors')
      .values(batch.map(([name_key, d]) => ({ department_id: department, doctor_id: ids.get(name_key) as number, allowed_courses: d.allowed_courses })))
      .onConflict((oc) => oc.columns(['department_id', 'doctor_id']).doUpdateSet((eb) => ({ allowed_courses: eb.ref('excluded.allowed_courses') })))
      .execute();
  });
  return { processed: doctors.length, kept };
}

/**
 * Lists instructors in a department, adding the people not yet on the campus (a person already
 * there keeps their availability: another department listed them first). Answers their ids, in order.
 */
export async function ensureDoctors(db: Db, department: number, doctors: readonly DoctorRecord[]): Promise<number[]> {
  const ids = new Map<string, number>();
  await inBatches(doctors, async (batch) => {
    await db
      .insertInto('doctors')
      .values(batch.map((d) => ({ name: d.name, name_key: doctorNameKey(d.name), available_days: d.available_days, available_time: d.available_time })))
      .onConflict((oc) => oc.column('name_key').doNothing())
      .execute();
    const keys = batch.map((d) => doctorNameKey(d.name));
    for (const row of await db.selectFrom('doctors').select(['id', 'name_key']).where('name_key', 'in', keys).execute()) ids.set(row.name_key, row.id);
    const lost = batch.find((d) => !ids.has(doctorNameKey(d.name)));
    if (lost) throw invalid(`The instructor name "${echo(lost.name, 100)}" cannot be stored: give a name of letters, digits and spaces`);
    await db
      .insertInto('department_doctors')
      .values(batch.map((d) => ({ department_id: department, doctor_id: ids.get(doctorNameKey(d.name)) as number, allowed_courses: d.allowed_courses })))
      .onConflict((oc) => oc.columns(['department_id', 'doctor_id']).doNothing())
      .execute();
  });
  return doctors.map((d) => ids.get(doctorNameKey(d.name)) as number);
}

/** Adds one instructor to a department: a new person, or one of the campus another department lists. */
export async function insertDoctor(db: Db, department: number, doctor: DoctorRecord): Promise<Doctor> {
  const [id] = await ensureDoctors(db, department, [doctor]);
  return { ...doctor, id: id as number };
}

/** The person of that name on the campus, if any, and whether the department lists them. */
export async function campusDoctorByName(db: Db, department: number, name: string): Promise<{ id: number; name: string; listed: boolean } | undefined> {
  const row = await db
    .selectFrom('doctors as d')
    .leftJoin('department_doctors as l', (join) => join.onRef('l.doctor_id', '=', 'd.id').on('l.department_id', '=', department))
    .select(['d.id', 'd.name', 'l.department_id'])
    .where('d.name_key', '=', doctorNameKey(name))
    .executeTakeFirst();
  return row ? { id: row.id, name: row.name, listed: row.department_id !== null } : undefined;
}

/**
 * The people of the campus with these names whom the department does not list (other departments'
 * instructors), by name key: one person teaches in one place at a time, whatever department lists them.
 */
export async function campusDoctorsByNames(
  db: Db,
  department: number,
  names: readonly string[],
): Promise<Map<string, { id: number; name: string; available_days: string | null; available_time: string | null }>> {
  const keys = [...new Set(names.map(doctorNameKey))];
  const rows = await readInBatches(keys, (batch) =>
    db
      .selectFrom('doctors as d')
      .leftJoin('department_doctors as l', (join) => join.onRef('l.doctor_id', '=', 'd.id').on('l.department_id', '=', department))
      .select(['d.id', 'd.name', 'd.name_key', 'd.available_days', 'd.available_time'])
      .where('d.name_key', 'in', batch)
      .where('l.department_id', 'is', null)
      .execute(),
  );
  return new Map(rows.map((r) => [r.name_key, { id: r.id, name: r.name, available_days: r.available_days, available_time: r.available_time }]));
}

export async function findDoctorByName(db: Db, department: number, name: string): Promise<Doctor | undefined> {
  return listed(db, department).where('d.name_key', '=', doctorNameKey(name)).executeTakeFirst();
}

const doctorsWithIds = prepared((db: Db, department: number, ids: number[]) => listed(db, department).where('d.id', 'in', ids));

export async function getDoctor(db: Db, department: number, id: number): Promise<Doctor | undefined> {
  if (!isRowId(id)) return undefined;
  return doctorsWithIds.first(db, department, [id]);
}

/** Lists up to this long are read with a statement kept for their length; longer ones in slices. */
const KEPT_LIST_LENGTH = 8;

/** The department's instructors with the given ids (those it lists), by id. */
export async function doctorsById(db: Db, department: number, ids: Iterable<number>): Promise<Map<number, Doctor>> {
  const wanted = [...new Set(ids)].filter(isRowId);
  if (wanted.length === 0) return new Map();
  const rows =
    wanted.length <= KEPT_LIST_LENGTH
      ? await doctorsWithIds.rows(db, department, wanted)
      : await readInBatches(wanted, (batch) => listed(db, department).where('d.id', 'in', batch).execute());
  return new Map(rows.map((d) => [d.id, d]));
}

/** doctorsById for a meeting's few instructors, to be read with other reads (see readTogether). */
export function doctorsByIdRead(db: Db, department: number, ids: Iterable<number>): PendingRead<Map<number, Doctor>> {
  const wanted = [...new Set(ids)].filter(isRowId);
  if (wanted.length === 0) return knownRead(new Map<number, Doctor>());
  const byId = (rows: readonly Doctor[]): Map<number, Doctor> => new Map(rows.map((d): [number, Doctor] => [d.id, d]));
  if (wanted.length <= KEPT_LIST_LENGTH) return mapRead(doctorsWithIds.read(db, department, wanted), byId);
  return { query: listed(db, department).where('d.id', 'in', wanted).compile(), answer: (rows) => byId(rows as Doctor[]) };
}

/** The campus's names of the given people (any department's), by id: how other departments' meetings name them. */
export async function doctorNames(db: Db, ids: Iterable<number>): Promise<Map<number, string>> {
  const wanted = [...new Set(ids)].filter(isRowId);
  if (wanted.length === 0) return new Map();
  const rows = await readInBatches(wanted, (batch) => db.selectFrom('doctors').select(['id', 'name']).where('id', 'in', batch).execute());
  return new Map(rows.map((d) => [d.id, d.name]));
}

/** Every instructor of the department, by name in any case. */
export async function listDoctors(db: Db, department: number): Promise<Doctor[]> {
  return listed(db, department)
    .orderBy(sql`lower(d.name)`)
    .orderBy('d.id')
    .execute();
}

export async function countDoctors(db: Db, department: number): Promise<number> {
  const row = await db
    .selectFrom('department_doctors')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('department_id', '=', department)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}
