import { storedList } from '../domain/lists';
import type { Db } from '../db/connection';
import { modelByVersion, modelSummaries } from '../predict/models-repo';
import { latestRun } from '../predict/runs-repo';
import { SEMESTER_ORDER_SQL } from '../domain/terms';

const round1 = (value: number): number => Math.round(value * 10) / 10;
const count = (db: Db, sql: string): number => (db.prepare(sql).pluck().get() as number | undefined) ?? 0;

export interface DashboardMetrics {
  total_courses: number;
  total_offerings: number;
  latest_run_id: number | null;
  average_model_confidence: number;
  average_fail_ratio: number;
  total_predictions: number;
  total_recommended_offerings: number;
  total_doctors: number;
  total_schedule_entries: number;
  latest_run: { id: number; run_name: string; target_year: number; target_semester: string; target_campus: string; model_version: string; created_at: string } | null;
  recommended_by_prefix: Record<string, number>;
  recommended_by_type: Record<string, number>;
  enrollment_by_term: { year: number; semester: string; campus: string; total_enrolled: number; offerings: number }[];
  fail_ratio_by_term: { year: number; semester: string; fail_ratio: number }[];
  models: { campus: string; model_version: string; trained_at: string; samples: number; roc_auc: number | null; f1: number | null }[];
}

export function dashboardMetrics(db: Db): DashboardMetrics {
  const run = latestRun(db) ?? null;
  const model = run ? modelByVersion(db, run.target_campus, run.model_version) : undefined;
  const recommended = run ? db.prepare<[number], { prefix: string; types: string }>('SELECT prefix, types FROM prediction_entries WHERE run_id = ? AND offer = 1').all(run.id) : [];
  const byPrefix: Record<string, number> = {};
  const byType: Record<string, number> = {};
  for (const r of recommended) {
    byPrefix[r.prefix] = (byPrefix[r.prefix] ?? 0) + 1;
    for (const type of storedList(r.types)) byType[type] = (byType[type] ?? 0) + 1;
  }
  const chronological = `year, ${SEMESTER_ORDER_SQL}`;
  return {
    total_courses: count(db, 'SELECT COUNT(*) FROM courses'),
    total_offerings: count(db, 'SELECT COUNT(*) FROM offerings'),
    latest_run_id: run?.id ?? null,
    average_model_confidence: model?.roc_auc != null ? round1(model.roc_auc * 100) : 0,
    average_fail_ratio: round1(
      ((db.prepare('SELECT AVG(CASE WHEN total_enrolled > 0 THEN CAST(failed_count AS REAL) / total_enrolled ELSE 0 END) FROM offerings').pluck().get() as number | null) ?? 0) * 100,
    ),
    total_predictions: run ? ((db.prepare("SELECT COUNT(*) FROM prediction_entries WHERE run_id = ?").pluck().get(run.id) as number | undefined) ?? 0) : 0,
    total_recommended_offerings: recommended.length,
    total_doctors: count(db, 'SELECT COUNT(*) FROM doctors'),
    total_schedule_entries: count(db, 'SELECT COUNT(*) FROM schedule_entries'),
    latest_run: run,
    recommended_by_prefix: byPrefix,
    recommended_by_type: byType,
    enrollment_by_term: db
      .prepare<[], DashboardMetrics['enrollment_by_term'][number]>(
        `SELECT year, semester, campus, SUM(total_enrolled) AS total_enrolled, SUM(is_offered) AS offerings FROM offerings GROUP BY year, semester, campus ORDER BY ${chronological}, campus`,
      )
      .all(),
    fail_ratio_by_term: db
      .prepare<[], { year: number; semester: string; fail_ratio: number }>(
        `SELECT year, semester, AVG(CASE WHEN total_enrolled > 0 THEN CAST(failed_count AS REAL) / total_enrolled ELSE 0 END) * 100 AS fail_ratio FROM offerings GROUP BY year, semester ORDER BY ${chronological}`,
      )
      .all()
      .map((r) => ({ ...r, fail_ratio: round1(r.fail_ratio) })),
    models: modelSummaries(db).map((m) => ({ campus: m.campus, model_version: m.model_version, trained_at: m.trained_at, samples: m.samples, roc_auc: m.roc_auc, f1: m.f1 })),
  };
}
