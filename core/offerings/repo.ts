import { sql, type RawBuilder } from 'kysely';
import type { Db } from '../db/store';
import { inBatches } from '../db/batches';
import { isPostgres } from '../db/transactions';
import { jsonText, type JsonText } from '../domain/json-text';
import { PLANNED_SEMESTERS, SEMESTER_ORDER_SQL, type PlannedSemester } from '../domain/terms';
import type { Campus } from '../domain/campuses';
import type { Offering, OfferingRecord } from './schema';
import { campusTermKey, type TermCourseCount } from './completeness';

/** The share of enrolled students who failed a record (0 when nobody enrolled): the one definition. */
const failRatio = (): RawBuilder<number> => sql<number>`CASE WHEN total_enrolled > 0 THEN CAST(failed_count AS DOUBLE PRECISION) / total_enrolled ELSE 0 END`;
const semesterOrder = sql.raw(SEMESTER_ORDER_SQL);

export async function upsertOfferings(db: Db, department: number, records: readonly OfferingRecord[], createdAt: string): Promise<number> {
  // A record listed twice in one file: the last listing wins.
  const unique = [...new Map(records.map((r) => [`${r.course_code}|${r.year}|${r.semester}|${r.campus}`, r])).values()];
  await inBatches(unique, (batch) =>
    db
      .insertInto('offerings')
      .values(
        batch.map((r) => ({
          department_id: department,
          year: r.year,
          semester: r.semester,
          campus: r.campus,
          course_code: r.course_code,
          total_enrolled: r.total_enrolled,
          passed_count: r.passed_count,
          failed_count: r.failed_count,
          is_offered: r.is_offered ? 1 : 0,
          created_at: createdAt,
        })),
      )
      .onConflict((oc) =>
        oc.columns(['department_id', 'course_code', 'year', 'semester', 'campus']).doUpdateSet((eb) => ({
          total_enrolled: eb.ref('excluded.total_enrolled'),
          passed_count: eb.ref('excluded.passed_count'),
          failed_count: eb.ref('excluded.failed_count'),
          is_offered: eb.ref('excluded.is_offered'),
        })),
      )
      .execute(),
  );
  return records.length;
}

/** All offerings as one JSON array built inside the database: the fast path for large histories. */
export async function listOfferingsJson(db: Db, department: number): Promise<JsonText<Offering[]>> {
  const chronological = sql`year, ${semesterOrder}, campus, course_code`;
  const query = isPostgres(db)
    ? sql<{
        list: string | null;
      }>`SELECT json_agg(t)::text AS list FROM (SELECT id, year, semester, campus, course_code, total_enrolled, passed_count, failed_count,
        ${failRatio()} AS fail_ratio, is_offered = 1 AS is_offered, created_at FROM offerings WHERE department_id = ${department} ORDER BY ${chronological}) t`
    : sql<{
        list: string | null;
      }>`SELECT json_group_array(json_object('id', id, 'year', year, 'semester', semester, 'campus', campus, 'course_code', course_code,
        'total_enrolled', total_enrolled, 'passed_count', passed_count, 'failed_count', failed_count, 'fail_ratio', ${failRatio()},
        'is_offered', json(CASE is_offered WHEN 1 THEN 'true' ELSE 'false' END), 'created_at', created_at)) AS list
       FROM (SELECT * FROM offerings WHERE department_id = ${department} ORDER BY ${chronological})`;
  const { rows } = await query.execute(db);
  return jsonText(rows[0]?.list ?? '[]');
}

export interface PlannedOfferingRow {
  course_code: string;
  year: number;
  semester: PlannedSemester;
  campus: Campus;
  total_enrolled: number;
  passed_count: number;
  failed_count: number;
  is_offered: 0 | 1;
}

/** The Fall/Spring records of the given campuses: the history recommendations learn from. */
export async function plannedOfferings(db: Db, department: number, campuses: readonly Campus[]): Promise<PlannedOfferingRow[]> {
  if (campuses.length === 0) return [];
  const rows = await db
    .selectFrom('offerings')
    .select(['course_code', 'year', 'semester', 'campus', 'total_enrolled', 'passed_count', 'failed_count', 'is_offered'])
    .where('department_id', '=', department)
    .where('semester', 'in', [...PLANNED_SEMESTERS])
    .where('campus', 'in', [...campuses])
    .orderBy('id')
    .execute();
  return rows as PlannedOfferingRow[];
}

