import { statement, type Db } from '../db/connection';
import type { Course } from './schema';

/** The row this repository reads and writes, for features that read the catalog through it. */
export type { Course };

export function upsertCourses(db: Db, courses: readonly Course[]): number {
  const statement = db.prepare(`INSERT INTO courses (code, name, prefix, number, type, study_plan, prerequisites, course_level)
    VALUES (@code, @name, @prefix, @number, @type, @study_plan, @prerequisites, @course_level)
    ON CONFLICT (code) DO UPDATE SET name = excluded.name, prefix = excluded.prefix, number = excluded.number,
      type = excluded.type, study_plan = excluded.study_plan, prerequisites = excluded.prerequisites,
      course_level = excluded.course_level`);
  for (const course of courses) statement.run(course);
  return courses.length;
}

export function listCourses(db: Db): Course[] {
  return db.prepare<[], Course>('SELECT code, name, prefix, number, type, study_plan, prerequisites, course_level FROM courses ORDER BY code').all();
}

export function countCourses(db: Db): number {
  return (db.prepare('SELECT COUNT(*) AS n FROM courses').get() as { n: number }).n;
}

/** Whether the catalog lists a course code. */
export function hasCourse(db: Db, code: string): boolean {
  return statement<[string], number>(db, 'SELECT 1 FROM courses WHERE code = ?').pluck().get(code) !== undefined;
}

/** What the curriculum rules read of a course: its code, prefix, level, type and study plan. */
export type CourseCurriculum = Pick<Course, 'code' | 'prefix' | 'course_level' | 'type' | 'study_plan'>;

const CURRICULUM_COLUMNS = 'code, prefix, course_level, type, study_plan';

/** The catalog courses that can belong to a cohort: those with a study plan, and core courses. */
export function cohortCourses(db: Db): CourseCurriculum[] {
  return statement<[], CourseCurriculum>(db, `SELECT ${CURRICULUM_COLUMNS} FROM courses WHERE (study_plan IS NOT NULL AND trim(study_plan) != '') OR type LIKE '%core%'`).all();
}

export function courseCurriculum(db: Db, code: string): CourseCurriculum | undefined {
  return statement<[string], CourseCurriculum>(db, `SELECT ${CURRICULUM_COLUMNS} FROM courses WHERE code = ?`).get(code);
}

/** The core courses without a study plan of one prefix (any case) and level. */
export function corePeersWithoutPlan(db: Db, prefix: string, level: number): CourseCurriculum[] {
  return statement<[string, number], CourseCurriculum>(db, `SELECT ${CURRICULUM_COLUMNS} FROM courses WHERE prefix = ? COLLATE NOCASE AND course_level = ? AND (study_plan IS NULL OR trim(study_plan) = '') AND type LIKE '%core%'`).all(prefix, level);
}

/** A LIKE pattern matching the text anywhere, with LIKE's wildcards in it taken literally (escape: \\). */
function containing(text: string): string {
  return `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

/** The courses whose study plan names a program anywhere in its text (a narrowing: the plan is read after). */
export function coursesMentioningProgram(db: Db, program: string): CourseCurriculum[] {
  return statement<[string], CourseCurriculum>(db, `SELECT ${CURRICULUM_COLUMNS} FROM courses WHERE study_plan LIKE ? ESCAPE '\\'`).all(containing(program));
}
