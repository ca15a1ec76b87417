import { availableParallelism } from 'node:os';
import type { CoreContext } from '../context';
import type { CoreEvents } from '../events';
import type { FileResult } from '../domain/file-result';
import { exportRun } from './export';
import type { Db, Store } from '../db/store';
import { inTransaction } from '../db/transactions';
import { fieldError, invalid, notFound } from '../domain/errors';
import { changedDecision } from '../domain/decisions';
import { normaliseCourseCode } from '../domain/codes';
import { KeptWorker, siblingModule } from '../workers';
import { nextPlannedTerm, type PlannedSemester } from '../domain/terms';
import { compareRuns, type RunComparison } from '../domain/run-comparison';
import type { Campus } from '../domain/campuses';
import { countOfferings, latestPlannedTerm } from '../offerings/repo';
import { countCourses } from '../catalog/repo';
import { cohortDemand } from './cohorts';
import { leftOutKeys, loadHistory, plannedLeftOut, termIndex, type History } from './planning-view';
import { currentModel, fitsCurrentFeatures, modelVersionTaken, sameList, saveModel, type StoredModel } from './models-repo';
import { catalogVocabulary, categoriesForRun, selectByQuotas } from './quotas';
import { departmentCategories, departmentProfile, sectionSeats } from './profile';
import { explain, MAX_REASONS } from './reasons';
import { termNotes } from './term-notes-service';
import { indexNotes, noteVerdict, type NoteVerdict } from './term-notes';
import { describeNote, type TermNote } from '../domain/term-notes';
import { mayTeach, allowedCourseList } from '../domain/teaching';
import { listDoctors } from '../faculty/repo';
import { findEntry, getRun, insertRun, listRuns, runHeader, saveDecision } from './runs-repo';
import { type BulkRunInput, type EntryDecisionInput, type ModelEntry, type NewRun, type PredictionEntry, type PredictionRun, type TrainResult } from './schema';
import { scoreCourses, type CampusModels, type TrainedCampus } from './train';
import type { TrainProgress, TrainWorkerInput } from './train-worker';
import { Booster } from './xgboost';

export async function nextTerm(ctx: CoreContext): Promise<{ year: number; semester: PlannedSemester }> {
  const latest = await latestPlannedTerm(ctx.db, ctx.department);
  if (!latest) throw invalid('There are no Fall or Spring offering records yet: upload the offering history first (POST /data/upload/offerings)');
  return nextPlannedTerm(latest);
}

/**
 * The training running for each department of each store: every call while it runs shares it
 * (keyed by the store, which every call of one core shares; each call's context is a new object).
 */
const training = new WeakMap<Store, Map<number, Promise<TrainResult>>>();

/** How long a training thread stays ready for the next training before it ends and frees its memory. */
const TRAINER_IDLE_MS = 120_000;
/**
 * Training threads for the process, shared by its cores (each job names its database file): one per
 * processor, so the campuses' models train side by side.
 */
const trainers = Array.from(
  { length: Math.max(1, availableParallelism()) },
  () => new KeptWorker(siblingModule(import.meta.url, 'train-worker'), TRAINER_IDLE_MS),
);

/** Retrains every campus's model in a worker thread; a second call while one runs shares it. */
export function train(ctx: CoreContext): Promise<TrainResult> {
  let running = training.get(ctx.store);
  if (!running) training.set(ctx.store, (running = new Map<number, Promise<TrainResult>>()));
  const departments = running;
  const shared = departments.get(ctx.department);
  if (shared) return shared;
  const promise = (async () => {
    if ((await countOfferings(ctx.db, ctx.department)) === 0) throw invalid('There are no offering records to train on: upload the offering history first');
    return trainInWorker(ctx);
  })().finally(() => departments.delete(ctx.department));
  departments.set(ctx.department, promise);
  return promise;
}

async function trainInWorker(ctx: CoreContext): Promise<TrainResult> {
  const trainedAt = ctx.now();
  const modelVersion = await newModelVersion(ctx, trainedAt);
  ctx.events.emit({ type: 'progress', task: 'train', stage: 'starting', percent: 0, department: ctx.department });
  const onProgress = (message: unknown): void => {
    const p = message as TrainProgress;
    ctx.events.emit({ type: 'progress', task: 'train', campus: p.campus, stage: p.stage, percent: p.percent, department: ctx.department });
  };
  const campusesTrained = await Promise.all(
    ctx.campuses.names.map((campus, i) => {
      const input: TrainWorkerInput = { store: ctx.store.config, department: ctx.department, campuses: ctx.campuses.names, campus };
      return (trainers[i % trainers.length] as KeptWorker).run<TrainedCampus | null>(input, onProgress);
    }),
  );
  const trained = campusesTrained.filter((model) => model !== null);
  await inTransaction(ctx.db, async (trx) => {
    for (const model of trained) await saveModel(trx, ctx.department, model, modelVersion, trainedAt.toISOString());
  });
  const campuses: TrainResult['campuses'] = {};
  for (const campus of ctx.campuses.names) {
    const m = trained.find((t) => t.campus === campus);
    campuses[campus] = m
      ? { samples: m.samples, positives: m.positives, roc_auc: m.roc_auc, f1: m.f1, threshold: m.threshold, duration_ms: m.duration_ms }
      : { samples: 0, skipped: `Fewer than three Fall/Spring terms of history at ${campus}` };
  }
  ctx.events.emit({ type: 'progress', task: 'train', stage: 'done', percent: 100, department: ctx.department });
  return { samples_trained: trained.reduce((sum, m) => sum + m.samples, 0), model_version: modelVersion, campuses };
}