/** How many courses each term at each campus lists as offered. */
export async function termCourseCounts(db: Db, department: number): Promise<TermCourseCount[]> {
  const rows = await db
    .selectFrom('offerings')
    .select(['campus', 'year', 'semester', (eb) => eb.fn.sum<number>('is_offered').as('courses')])
    .where('department_id', '=', department)
    .groupBy(['campus', 'year', 'semester'])
    .orderBy('campus')
    .orderBy('year')
    .orderBy('semester')
    .execute();
  return rows.map((row) => ({ ...row, courses: Number(row.courses) })) as TermCourseCount[];
}

/** Whether any offering record exists for the term at the campus. */
export async function termHasOfferings(db: Db, department: number, term: { campus: string; year: number; semester: string }): Promise<boolean> {
  const row = await db
    .selectFrom('offerings')
    .select('id')
    .where('department_id', '=', department)
    .where('campus', '=', term.campus)
    .where('year', '=', term.year)
    .where('semester', '=', term.semester)
    .limit(1)
    .executeTakeFirst();
  return row !== undefined;
}

/** The terms staff confirmed complete (keys from campusTermKey). */
export async function confirmedTermKeys(db: Db, department: number): Promise<Set<string>> {
  return new Set(
    (await db.selectFrom('confirmed_terms').select(['campus', 'year', 'semester']).where('department_id', '=', department).execute()).map(campusTermKey),
  );
}

export async function confirmTerm(db: Db, department: number, term: { campus: string; year: number; semester: string }, at: string): Promise<void> {
  await db
    .insertInto('confirmed_terms')
    .values({ department_id: department, campus: term.campus, year: term.year, semester: term.semester, confirmed_at: at })
    .onConflict((oc) => oc.columns(['department_id', 'campus', 'year', 'semester']).doUpdateSet((eb) => ({ confirmed_at: eb.ref('excluded.confirmed_at') })))
    .execute();
}

/** The latest Fall or Spring term with records, if any. */
export async function latestPlannedTerm(db: Db, department: number): Promise<{ year: number; semester: PlannedSemester } | undefined> {
  const row = await db
    .selectFrom('offerings')
    .select(['year', 'semester'])
    .where('department_id', '=', department)
    .where('semester', 'in', [...PLANNED_SEMESTERS])
    .orderBy('year', 'desc')
    .orderBy(sql`${semesterOrder}`, 'desc')
    .limit(1)
    .executeTakeFirst();
  return row as { year: number; semester: PlannedSemester } | undefined;
}

export async function countOfferings(db: Db, department: number): Promise<number> {
  const row = await db
    .selectFrom('offerings')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('department_id', '=', department)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/** Mean fail ratio of all records, 0–1 (0 without records). */
export async function averageFailRatio(db: Db, department: number): Promise<number> {
  const { rows } = await sql<{ ratio: number | null }>`SELECT AVG(${failRatio()}) AS ratio FROM offerings WHERE department_id = ${department}`.execute(db);
  return Number(rows[0]?.ratio ?? 0);
}

export async function enrollmentByTerm(
  db: Db,
  department: number,
): Promise<{ year: number; semester: string; campus: string; total_enrolled: number; offerings: number }[]> {
  const { rows } = await sql<{ year: number; semester: string; campus: string; total_enrolled: number; offerings: number }>`
    SELECT year, semester, campus, SUM(total_enrolled) AS total_enrolled, SUM(is_offered) AS offerings FROM offerings WHERE department_id = ${department}
    GROUP BY year, semester, campus ORDER BY year, ${semesterOrder}, campus`.execute(db);
  return rows.map((row) => ({ ...row, total_enrolled: Number(row.total_enrolled), offerings: Number(row.offerings) }));
}

/** Mean fail ratio per term, 0–1, oldest first. */
export async function failRatioByTerm(db: Db, department: number): Promise<{ year: number; semester: string; fail_ratio: number }[]> {
  const { rows } = await sql<{ year: number; semester: string; fail_ratio: number }>`
    SELECT year, semester, AVG(${failRatio()}) AS fail_ratio FROM offerings WHERE department_id = ${department} GROUP BY year, semester ORDER BY year, ${semesterOrder}`.execute(
    db,
  );
  return rows.map((row) => ({ ...row, fail_ratio: Number(row.fail_ratio) }));
}
