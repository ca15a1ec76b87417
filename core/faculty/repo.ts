import { sql } from 'kysely';
import type { Db } from '../db/store';
import { inBatches, isRowId, readInBatches } from '../db/batches';
import { doctorNameKey } from '../domain/teaching';
import { prepared } from '../db/prepared';
import type { Doctor, DoctorRecord } from './schema';

/** The rows this repository reads and writes, for features that read doctors through it. */
export type { Doctor, DoctorRecord };

const COLUMNS = ['id', 'name', 'allowed_courses', 'available_days', 'available_time'] as const;

export async function upsertDoctors(db: Db, doctors: readonly DoctorRecord[]): Promise<number> {
  // Two spellings of one name are one doctor: the last listing wins, as it did row by row.
  const unique = [...new Map(doctors.map((d) => [doctorNameKey(d.name), d])).entries()];
  await inBatches(unique, (batch) =>
    db
      .insertInto('doctors')
      .values(batch.map(([name_key, d]) => ({ name: d.name, name_key, allowed_courses: d.allowed_courses, available_days: d.available_days, available_time: d.available_time })))
      .onConflict((oc) =>
        oc.column('name_key').doUpdateSet((eb) => ({
          name: eb.ref('excluded.name'),
          allowed_courses: eb.ref('excluded.allowed_courses'),
          available_days: eb.ref('excluded.available_days'),
          available_time: eb.ref('excluded.available_time'),
        })),
      )
      .execute(),
  );
  return doctors.length;
}

export async function insertDoctor(db: Db, doctor: DoctorRecord): Promise<Doctor> {
  const { id } = await db
    .insertInto('doctors')
    .values({ name: doctor.name, name_key: doctorNameKey(doctor.name), allowed_courses: doctor.allowed_courses, available_days: doctor.available_days, available_time: doctor.available_time })
    .returning('id')
    .executeTakeFirstOrThrow();
  return { id, ...doctor };
}

/** Adds new doctors (none of whose names is taken) with few statements; answers their ids, in order. */
export async function insertDoctors(db: Db, doctors: readonly DoctorRecord[]): Promise<number[]> {
  const ids = new Map<string, number>();
  await inBatches(doctors, async (batch) => {
    const rows = await db
      .insertInto('doctors')
      .values(batch.map((d) => ({ name: d.name, name_key: doctorNameKey(d.name), allowed_courses: d.allowed_courses, available_days: d.available_days, available_time: d.available_time })))
      .returning(['id', 'name_key'])
      .execute();
    for (const row of rows) ids.set(row.name_key, row.id);
  });
  return doctors.map((d) => ids.get(doctorNameKey(d.name)) as number);
}

export async function findDoctorByName(db: Db, name: string): Promise<Doctor | undefined> {
  return db.selectFrom('doctors').select(COLUMNS).where('name_key', '=', doctorNameKey(name)).executeTakeFirst();
}

const doctorsWithIds = prepared((db: Db, ids: number[]) => db.selectFrom('doctors').select(COLUMNS).where('id', 'in', ids));

export async function getDoctor(db: Db, id: number): Promise<Doctor | undefined> {
  if (!isRowId(id)) return undefined;
  return doctorsWithIds.first(db, [id]);
}

/** Lists up to this long are read with a statement kept for their length; longer ones in slices. */
const KEPT_LIST_LENGTH = 8;

/** The doctors with the given ids (those that exist), by id. */
export async function doctorsById(db: Db, ids: Iterable<number>): Promise<Map<number, Doctor>> {
  const wanted = [...new Set(ids)].filter(isRowId);
  if (wanted.length === 0) return new Map();
  const rows = wanted.length <= KEPT_LIST_LENGTH ? await doctorsWithIds.rows(db, wanted) : await readInBatches(wanted, (batch) => db.selectFrom('doctors').select(COLUMNS).where('id', 'in', batch).execute());
  return new Map(rows.map((d) => [d.id, d]));
}

/** Every doctor, by name in any case. */
export async function listDoctors(db: Db): Promise<Doctor[]> {
  return db.selectFrom('doctors').select(COLUMNS).orderBy(sql`lower(name)`).orderBy('id').execute();
}

export async function countDoctors(db: Db): Promise<number> {
  const row = await db.selectFrom('doctors').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
  return Number(row.n);
}
