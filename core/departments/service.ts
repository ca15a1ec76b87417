import type { CoreContext } from '../context';
import { CampusList } from '../domain/campuses';
import { CoreError, fieldError, forbidden, notFound } from '../domain/errors';
import type { Actor } from '../domain/people';
import { inTransaction } from '../db/transactions';
import type { Db } from '../db/store';
import { keptDepartment } from './cache';
import { departmentByCode, departmentOfCall, getDepartment, insertDepartment, listDepartments, updateDepartment, type Department } from './repo';

/** The department a call acts in when nobody names one: the first (a laptop's only one). */
export const FIRST_DEPARTMENT = 1;

/** The campuses a department plans for: those it chose of the server's, else all of them. */
function departmentCampuses(server: CampusList, chosen: readonly string[] | null): CampusList {
  if (chosen === null) return server;
  const specs = server.specs.filter((s) => chosen.includes(s.name));
  return specs.length === 0 ? server : new CampusList(specs);
}

/**
 * The department a call acts in, and its campuses. A scheduler or viewer acts in their own and may
 * name no other; the registrar names any (by id or code), else acts in the first.
 */
export async function callScope(ctx: CoreContext, actor: Actor, asked: string | undefined): Promise<{ department: number; campuses: CampusList }> {
  // The department named, read once: its campuses come with it.
  let department: Department | undefined;
  if (actor.department !== null) {
    const own = actor.department;
    department = await keptDepartment(ctx.events, `id ${own}`, () => departmentOfCall(ctx.db, own));
    if (asked !== undefined && !names(asked, actor.department, department)) throw forbidden('Your account plans for its own department only');
  } else if (asked !== undefined) {
    department = await keptDepartment(ctx.events, `asked ${asked.trim().toLowerCase()}`, () => findDepartment(ctx.db, asked));
    if (!department) throw notFound(`No department "${asked.slice(0, 60)}"`);
  } else department = await keptDepartment(ctx.events, `id ${FIRST_DEPARTMENT}`, () => departmentOfCall(ctx.db, FIRST_DEPARTMENT));
  if (!department) throw notFound(`No department ${actor.department ?? FIRST_DEPARTMENT}`);
  return { department: department.id, campuses: departmentCampuses(ctx.campuses, department.campuses) };
}

/** Whether `asked` (an id or a code) names the department `id` (whose row is `department`). */
function names(asked: string, id: number, department: Department | undefined): boolean {
  const text = asked.trim();
  return /^\d{1,9}$/.test(text) ? Number(text) === id : text.toLowerCase() === department?.code.toLowerCase();
}

/** A department by its id or its code. */
async function findDepartment(db: Db, asked: string): Promise<Department | undefined> {
  const text = asked.trim();
  if (/^\d{1,9}$/.test(text)) return getDepartment(db, Number(text));
  return departmentByCode(db, text);
}

/** The departments a caller may see: every one for the registrar, else their own. */
export async function visibleDepartments(ctx: CoreContext): Promise<Department[]> {
  const all = await listDepartments(ctx.db);
  return ctx.actor.role === 'registrar' ? all : all.filter((d) => d.id === ctx.actor.department);
}

/** The campuses a department may choose from are the server's: every name it gives must be one. */
function chosenCampuses(ctx: CoreContext, campuses: readonly string[] | null | undefined): string[] | null | undefined {
  if (campuses === undefined || campuses === null) return campuses;
  const server = ctx.campuses;
  return [...new Set(campuses.map((c) => server.require(c, 'campuses')))];
}

export async function createDepartment(ctx: CoreContext, input: { code: string; name: string; campuses?: string[] | null | undefined }): Promise<Department> {
  const campuses = chosenCampuses(ctx, input.campuses) ?? null;
  return inTransaction(ctx.db, async (db) => {
    if (await departmentByCode(db, input.code)) throw new CoreError('conflict', `A department with the code "${input.code}" already exists`);
    const id = await insertDepartment(db, { code: input.code, name: input.name, campuses }, ctx.now().toISOString());
    return (await getDepartment(db, id)) as Department;
  });
}

export async function changeDepartment(
  ctx: CoreContext,
  input: { department_id: number; code?: string | undefined; name?: string | undefined; campuses?: string[] | null | undefined },
): Promise<Department> {
  const campuses = chosenCampuses(ctx, input.campuses);
  return inTransaction(ctx.db, async (db) => {
    const current = await getDepartment(db, input.department_id);
    if (!current) throw notFound(`No department ${input.department_id}`);
    if (input.code !== undefined && input.code.toLowerCase() !== current.code.toLowerCase() && (await departmentByCode(db, input.code)))
      throw fieldError('code', `"${input.code}" is another department's code`);
    await updateDepartment(db, current.id, { code: input.code, name: input.name, ...(campuses === undefined ? {} : { campuses }) });
    return (await getDepartment(db, current.id)) as Department;
  });
}