/** "xgb-20250114T093012Z", made unique should two trainings start in the same second. */
async function newModelVersion(ctx: CoreContext, at: Date): Promise<string> {
  const base = `xgb-${at.toISOString().replace(/[-:]/g, '').replace(/\.\d+/, '')}`;
  let version = base;
  for (let n = 2; await modelVersionTaken(ctx.db, ctx.department, version); n++) version = `${base}-${n}`;
  return version;
}

/** Boosters loaded from the stored models, per store (a restore or a new core starts afresh). */
const loadedModels = new WeakMap<Store, Map<string, Promise<CampusModels>>>();

/**
 * Loaded boosters follow the stored models: a write that changes them (training, a restore; here or
 * in another server process) forgets the store's loaded boosters. Returns the unsubscribe.
 */
export function followModelChanges(store: Store, events: CoreEvents): () => void {
  return events.subscribe((event) => {
    if (event.type === 'changed' && event.areas.includes('models')) loadedModels.delete(store);
  });
}

function boosters(store: Store, model: StoredModel): Promise<CampusModels> {
  let cache = loadedModels.get(store);
  if (!cache) loadedModels.set(store, (cache = new Map<string, Promise<CampusModels>>()));
  // Keyed by what the model is, not its row id: a restore on another server process may reuse an id.
  const key = `${model.id}|${model.campus}|${model.model_version}`;
  let loaded = cache.get(key);
  if (!loaded) {
    const models = cache;
    loaded = (async () => ({
      classifier: await Booster.load(model.classifier),
      regressor: model.regressor ? await Booster.load(model.regressor) : null,
      ...model.adjustments,
    }))().catch(() => {
      models.delete(key);
      throw invalid(`The stored ${model.campus} model (${model.model_version}) cannot be read, perhaps from a damaged backup: train the models again`);
    });
    cache.set(key, loaded);
  }
  return loaded;
}

async function modelFor(ctx: CoreContext, campus: Campus, history: Pick<History, 'leftOut'>): Promise<StoredModel> {
  let model = await currentModel(ctx.db, ctx.department, campus);
  // None yet, one from an earlier version of Termwise that reads other features, or one trained
  // without a term since confirmed complete or uploaded again (or with one now flagged): train now.
  if (!model || !fitsCurrentFeatures(model) || !sameList(model.left_out_terms, leftOutKeys(history))) {
    await train(ctx);
    model = await currentModel(ctx.db, ctx.department, campus);
  }
  if (!model) throw invalid(`There is not enough history at ${campus} to train a model: at least three Fall/Spring terms of offerings are needed`);
  return model;
}

/** Scores every catalog course for the target term and campus, and saves the run. */
export async function bulkRun(ctx: CoreContext, request: BulkRunInput): Promise<PredictionRun> {
  const input = { ...request, target_campus: ctx.campuses.require(request.target_campus, 'target_campus') };
  const campus = input.target_campus;
  if ((await countCourses(ctx.db, ctx.department)) === 0) throw invalid('The course catalog is empty: upload courses first (POST /data/upload/courses)');
  // Models learn from every campus's history: they were trained without every campus's left-out terms.
  const leftOut = await plannedLeftOut(ctx.db, ctx.department, ctx.campuses.names);
  const history = await loadHistory(ctx.db, ctx.department, [campus], leftOut);
  const profile = await departmentProfile(ctx.db, ctx.department);
  const categories = categoriesForRun(input.slots, departmentCategories(profile, history, campus).categories, catalogVocabulary(history));
  if ('field' in categories) throw fieldError(categories.field, categories.message);
  const model = await modelFor(ctx, campus, { leftOut });
  const models = await boosters(ctx.store, model);
  const t = termIndex(history.baseYear, input.target_year, input.target_semester);
  const scores = scoreCourses(models, history, campus, t);
  // What staff recorded of the term: retired courses, newly approved ones, instructors away.
  const notes = await termNotes(ctx.db, ctx.department, input.target_year, input.target_semester);
  const verdicts = await termNoteVerdicts(
    ctx.db,
    ctx.department,
    notes,
    scores.map((s) => s.course.code),
  );
  const chosen = input.use_quotas
    ? selectByQuotas(
        scores
          .filter((s) => verdicts.get(s.course.code)?.offer !== false)
          .map((s) => ({ code: s.course.code, prefixes: s.course.prefixes, types: s.course.types, score: s.confidence })),
        categories,
      )
    : null;
  const entries: ModelEntry[] = scores.map((s) => {
    const verdict = verdicts.get(s.course.code);
    const offer = verdict?.offer ?? (chosen ? chosen.has(s.course.code) : s.confidence >= model.threshold);
    const cohort = cohortDemand(s.course, input);
    const predicted = Math.max(0, Math.round(s.enrollment)) + cohort.students;
    const seats = sectionSeats(profile, s.course.code);
    return {
      course_code: s.course.code,
      course_name: s.course.name,
      prefix: s.course.prefix,
      types: s.course.types,
      confidence: round(s.confidence, 4),
      offer_score: round(s.confidence * 100, 2),
      offer,
      predicted_enrollment: predicted,
      enrollment_low: Math.min(predicted, s.enrollmentLow + cohort.students),
      enrollment_high: Math.max(predicted, s.enrollmentHigh + cohort.students),
      latent_demand: s.facts.latentDemand + cohort.students,
      bottleneck_score: s.course.dependents,
      projected_sections: offer ? Math.max(1, Math.ceil(predicted / seats)) : 0,
      section_size: seats,
      reasons: [
        ...(verdict ? [verdict.reason] : []),
        ...explain({
          score: s,
          offer,
          campus: input.target_campus,
          semester: input.target_semester,
          baseYear: history.baseYear,
          cohortSources: cohort.sources,
        }),
      ].slice(0, MAX_REASONS),
    };
  });
  entries.sort((a, b) => b.offer_score - a.offer_score || a.course_code.localeCompare(b.course_code));
  const made: NewRun = {
    run_name: input.run_name,
    target_year: input.target_year,
    target_semester: input.target_semester,
    target_campus: input.target_campus,
    model_version: model.model_version,
    created_at: ctx.now().toISOString(),
    term_notes: notes.map(describeNote),
    caveats: history.leftOut.map((t) => `${t.message} It was left out of this run; if it is complete, confirm it on the Data screen (or upload it again).`),
    entries,
  };
  return inTransaction(ctx.db, async (trx) => run({ ...ctx, db: trx }, await insertRun(trx, ctx.department, made, input)));
}

