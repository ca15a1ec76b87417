import { storedList } from '../domain/lists';
import type { CoreContext } from '../context';
import { currentTerm, termCurriculumConflictCount } from '../schedule';
import { modelByVersion, modelSummaries } from '../predict/models-repo';
import { latestRun, recommendedCourses, runEntryCount } from '../predict/runs-repo';
import { countCourses } from '../catalog/repo';
import { averageFailRatio, countOfferings, enrollmentByTerm, failRatioByTerm } from '../offerings/repo';
import { countDoctors } from '../faculty/repo';
import { countEntries } from '../schedule/repo';

const round1 = (value: number): number => Math.round(value * 10) / 10;

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
  /** Pairs of courses one cohort takes together whose sections all overlap, in the current term. */
  curriculum_conflicts: number;
}

export async function dashboardMetrics(ctx: CoreContext): Promise<DashboardMetrics> {
  const { db } = ctx;
  const run = (await latestRun(db)) ?? null;
  const model = run ? await modelByVersion(db, run.target_campus, run.model_version) : undefined;
  const recommended = run ? await recommendedCourses(db, run.id) : [];
  const byPrefix: Record<string, number> = {};
  const byType: Record<string, number> = {};
  for (const r of recommended) {
    byPrefix[r.prefix] = (byPrefix[r.prefix] ?? 0) + 1;
    for (const type of storedList(r.types)) byType[type] = (byType[type] ?? 0) + 1;
  }
  return {
    total_courses: await countCourses(db),
    total_offerings: await countOfferings(db),
    latest_run_id: run?.id ?? null,
    // The contract calls it confidence; it is the latest run's model's held-out ROC-AUC, in percent.
    average_model_confidence: model?.roc_auc != null ? round1(model.roc_auc * 100) : 0,
    average_fail_ratio: round1((await averageFailRatio(db)) * 100),
    total_predictions: run ? await runEntryCount(db, run.id) : 0,
    total_recommended_offerings: recommended.length,
    total_doctors: await countDoctors(db),
    total_schedule_entries: await countEntries(db),
    latest_run: run,
    recommended_by_prefix: byPrefix,
    recommended_by_type: byType,
    enrollment_by_term: await enrollmentByTerm(db),
    fail_ratio_by_term: (await failRatioByTerm(db)).map((r) => ({ ...r, fail_ratio: round1(r.fail_ratio * 100) })),
    models: (await modelSummaries(db)).map((m) => ({ campus: m.campus, model_version: m.model_version, trained_at: m.trained_at, samples: m.samples, roc_auc: m.roc_auc, f1: m.f1 })),
    curriculum_conflicts: await termCurriculumConflictCount(ctx, await currentTerm(ctx)),
  };
}
