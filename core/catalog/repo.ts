import { sql } from 'kysely';
import type { Db } from '../db/store';
import { inBatches } from '../db/batches';
import { prepared } from '../db/prepared';
import { mapRead, readAlone, type PendingRead } from '../db/read-together';
import type { Course } from './schema';

/** The row this repository reads and writes, for features that read the catalog through it. */
export type { Course };

const COLUMNS = ['code', 'name', 'prefix', 'number', 'type', 'study_plan', 'prerequisites', 'course_level'] as const;

export async function upsertCourses(db: Db, department: number, courses: readonly Course[]): Promise<number> {
  // A file may list a code twice: the last listing wins.
  const unique = [...new Map(courses.map((c) => [c.code, c])).values()];
  await inBatches(unique, (batch) =>
    db
      .insertInto('courses')
      .values(
        batch.map((c) => ({
          department_id: department,
          code: c.code,
          name: c.name,
          prefix: c.prefix,
          number: c.number,
          type: c.type,
          study_plan: c.study_plan,
          prerequisites: c.prerequisites,
          course_level: c.course_level,
        })),
      )
      .onConflict((oc) =>
        oc.columns(['department_id', 'code']).doUpdateSet((eb) => ({
          name: eb.ref('excluded.name'),
          prefix: eb.ref('excluded.prefix'),
          number: eb.ref('excluded.number'),
          type: eb.ref('excluded.type'),
          study_plan: eb.ref('excluded.study_plan'),
          prerequisites: eb.ref('excluded.prerequisites'),
          course_level: eb.ref('excluded.course_level'),
        })),
      )
      .execute(),
  );
  return courses.length;
}

export async function listCourses(db: Db, department: number): Promise<Course[]> {
  return db.selectFrom('courses').select(COLUMNS).where('department_id', '=', department).orderBy('code').execute();
}

export async function countCourses(db: Db, department: number): Promise<number> {
  const row = await db
    .selectFrom('courses')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('department_id', '=', department)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/** Whether the catalog lists a course code. */
const courseByCode = prepared((db: Db, department: number, code: string) =>
  db.selectFrom('courses').select(['code', 'prefix', 'course_level', 'type', 'study_plan']).where('department_id', '=', department).where('code', '=', code),
);

export async function hasCourse(db: Db, department: number, code: string): Promise<boolean> {
  return (await courseByCode.first(db, department, code)) !== undefined;
}

/** The catalog's course codes (to tell many codes apart at once). */
export async function courseCodes(db: Db, department: number): Promise<Set<string>> {
  return new Set((await db.selectFrom('courses').select('code').where('department_id', '=', department).execute()).map((row) => row.code));
}

/** What the curriculum rules read of a course: its code, prefix, level, type and study plan. */
export type CourseCurriculum = Pick<Course, 'code' | 'prefix' | 'course_level' | 'type' | 'study_plan'>;

const CURRICULUM_COLUMNS = ['code', 'prefix', 'course_level', 'type', 'study_plan'] as const;

/** A core course: its type names "core" in any case. */
const isCore = sql<boolean>`lower(type) LIKE '%core%'`;
const hasStudyPlan = sql<boolean>`(study_plan IS NOT NULL AND trim(study_plan) != '')`;

/** The catalog courses that can belong to a cohort: those with a study plan, and core courses. */
export async function cohortCourses(db: Db, department: number): Promise<CourseCurriculum[]> {
  return db
    .selectFrom('courses')
    .select(CURRICULUM_COLUMNS)
    .where('department_id', '=', department)
    .where(sql<boolean>`${hasStudyPlan} OR ${isCore}`)
    .execute();
}

export async function courseCurriculum(db: Db, department: number, code: string): Promise<CourseCurriculum | undefined> {
  return readAlone(db, courseCurriculumRead(db, department, code));
}

/** courseCurriculum, to be read with other reads (see readTogether). */
export function courseCurriculumRead(db: Db, department: number, code: string): PendingRead<CourseCurriculum | undefined> {
  return mapRead(courseByCode.read(db, department, code), (rows) => rows[0]);
}

/** The core courses without a study plan of one prefix (any case) and level. */
export async function corePeersWithoutPlan(db: Db, department: number, prefix: string, level: number): Promise<CourseCurriculum[]> {
  return db
    .selectFrom('courses')
    .select(CURRICULUM_COLUMNS)
    .where('department_id', '=', department)
    .where(sql<boolean>`lower(prefix) = lower(${prefix})`)
    .where('course_level', '=', level)
    .where(sql<boolean>`NOT ${hasStudyPlan}`)
    .where(isCore)
    .execute();
}

/** A LIKE pattern matching the text anywhere, with LIKE's wildcards in it taken literally (escape: \\). */
function containing(text: string): string {
  return `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

/** The courses whose study plan names a program anywhere in its text, in any case (a narrowing: the plan is read after). */
export async function coursesMentioningProgram(db: Db, department: number, program: string): Promise<CourseCurriculum[]> {
  return db
    .selectFrom('courses')
    .select(CURRICULUM_COLUMNS)
    .where('department_id', '=', department)
    .where(sql<boolean>`lower(study_plan) LIKE lower(${containing(program)}) ESCAPE '\\'`)
    .execute();
}
