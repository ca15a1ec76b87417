import { storedList } from '../domain/lists';
import { sql } from 'kysely';
import type { Db } from '../db/store';
import { inBatches, isRowId, readInBatches } from '../db/batches';
import { prepared } from '../db/prepared';
import { mapRead, readAlone, type PendingRead } from '../db/read-together';
import { plannedOffer, plannedSections } from '../domain/decisions';
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

export async function insertRun(db: Db, department: number, run: NewRun, parameters: unknown): Promise<number> {
  const { id } = await db
    .insertInto('prediction_runs')
    .values({
      department_id: department,
      run_name: run.run_name,
      target_year: run.target_year,
      target_semester: run.target_semester,
      target_campus: run.target_campus,
      model_version: run.model_version,
      created_at: run.created_at,
      parameters: JSON.stringify(parameters),
      caveats: JSON.stringify(run.caveats),
      term_notes: JSON.stringify(run.term_notes),
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  const entries = run.entries.map((e, position) => ({
    run_id: id,
    position,
    course_code: e.course_code,
    course_name: e.course_name,
    prefix: e.prefix,
    types: JSON.stringify(e.types),
    confidence: e.confidence,
    offer_score: e.offer_score,
    offer: e.offer ? 1 : 0,
    predicted_enrollment: e.predicted_enrollment,
    enrollment_low: e.enrollment_low,
    enrollment_high: e.enrollment_high,
    latent_demand: e.latent_demand,
    bottleneck_score: e.bottleneck_score,
    projected_sections: e.projected_sections,
    section_size: e.section_size,
    reasons: JSON.stringify(e.reasons),
  }));
  await inBatches(entries, (batch) => db.insertInto('prediction_entries').values(batch).execute());
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

const ENTRY_COLUMNS = [
  'run_id',
  'position',
  'course_code',
  'course_name',
  'prefix',
  'types',
  'confidence',
  'offer_score',
  'offer',
  'predicted_enrollment',
  'latent_demand',
  'bottleneck_score',
  'projected_sections',
  'reasons',
  'enrollment_low',
  'enrollment_high',
  'section_size',
  'staff_decision',
  'staff_sections',
  'staff_reason',
  'decided_at',
] as const;

/** A LIKE pattern matching the text anywhere, with LIKE's wildcards in it taken literally (escape: \\). */
const containing = (text: string): string => `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

/** The entry of a run for a course code: the code as stored, or one code of a cross-listed course. */
/** The entry of a run (of the department) for a course code: the code as stored, or one code of a cross-listed course. */
export async function findEntry(db: Db, department: number, runId: number, code: string): Promise<PredictionEntry | undefined> {
  if (!(await runHeader(db, department, runId))) return undefined;
  if (!isRowId(runId)) return undefined;
  const rows = (await db
    .selectFrom('prediction_entries')
    .select(ENTRY_COLUMNS)
    .where('run_id', '=', runId)
    .where((eb) => eb.or([eb('course_code', '=', code), eb('course_code', 'like', sql<string>`${containing(code)} ESCAPE '\\'`)]))
    .orderBy('position')
    .execute()) as EntryRow[];
  // Cross-listed courses are stored as "CSC463/BIF463": the code is the whole or a run of its parts.
  const matching = rows.filter((row) => `/${row.course_code}/`.includes(`/${code}/`));
  const row = matching.find((r) => r.course_code === code) ?? matching[0];
  return row ? toEntry(row) : undefined;
}

/** Records staff's decision on one course of a run (all four fields, null clearing them). */
/** The runs of a department, as a condition on entries' run_id. */
const runsOf = (db: Db, department: number) => db.selectFrom('prediction_runs').select('id').where('department_id', '=', department);

export async function saveDecision(db: Db, department: number, runId: number, courseCode: string, decision: StaffDecisionFields): Promise<void> {
  await db
    .updateTable('prediction_entries')
    .set({
      staff_decision: decision.staff_decision,
      staff_sections: decision.staff_sections,
      staff_reason: decision.staff_reason,
      decided_at: decision.decided_at,
    })
    .where('run_id', '=', runId)
    .where('run_id', 'in', runsOf(db, department))
    .where('course_code', '=', courseCode)
    .execute();
}

const RUN_COLUMNS = ['id', 'run_name', 'target_year', 'target_semester', 'target_campus', 'model_version', 'created_at', 'term_notes', 'caveats'] as const;

async function withEntries(db: Db, runs: RunHeader[]): Promise<PredictionRun[]> {
  if (runs.length === 0) return [];
  const byRun = new Map<number, PredictionEntry[]>(runs.map((r) => [r.id, []]));
  const rows = (await readInBatches(
    runs.map((r) => r.id),
    (ids) => db.selectFrom('prediction_entries').select(ENTRY_COLUMNS).where('run_id', 'in', ids).orderBy('run_id').orderBy('position').execute(),
  )) as EntryRow[];
  for (const row of rows) byRun.get(row.run_id)?.push(toEntry(row));
  return runs.map((r) => ({ ...r, entries: byRun.get(r.id) ?? [] }));
}

export async function listRuns(db: Db, department: number, campus?: string): Promise<PredictionRun[]> {
  let query = db.selectFrom('prediction_runs').select(RUN_COLUMNS).where('department_id', '=', department).orderBy('id', 'desc');
  if (campus) query = query.where('target_campus', '=', campus);
  return withEntries(db, ((await query.execute()) as RunRow[]).map(fromRunRow));
}

/** A run's name, target and model, without its entries. */
export async function runHeader(db: Db, department: number, id: number): Promise<RunHeader | undefined> {
  if (!isRowId(id)) return undefined;
  const row = (await db.selectFrom('prediction_runs').select(RUN_COLUMNS).where('department_id', '=', department).where('id', '=', id).executeTakeFirst()) as
    RunRow | undefined;
  return row ? fromRunRow(row) : undefined;
}

export async function getRun(db: Db, department: number, id: number): Promise<PredictionRun | undefined> {
  const run = await runHeader(db, department, id);
  return run ? (await withEntries(db, [run]))[0] : undefined;
}

export async function latestRun(db: Db, department: number): Promise<RunHeader | undefined> {
  const row = (await db
    .selectFrom('prediction_runs')
    .select(RUN_COLUMNS)
    .where('department_id', '=', department)
    .orderBy('id', 'desc')
    .limit(1)
    .executeTakeFirst()) as RunRow | undefined;
  return row ? fromRunRow(row) : undefined;
}

/** The courses a run's plan offers (staff's decision where given, else the model's): prefix and stored type list. */
export async function recommendedCourses(db: Db, department: number, runId: number): Promise<{ prefix: string; types: string }[]> {
  if (!isRowId(runId)) return [];
  const rows = await db
    .selectFrom('prediction_entries')
    .select(['prefix', 'types', 'offer', 'projected_sections', 'staff_decision', 'staff_sections'])
    .where('run_id', '=', runId)
    .where('run_id', 'in', runsOf(db, department))
    .execute();
  return rows.filter((row) => plannedOffer({ ...row, offer: row.offer === 1 })).map(({ prefix, types }) => ({ prefix, types }));
}

export async function runEntryCount(db: Db, department: number, runId: number): Promise<number> {
  if (!isRowId(runId)) return 0;
  const row = await db
    .selectFrom('prediction_entries')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('run_id', '=', runId)
    .where('run_id', 'in', runsOf(db, department))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/**
 * Expected students per section of each course, from the latest run for a term and campus:
 * predicted enrollment over the plan's sections (staff's number where given). Empty when no run
 * targets that term.
 */
const latestRunEntries = prepared((db: Db, department: number, year: number, semester: string, campus: string) =>
  db
    .selectFrom('prediction_entries')
    .select(['course_code', 'predicted_enrollment', 'projected_sections', 'staff_sections'])
    .where('run_id', '=', (eb) =>
      eb
        .selectFrom('prediction_runs')
        .select('id')
        .where('department_id', '=', department)
        .where('target_year', '=', year)
        .where('target_semester', '=', semester)
        .where('target_campus', '=', campus)
        .orderBy('id', 'desc')
        .limit(1),
    ),
);

export async function expectedSectionSizes(db: Db, department: number, year: number, semester: string, campus: string): Promise<Map<string, number>> {
  return readAlone(db, expectedSectionSizesRead(db, department, year, semester, campus));
}

/** expectedSectionSizes, to be read with other reads (see readTogether). */
export function expectedSectionSizesRead(db: Db, department: number, year: number, semester: string, campus: string): PendingRead<Map<string, number>> {
  return mapRead(latestRunEntries.read(db, department, year, semester, campus), sectionSizes);
}

/** A run's entries as what a section of each course expects. */
type RunEntrySizes = { course_code: string; predicted_enrollment: number; projected_sections: number; staff_sections: number | null };

function sectionSizes(rows: readonly RunEntrySizes[]): Map<string, number> {
  const sizes = new Map<string, number>();
  for (const row of rows) {
    const size = Math.ceil(row.predicted_enrollment / Math.max(1, row.staff_sections ?? row.projected_sections));
    for (const code of row.course_code.split('/')) sizes.set(code.trim(), size);
  }
  return sizes;
}
