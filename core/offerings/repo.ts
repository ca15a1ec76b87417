import type { Db } from '../db/connection';
import { jsonText, type JsonText } from '../domain/json-text';
import { PLANNED_SEMESTERS, SEMESTER_ORDER_SQL, type PlannedSemester } from '../domain/terms';
import type { Campus } from '../domain/campuses';
import type { Offering, OfferingRecord } from './schema';
import { termKey, type TermCourseCount } from './completeness';

/** The share of enrolled students who failed a record (0 when nobody enrolled): the one definition. */
const FAIL_RATIO_SQL = 'CASE WHEN total_enrolled > 0 THEN CAST(failed_count AS REAL) / total_enrolled ELSE 0 END';

export function upsertOfferings(db: Db, records: readonly OfferingRecord[], createdAt: string): number {
  const statement = db.prepare(`INSERT INTO offerings (year, semester, campus, course_code, total_enrolled, passed_count, failed_count, is_offered, created_at)
    VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
    ON CONFLICT (course_code, year, semester, campus) DO UPDATE SET total_enrolled = excluded.total_enrolled,
      passed_count = excluded.passed_count, failed_count = excluded.failed_count, is_offered = excluded.is_offered`);
  for (const r of records) {
    statement.run(r.year, r.semester, r.campus, r.course_code, r.total_enrolled, r.passed_count, r.failed_count, r.is_offered ? 1 : 0, createdAt);
  }
  return records.length;
}

const CHRONOLOGICAL = `year, ${SEMESTER_ORDER_SQL}, campus, course_code`;

/** All offerings as one JSON array built inside SQLite: the fast path for large histories. */
export function listOfferingsJson(db: Db): JsonText<Offering[]> {
  const text = db
    .prepare<[], string>(
      `SELECT json_group_array(json_object('id', id, 'year', year, 'semester', semester, 'campus', campus, 'course_code', course_code,
        'total_enrolled', total_enrolled, 'passed_count', passed_count, 'failed_count', failed_count,
        'fail_ratio', ${FAIL_RATIO_SQL},
        'is_offered', json(CASE is_offered WHEN 1 THEN 'true' ELSE 'false' END), 'created_at', created_at))
       FROM (SELECT * FROM offerings ORDER BY ${CHRONOLOGICAL})`,
    )
    .pluck()
    .get();
  return jsonText(text ?? '[]');
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
export function plannedOfferings(db: Db, campuses: readonly Campus[]): PlannedOfferingRow[] {
  return db
    .prepare<[string, string], PlannedOfferingRow>(
      `SELECT course_code, year, semester, campus, total_enrolled, passed_count, failed_count, is_offered FROM offerings
       WHERE semester IN (SELECT value FROM json_each(?)) AND campus IN (SELECT value FROM json_each(?))`,
    )
    .all(JSON.stringify(PLANNED_SEMESTERS), JSON.stringify(campuses));
}

/** How many courses each term at each campus lists as offered. */
export function termCourseCounts(db: Db): TermCourseCount[] {
  return db
    .prepare<[], TermCourseCount>('SELECT campus, year, semester, SUM(is_offered) AS courses FROM offerings GROUP BY campus, year, semester')
    .all();
}

/** Whether any offering record exists for the term at the campus. */
export function termHasOfferings(db: Db, term: { campus: string; year: number; semester: string }): boolean {
  return db.prepare('SELECT 1 FROM offerings WHERE campus = ? AND year = ? AND semester = ? LIMIT 1').get(term.campus, term.year, term.semester) !== undefined;
}

/** The terms staff confirmed complete (keys from termKey). */
export function confirmedTermKeys(db: Db): Set<string> {
  return new Set(
    db
      .prepare<[], { campus: string; year: number; semester: string }>('SELECT campus, year, semester FROM confirmed_terms')
      .all()
      .map(termKey),
  );
}

export function confirmTerm(db: Db, term: { campus: string; year: number; semester: string }, at: string): void {
  db.prepare('INSERT INTO confirmed_terms (campus, year, semester, confirmed_at) VALUES (?, ?, ?, ?) ON CONFLICT DO UPDATE SET confirmed_at = excluded.confirmed_at').run(term.campus, term.year, term.semester, at);
}

/** The latest Fall or Spring term with records, if any. */
export function latestPlannedTerm(db: Db): { year: number; semester: PlannedSemester } | undefined {
  return db
    .prepare<[string], { year: number; semester: PlannedSemester }>(
      `SELECT year, semester FROM offerings WHERE semester IN (SELECT value FROM json_each(?)) ORDER BY year DESC, ${SEMESTER_ORDER_SQL} DESC LIMIT 1`,
    )
    .get(JSON.stringify(PLANNED_SEMESTERS));
}

export function countOfferings(db: Db): number {
  return db.prepare<[], number>('SELECT COUNT(*) FROM offerings').pluck().get() ?? 0;
}

/** Mean fail ratio of all records, 0–1 (0 without records). */
export function averageFailRatio(db: Db): number {
  return db.prepare<[], number | null>(`SELECT AVG(${FAIL_RATIO_SQL}) FROM offerings`).pluck().get() ?? 0;
}

export function enrollmentByTerm(db: Db): { year: number; semester: string; campus: string; total_enrolled: number; offerings: number }[] {
  return db
    .prepare<[], { year: number; semester: string; campus: string; total_enrolled: number; offerings: number }>(
      `SELECT year, semester, campus, SUM(total_enrolled) AS total_enrolled, SUM(is_offered) AS offerings FROM offerings
       GROUP BY year, semester, campus ORDER BY year, ${SEMESTER_ORDER_SQL}, campus`,
    )
    .all();
}

/** Mean fail ratio per term, 0–1, oldest first. */
export function failRatioByTerm(db: Db): { year: number; semester: string; fail_ratio: number }[] {
  return db
    .prepare<[], { year: number; semester: string; fail_ratio: number }>(
      `SELECT year, semester, AVG(${FAIL_RATIO_SQL}) AS fail_ratio FROM offerings GROUP BY year, semester ORDER BY year, ${SEMESTER_ORDER_SQL}`,
    )
    .all();
}
