import { storedList } from '../domain/lists';
import { statement, type Db } from '../db/connection';
import { plannedOffer, plannedSections, type StaffDecision } from '../domain/decisions';
import type { NewRun, PredictionEntry, PredictionRun, StaffDecisionFields } from './schema';

type RunHeader = Omit<PredictionRun, 'entries'>;
type RunRow = Omit<RunHeader, 'caveats' | 'term_notes'> & { caveats: string | null; term_notes: string | null };

const fromRunRow = (row: RunRow): RunHeader => ({ ...row, caveats: storedList(row.caveats), term_notes: storedList(row.term_notes) });
interface EntryRow extends Omit<PredictionEntry, 'types' | 'offer' | 'reasons' | 'planned_offer' | 'planned_sections'> {
  run_id: number;
  types: string;
  offer: 0 | 1;
  reasons: string;
}

export function insertRun(db: Db, run: NewRun, parameters: unknown): number {
  const id = Number(
    db
      .prepare('INSERT INTO prediction_runs (run_name, target_year, target_semester, target_campus, model_version, created_at, parameters, caveats, term_notes) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)')
      .run(run.run_name, run.target_year, run.target_semester, run.target_campus, run.model_version, run.created_at, JSON.stringify(parameters), JSON.stringify(run.caveats), JSON.stringify(run.term_notes)).lastInsertRowid,
  );
  const insert = db.prepare(
    `INSERT INTO prediction_entries (run_id, position, course_code, course_name, prefix, types, confidence, offer_score, offer, predicted_enrollment, enrollment_low, enrollment_high, latent_demand, bottleneck_score, projected_sections, section_size, reasons)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  );
  run.entries.forEach((e, position) =>
    insert.run(
      id,
      position,
      e.course_code,
      e.course_name,
      e.prefix,
      JSON.stringify(e.types),
      e.confidence,
      e.offer_score,
      e.offer ? 1 : 0,
      e.predicted_enrollment,
      e.enrollment_low,
      e.enrollment_high,
      e.latent_demand,
      e.bottleneck_score,
      e.projected_sections,
      e.section_size,
      JSON.stringify(e.reasons),
    ),
  );
  return id;
}

function toEntry(row: EntryRow): PredictionEntry {
  const decided = {
    offer: row.offer === 1,
    projected_sections: row.projected_sections,
    staff_decision: row.staff_decision,
    staff_sections: row.staff_sections,
  };
  return {
    course_code: row.course_code,
    course_name: row.course_name,
    prefix: row.prefix,
    types: storedList(row.types),
    confidence: row.confidence,
    offer_score: row.offer_score,
    offer: row.offer === 1,
    predicted_enrollment: row.predicted_enrollment,
    enrollment_low: row.enrollment_low,
    enrollment_high: row.enrollment_high,
    latent_demand: row.latent_demand,
    bottleneck_score: row.bottleneck_score,
    projected_sections: row.projected_sections,
    section_size: row.section_size,
    reasons: storedList(row.reasons),
    staff_decision: row.staff_decision,
    staff_sections: row.staff_sections,
    staff_reason: row.staff_reason,
    decided_at: row.decided_at,
    planned_offer: plannedOffer(decided),
    planned_sections: plannedSections(decided),
  };
}

/** The entry of a run for a course code: the code as stored, or one code of a cross-listed course. */
export function findEntry(db: Db, runId: number, code: string): PredictionEntry | undefined {
  const row = db
    .prepare<{ run: number; code: string }, EntryRow>(
      `SELECT * FROM prediction_entries WHERE run_id = @run AND instr('/' || course_code || '/', '/' || @code || '/') > 0
       ORDER BY course_code <> @code, position LIMIT 1`,
    )
    .get({ run: runId, code });
  return row ? toEntry(row) : undefined;
}

/** Records staff's decision on one course of a run (all four fields, null clearing them). */
export function saveDecision(db: Db, runId: number, courseCode: string, decision: StaffDecisionFields): void {
  db.prepare('UPDATE prediction_entries SET staff_decision = ?, staff_sections = ?, staff_reason = ?, decided_at = ? WHERE run_id = ? AND course_code = ?').run(
    decision.staff_decision,
    decision.staff_sections,
    decision.staff_reason,
    decision.decided_at,
    runId,
    courseCode,
  );
}

const RUN_COLUMNS = 'id, run_name, target_year, target_semester, target_campus, model_version, created_at, term_notes, caveats';

function withEntries(db: Db, runs: RunHeader[]): PredictionRun[] {
  if (runs.length === 0) return [];
  const byRun = new Map<number, PredictionEntry[]>(runs.map((r) => [r.id, []]));
  const rows = db.prepare<number[], EntryRow>(`SELECT * FROM prediction_entries WHERE run_id IN (${runs.map(() => '?').join(',')}) ORDER BY run_id, position`).all(...runs.map((r) => r.id));
  for (const row of rows) byRun.get(row.run_id)?.push(toEntry(row));
  return runs.map((r) => ({ ...r, entries: byRun.get(r.id) ?? [] }));
}

export function listRuns(db: Db, campus?: string): PredictionRun[] {
  const runs = campus
    ? db.prepare<[string], RunRow>(`SELECT ${RUN_COLUMNS} FROM prediction_runs WHERE target_campus = ? ORDER BY id DESC`).all(campus)
    : db.prepare<[], RunRow>(`SELECT ${RUN_COLUMNS} FROM prediction_runs ORDER BY id DESC`).all();
  return withEntries(db, runs.map(fromRunRow));
}

/** A run's name, target and model, without its entries. */
export function runHeader(db: Db, id: number): RunHeader | undefined {
  const row = db.prepare<[number], RunRow>(`SELECT ${RUN_COLUMNS} FROM prediction_runs WHERE id = ?`).get(id);
  return row ? fromRunRow(row) : undefined;
}

export function getRun(db: Db, id: number): PredictionRun | undefined {
  const run = runHeader(db, id);
  return run ? withEntries(db, [run])[0] : undefined;
}

export function latestRun(db: Db): RunHeader | undefined {
  const row = db.prepare<[], RunRow>(`SELECT ${RUN_COLUMNS} FROM prediction_runs ORDER BY id DESC LIMIT 1`).get();
  return row ? fromRunRow(row) : undefined;
}

/** The courses a run's plan offers (staff's decision where given, else the model's): prefix and stored type list. */
export function recommendedCourses(db: Db, runId: number): { prefix: string; types: string }[] {
  return db
    .prepare<[number], { prefix: string; types: string; offer: 0 | 1; projected_sections: number; staff_decision: StaffDecision | null; staff_sections: number | null }>(
      'SELECT prefix, types, offer, projected_sections, staff_decision, staff_sections FROM prediction_entries WHERE run_id = ?',
    )
    .all(runId)
    .filter((row) => plannedOffer({ ...row, offer: row.offer === 1 }))
    .map(({ prefix, types }) => ({ prefix, types }));
}

export function runEntryCount(db: Db, runId: number): number {
  return db.prepare<[number], number>('SELECT COUNT(*) FROM prediction_entries WHERE run_id = ?').pluck().get(runId) ?? 0;
}

/**
 * Expected students per section of each course, from the latest run for a term and campus:
 * predicted enrollment over the plan's sections (staff's number where given). Empty when no run
 * targets that term.
 */
export function expectedSectionSizes(db: Db, year: number, semester: string, campus: string): Map<string, number> {
  const rows = statement<[number, string, string], { course_code: string; predicted_enrollment: number; projected_sections: number; staff_sections: number | null }>(
    db,
      `SELECT course_code, predicted_enrollment, projected_sections, staff_sections FROM prediction_entries
       WHERE run_id = (SELECT id FROM prediction_runs WHERE target_year = ? AND target_semester = ? AND target_campus = ? ORDER BY id DESC LIMIT 1)`,
  ).all(year, semester, campus);
  const sizes = new Map<string, number>();
  for (const row of rows) {
    const size = Math.ceil(row.predicted_enrollment / Math.max(1, row.staff_sections ?? row.projected_sections));
    for (const code of row.course_code.split('/')) sizes.set(code.trim(), size);
  }
  return sizes;
}
