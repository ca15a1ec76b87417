import type { Db } from '../db/connection';
import type { Course } from './schema';

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
  return db.prepare('SELECT 1 FROM courses WHERE code = ?').get(code) !== undefined;
}
