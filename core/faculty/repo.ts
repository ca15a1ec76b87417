import { statement, type Db } from '../db/connection';
import { doctorNameKey } from '../domain/teaching';
import type { Doctor, DoctorRecord } from './schema';

/** The rows this repository reads and writes, for features that read doctors through it. */
export type { Doctor, DoctorRecord };

const COLUMNS = 'id, name, allowed_courses, available_days, available_time';

export function upsertDoctors(db: Db, doctors: readonly DoctorRecord[]): number {
  const statement = db.prepare(`INSERT INTO doctors (name, name_key, allowed_courses, available_days, available_time)
    VALUES (@name, @name_key, @allowed_courses, @available_days, @available_time)
    ON CONFLICT (name_key) DO UPDATE SET name = excluded.name, allowed_courses = excluded.allowed_courses,
      available_days = excluded.available_days, available_time = excluded.available_time`);
  for (const d of doctors) statement.run({ ...d, name_key: doctorNameKey(d.name) });
  return doctors.length;
}

export function insertDoctor(db: Db, doctor: DoctorRecord): Doctor {
  const result = db
    .prepare('INSERT INTO doctors (name, name_key, allowed_courses, available_days, available_time) VALUES (?, ?, ?, ?, ?)')
    .run(doctor.name, doctorNameKey(doctor.name), doctor.allowed_courses, doctor.available_days, doctor.available_time);
  return { id: Number(result.lastInsertRowid), ...doctor };
}

export function findDoctorByName(db: Db, name: string): Doctor | undefined {
  return db.prepare<[string], Doctor>(`SELECT ${COLUMNS} FROM doctors WHERE name_key = ?`).get(doctorNameKey(name));
}

export function getDoctor(db: Db, id: number): Doctor | undefined {
  return statement<[number], Doctor>(db, `SELECT ${COLUMNS} FROM doctors WHERE id = ?`).get(id);
}

export function listDoctors(db: Db): Doctor[] {
  return db.prepare<[], Doctor>(`SELECT ${COLUMNS} FROM doctors ORDER BY name COLLATE NOCASE`).all();
}

export function countDoctors(db: Db): number {
  return db.prepare<[], number>('SELECT COUNT(*) FROM doctors').pluck().get() ?? 0;
}
