import { storedList } from '../domain/lists';
import type { CoreContext } from '../context';
import { currentTerm, termCurriculumConflictCount } from '../timetable';
import { modelByVersion, modelSummaries } from '../predict/models-repo';
import { latestRun, recommendedCourses, runEntryCount } from '../predict/runs-repo';
import { countCourses } from '../catalog/repo';
import { averageFailRatio, countOfferings, enrollmentByTerm, failRatioByTerm } from '../offerings/repo';
import { countDoctors } from '../faculty/repo';
import { countEntries } from '../timetable/repo';

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
  latest_run: {
    id: number;
    run_name: string;
    target_year: number;
    target_semester: string;
    target_campus: string;
    model_version: string;
    created_at: string;
  } | null;
  recommended_by_prefix: Record<string, number>;
  recommended_by_type: Record<string, number>;
  enrollment_by_term: { year: number; semester: string; campus: string; total_enrolled: number; offerings: number }[];
  fail_ratio_by_term: { year: number; semester: string; fail_ratio: number }[];
  models: { campus: string; model_version: string; trained_at: string; samples: number; roc_auc: number | null; f1: number | null }[];
  /** Pairs of courses one cohort takes together whose sections all overlap, in the current term. */
  curriculum_conflicts: number;
}

/** The latest run with what the dashboard shows of it: its model, its plan's courses and its size. */
async function latestRunFacts(ctx: CoreContext) {
  const run = (await latestRun(ctx.db, ctx.department)) ?? null;
  if (!run) return { run, model: undefined, recommended: [], predictions: 0 };
  const [model, recommended, predictions] = await Promise.all([
    modelByVersion(ctx.db, ctx.department, run.target_campus, run.model_version),
    recommendedCourses(ctx.db, ctx.department, run.id),
    runEntryCount(ctx.db, ctx.department, run.id),
  ]);
  return { run, model, recommended, predictions };
}

export async function dashboardMetrics(ctx: CoreContext): Promise<DashboardMetrics> {
  const { db, department } = ctx;
  // Independent reads at once: a server store answers them on several connections.
  const [latest, courses, offerings, failRatio, doctors, entries, enrollment, failByTerm, models, conflicts] = await Promise.all([
    latestRunFacts(ctx),
    countCourses(db, department),
    countOfferings(db, department),
    averageFailRatio(db, department),
    countDoctors(db, department),
    countEntries(db, department),
    enrollmentByTerm(db, department),
    failRatioByTerm(db, department),
    modelSummaries(db, department),
    currentTerm(ctx).then((term) => termCurriculumConflictCount(ctx, term)),
  ]);
  const { run, model, recommended, predictions } = latest;
  const byPrefix: Record<string, number> = {};
  const byType: Record<string, number> = {};
  for (const r of recommended) {
    byPrefix[r.prefix] = (byPrefix[r.prefix] ?? 0) + 1;
    for (const type of storedList(r.types)) byType[type] = (byType[type] ?? 0) + 1;
  }
  return {
    total_courses: courses,
    total_offerings: offerings,
    latest_run_id: run?.id ?? null,
    // The contract calls it confidence; it is the latest run's model's held-out ROC-AUC, in percent.
    average_model_confidence: model?.roc_auc != null ? round1(model.roc_auc * 100) : 0,
    average_fail_ratio: round1(failRatio * 100),
    total_predictions: predictions,
    total_recommended_offerings: recommended.length,
    total_doctors: doctors,
    total_schedule_entries: entries,
    latest_run: run,
    recommended_by_prefix: byPrefix,
    recommended_by_type: byType,
    enrollment_by_term: enrollment,
    fail_ratio_by_term: failByTerm.map((r) => ({ ...r, fail_ratio: round1(r.fail_ratio * 100) })),
    models: models.map((m) => ({
      campus: m.campus,
      model_version: m.model_version,
      trained_at: m.trained_at,
      samples: m.samples,
      roc_auc: m.roc_auc,
      f1: m.f1,
    })),
    curriculum_conflicts: conflicts,
  };
}
