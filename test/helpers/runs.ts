import type { Db } from '../../core/db/store';
import { insertRun } from '../../core/predict/runs-repo';
import type { ModelEntry } from '../../core/predict/schema';

/** Saves a prediction run with chosen entries (test setup: which courses are recommended, how big). */
export function saveRun(
  db: Db,
  campus: 'Beirut' | 'Byblos',
  entries: { code: string; types?: string[]; enrollment: number; sections: number; offer?: boolean }[],
): Promise<number> {
  const rows: ModelEntry[] = entries.map((e) => ({
    course_code: e.code,
    course_name: e.code,
    prefix: /^[A-Z]+/.exec(e.code)?.[0] ?? '',
    types: e.types ?? ['core'],
    confidence: 0.9,
    offer_score: 90,
    offer: e.offer ?? true,
    predicted_enrollment: e.enrollment,
    enrollment_low: e.enrollment,
    enrollment_high: e.enrollment,
    latent_demand: 0,
    bottleneck_score: 0,
    projected_sections: e.offer === false ? 0 : e.sections,
    section_size: 40,
    reasons: [],
  }));
  return insertRun(
    db,
    1,
    {
      run_name: 'test',
      target_year: 2025,
      target_semester: 'Fall',
      target_campus: campus,
      model_version: 'test',
      created_at: new Date().toISOString(),
      caveats: [],
      term_notes: [],
      entries: rows,
    },
    {},
  );
}
