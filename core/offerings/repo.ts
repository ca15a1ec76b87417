import type { Db } from '../db/connection';
import { jsonText, type JsonText } from '../domain/json-text';
import { SEMESTER_ORDER_SQL } from '../domain/terms';
import type { Offering, OfferingRecord } from './schema';

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
        'fail_ratio', CASE WHEN total_enrolled > 0 THEN CAST(failed_count AS REAL) / total_enrolled ELSE 0 END,
        'is_offered', json(CASE is_offered WHEN 1 THEN 'true' ELSE 'false' END), 'created_at', created_at))
       FROM (SELECT * FROM offerings ORDER BY ${CHRONOLOGICAL})`,
    )
    .pluck()
    .get();
  return jsonText(text ?? '[]');
}
