import { sql } from 'kysely';
import type { Db } from '../db/store';
import { isRowId } from '../db/batches';
import { prepared } from '../db/prepared';
import { storedList } from '../domain/lists';

/** A department of the campus, as the screens and the REST API show it. */
export interface Department {
  id: number;
  code: string;
  name: string;
  /** The server's campuses it plans for; null: all of them. */
  campuses: string[] | null;
}

type DepartmentRow = { id: number; code: string; name: string; campuses: string | null };

const fromRow = (row: DepartmentRow): Department => ({ ...row, campuses: row.campuses === null ? null : storedList(row.campuses) });

const COLUMNS = ['id', 'code', 'name', 'campuses'] as const;

export async function listDepartments(db: Db): Promise<Department[]> {
  return (
    await db
      .selectFrom('departments')
      .select(COLUMNS)
      .orderBy(sql`lower(name)`)
      .orderBy('id')
      .execute()
  ).map(fromRow);
}

const departmentById = prepared((db: Db, id: number) => db.selectFrom('departments').select(COLUMNS).where('id', '=', id));

/** The department a call acts in, read on every call (a prepared statement). */
export async function departmentOfCall(db: Db, id: number): Promise<Department | undefined> {
  const row = await departmentById.first(db, id);
  return row ? fromRow(row) : undefined;
}

export async function getDepartment(db: Db, id: number): Promise<Department | undefined> {
  if (!isRowId(id)) return undefined;
  const row = await db.selectFrom('departments').select(COLUMNS).where('id', '=', id).executeTakeFirst();
  return row ? fromRow(row) : undefined;
}

export async function departmentByCode(db: Db, code: string): Promise<Department | undefined> {
  const row = await db
    .selectFrom('departments')
    .select(COLUMNS)
    .where(sql`lower(code)`, '=', code.toLowerCase())
    .executeTakeFirst();
  return row ? fromRow(row) : undefined;
}

export async function insertDepartment(db: Db, department: Omit<Department, 'id'>, createdAt: string): Promise<number> {
  const { id } = await db
    .insertInto('departments')
    .values({
      code: department.code,
      name: department.name,
      campuses: department.campuses === null ? null : JSON.stringify(department.campuses),
      created_at: createdAt,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return id;
}

export async function updateDepartment(db: Db, id: number, change: Partial<Omit<Department, 'id'>>): Promise<void> {
  const set: { code?: string; name?: string; campuses?: string | null } = {};
  if (change.code !== undefined) set.code = change.code;
  if (change.name !== undefined) set.name = change.name;
  if (change.campuses !== undefined) set.campuses = change.campuses === null ? null : JSON.stringify(change.campuses);
  if (Object.keys(set).length > 0) await db.updateTable('departments').set(set).where('id', '=', id).execute();
}

/** The departments' names, by id (how a meeting of another department is named to those who may read it). */
export async function departmentNames(db: Db): Promise<Map<number, string>> {
  return new Map((await db.selectFrom('departments').select(['id', 'name']).execute()).map((d) => [d.id, d.name]));
}