/** Per course code, what the term's notes do to its recommendation (courses no note touches are absent). */
async function termNoteVerdicts(db: Db, department: number, notes: readonly TermNote[], codes: readonly string[]): Promise<Map<string, NoteVerdict>> {
  const verdicts = new Map<string, NoteVerdict>();
  if (notes.length === 0) return verdicts;
  const index = indexNotes(notes);
  const doctors = index.away.size > 0 ? (await listDoctors(db, department)).map((d) => ({ id: d.id, name: d.name, allowed: allowedCourseList(d) })) : [];
  for (const code of codes) {
    const verdict = noteVerdict(
      code,
      index,
      doctors.filter((d) => mayTeach(d.allowed, code)),
    );
    if (verdict) verdicts.set(code, verdict);
  }
  return verdicts;
}

function round(value: number, digits: number): number {
  const f = 10 ** digits;
  return Math.round(value * f) / f;
}

/** Saved runs, newest first: every campus's, or the named campus's. */
export async function runs(ctx: CoreContext, campus: string | undefined): Promise<PredictionRun[]> {
  return listRuns(ctx.db, ctx.department, campus === undefined ? undefined : ctx.campuses.require(campus, 'campus'));
}

/** A saved run as an XLSX or CSV file. */
export async function exportRunById(ctx: CoreContext, id: number, format: 'xlsx' | 'csv'): Promise<FileResult> {
  return exportRun(await run(ctx, id), format);
}

export async function run(ctx: CoreContext, id: number): Promise<PredictionRun> {
  const found = await getRun(ctx.db, ctx.department, id);
  if (!found) throw notFound(`No prediction run with id ${id}`);
  return found;
}

/**
 * Records staff's decision on one course of a run — offer or skip, the number of sections, why —
 * beside the model's own; answers the entry as it now stands.
 */
export async function decideEntry(ctx: CoreContext, input: EntryDecisionInput): Promise<PredictionEntry> {
  const code = normaliseCourseCode(input.course_code);
  if (code === null) throw fieldError('course_code', `"${input.course_code}" is not a course code`);
  return inTransaction(ctx.db, async (trx) => {
    if (!(await runHeader(trx, ctx.department, input.run_id))) throw notFound(`No prediction run with id ${input.run_id}`);
    const found = await findEntry(trx, ctx.department, input.run_id, code);
    if (!found) throw notFound(`Run ${input.run_id} has no course ${code}`);
    const next = changedDecision(found, input);
    if ('field' in next) throw fieldError(next.field, next.message);
    await saveDecision(trx, ctx.department, input.run_id, found.course_code, {
      ...next,
      decided_at: next.staff_decision === null ? null : ctx.now().toISOString(),
    });
    return (await findEntry(trx, ctx.department, input.run_id, found.course_code)) as PredictionEntry;
  });
}

/** What changed in run `id` since run `sinceId`: the same comparison the Predictions screen shows. */
export async function compareRunsById(ctx: CoreContext, id: number, sinceId: number): Promise<{ run_id: number; since_run_id: number } & RunComparison> {
  const after = await run(ctx, id);
  const before = await run(ctx, sinceId);
  return { run_id: after.id, since_run_id: before.id, ...compareRuns(before.entries, after.entries) };
}
