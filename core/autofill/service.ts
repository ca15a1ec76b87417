import { CHECKED_ROLE } from '../domain/roles';
import { CoreError } from '../domain/errors';
import { nextSectionNames } from '../domain/sections';
import type { CoreContext } from '../context';
import { run as loadRun, type PredictionRun } from '../predict';
import { listUntimedSections } from '../timetable/untimed-repo';
import { pushTo } from '../util/multimap';
import { campusTerm, currentTerm, instructorAliases, type ScheduleEntry, termOf } from '../timetable';
import { termLabel, type Semester, type Term } from '../domain/terms';
import { AUTOFILL_BOUNDS, type AutofillSource, type SoftWeights } from '../domain/autofill';
import { applyTermDraft, draftTermTimetable, placedAsStored, type RunPlan, type TermDraft, type TermDraftInput, type TermSource } from './term-draft';
import { keepDraft, startDraft, type DraftAnswer } from './draft-jobs';
import type { Slot } from './grid';
import type { DraftGoals } from './term-model';

export interface AutofillInput {
  source?: AutofillSource | undefined;
  run_id?: number | undefined;
  rebuild?: boolean | undefined;
  seed?: number | undefined;
  choose_instructors?: boolean | undefined;
  dry_run: boolean;
  time_budget_ms: number;
  max_sections_per_doctor: number;
  slots?: Slot[] | undefined;
  year?: number | undefined;
  semester?: Semester | undefined;
  /** Weights other than SOFT_WEIGHTS (benchmarks compare them; not on the wire). */
  weights?: SoftWeights | undefined;
}

export interface AutofillResult {
  source: 'run';
  /** The term drafted into: the run's own unless another was asked. */
  year: number;
  semester: Semester;
  /** Per course of the plan: the sections it asks for, those the term has already, those drafted (the difference). */
  plan: PlannedCourse[];
  /** What a scheduler should know before applying, in words (the run plans another term). */
  notes: string[];
  /** On a dry run, each with `draft_section`: its id in the draft, to apply only some (POST /scheduler/auto/{draft_id}/apply `sections`). */
  placed: (Omit<ScheduleEntry, 'id' | 'locked' | 'uid'> & { id: number | null; locked?: boolean; uid?: string; draft_section?: number })[];
  unplaced: { course_code: string; section_name: string; reason: string }[];
  /** A dry run's draft, kept an hour to apply all or part of it (POST /scheduler/auto/{draft_id}/apply); null once stored. */
  draft_id: string | null;
  /** The soft goals met; core_clashes is the same count as curriculum_clashes, under a second name the wire keeps. */
  score: { hard_violations: number; soft: DraftGoals & { core_clashes: number } };
  duration_ms: number;
  dry_run: boolean;
}

/** A term improved or rebuilt (source "term"): the meetings it moves, each with where it was. */
export interface TermAutofillResult extends Omit<TermDraft, 'basis' | 'term' | 'source'> {
  source: 'term' | 'unscheduled';
  /** A dry run's draft, kept an hour to apply all or part of it; null once stored. */
  draft_id: string | null;
  year: number;
  semester: Semester;
  /** Meetings stored (0 on a dry run). */
  stored: number;
  duration_ms: number;
  dry_run: boolean;
}

/**
 * The term a draft goes to: where entries without a term go (the current term) unless one is
 * given. The run only says what to place.
 */
export async function draftTerm(ctx: CoreContext, input: Partial<Term>): Promise<Term> {
  return termOf(input, await currentTerm(ctx));
}

/** What a run's plan asks of one course, and what the term has of it already: only the difference is drafted. */
export interface PlannedCourse {
  course_code: string;
  /** The sections the plan asks for (staff's decision, else the model's). */
  planned: number;
  /** The sections the term has of it already (timed or not). */
  existing: number;
  /** The sections drafted: the plan's less the existing, none below zero. */
  drafted: number;
}

/**
 * The sections a run's plan still needs in the term: for each course it offers, its planned
 * sections less those the term already has at the run's campus (meetings and sections without a
 * time; another campus's sections serve other students), named after every section of the term;
 * each seats its share of the course's expected students.
 */
async function runPlan(ctx: CoreContext, run: PredictionRun, term: Term): Promise<RunPlan & { courses: PlannedCourse[] }> {
  const { own } = await campusTerm(ctx, term);
  const untimed = await listUntimedSections(ctx.db, ctx.department, term);
  // Every section's name, whatever its campus (new ones are named after them all); those at the run's campus count.
  const namesOf = new Map<string, string[]>();
  const atCampus = new Map<string, string[]>();
  for (const e of [...own, ...untimed]) {
    pushTo(namesOf, e.course_code, e.section_name);
    if (e.campus === run.target_campus) pushTo(atCampus, e.course_code, e.section_name);
  }
  const sections: RunPlan['sections'] = [];
  const courses: PlannedCourse[] = [];
  for (const entry of run.entries.filter((e) => e.planned_offer)) {
    // A section's several meetings are one section.
    const existing = new Set(atCampus.get(entry.course_code)).size;
    const planned = entry.planned_sections;
    const drafted = Math.max(0, planned - existing);
    courses.push({ course_code: entry.course_code, planned, existing, drafted });
    const size = Math.max(1, Math.ceil(entry.predicted_enrollment / Math.max(1, planned)));
    for (const name of nextSectionNames(namesOf.get(entry.course_code) ?? [], drafted))
      sections.push({ course_code: entry.course_code, section_name: name, size });
  }
  return { campus: run.target_campus, sections, courses };
}

/**
 * The term a run's sections are drafted into: the one given, else the run's own; and, when the
 * given term is not the run's, a note saying so in words.
 */
function runTerm(run: PredictionRun, input: Partial<Term>): { term: Term; notes: string[] } {
  const own: Term = { year: run.target_year, semester: run.target_semester };
  const term = termOf(input, own);
  const same = term.year === own.year && term.semester === own.semester;
  return {
    term,
    notes: same ? [] : [`"${run.run_name || `Run ${run.id}`}" plans ${termLabel(own)}: its sections are drafted into ${termLabel(term)}, as asked`],
  };
}

const runIdOf = (input: AutofillInput): number => {
  if (input.run_id === undefined) throw new CoreError('invalid', 'Auto-fill from a prediction run needs run_id: the run whose recommended courses it places');
  return input.run_id;
};

/** Drafts a timetable: a run's new sections, or the term's own meetings (source "term"); stores it unless dry_run. */
export async function autofill(ctx: CoreContext, input: AutofillInput): Promise<AutofillResult | TermAutofillResult> {
  if (input.source === 'term' || input.source === 'unscheduled') return autofillTerm(ctx, input, input.source);
  return autofillRun(ctx, input);
}

async function autofillTerm(ctx: CoreContext, input: AutofillInput, source: 'term' | 'unscheduled'): Promise<TermAutofillResult> {
  const started = performance.now();
  refuseChoiceWhileMoving(source, input.choose_instructors);
  const term = await draftTerm(ctx, input);
  const draft = await draftTermTimetable(ctx, term, {
    source,
    choose_instructors: input.choose_instructors,
    max_sections_per_doctor: input.max_sections_per_doctor,
    rebuild: input.rebuild ?? false,
    seed: input.seed ?? AUTOFILL_BOUNDS.seed.default,
    time_budget_ms: input.time_budget_ms,
    slots: input.slots,
  });
  const applied = input.dry_run ? null : await applyTermDraft(ctx, draft);
  const { basis: _basis, term: _term, source: _source, ...answer } = draft;
  return {
    source,
    year: term.year,
    semester: term.semester,
    ...answer,
    // Once stored, each placed section answers its stored meeting's id.
    placed: applied === null ? answer.placed : placedAsStored(answer.placed, applied.stored),
    stored: applied?.count ?? 0,
    draft_id: input.dry_run ? await keepDraft(ctx, draft) : null,
    duration_ms: Math.round(performance.now() - started),
    dry_run: input.dry_run,
  };
}

/**
 * Drafts a timetable for a prediction run's new sections with the term's own search (term-draft.ts:
 * each section at a standard time, in a declared room of the run's campus that seats it, with an
 * instructor the search chooses among those who may teach it); stores it unless dry_run.
 */
export async function autofillRun(ctx: CoreContext, input: AutofillInput): Promise<AutofillResult> {
  const started = performance.now();
  const run = await loadRun(ctx, runIdOf(input));
  const { term, notes } = runTerm(run, input);
  const plan = await runPlan(ctx, run, term);
  const draft = await draftTermTimetable(ctx, term, {
    source: 'run',
    run: plan,
    choose_instructors: input.choose_instructors,
    max_sections_per_doctor: input.max_sections_per_doctor,
    rebuild: false,
    seed: input.seed ?? AUTOFILL_BOUNDS.seed.default,
    time_budget_ms: input.time_budget_ms,
    slots: input.slots,
    weights: input.weights,
  });
  const inOrder = [...draft.placed].sort(
    (a, b) => a.course_code.localeCompare(b.course_code) || a.section_name.localeCompare(b.section_name, 'en', { numeric: true }),
  );
  let placed: AutofillResult['placed'];
  if (input.dry_run) {
    placed = inOrder.map((p) => {
      const instructors = p.instructor_ids.map((id, i) => ({ id, name: p.instructors[i] ?? '', role: CHECKED_ROLE }));
      const { id: _id, instructors: _names, instructor_ids: _ids, ...values } = p;
      return {
        id: null,
        draft_section: p.id,
        ...term,
        ...values,
        doctors: instructors,
        ...instructorAliases(instructors),
        warnings: [],
        curriculum_conflicts: [],
      };
    });
  } else {
    // All or nothing, through the timetable's own write path.
    placed = (await applyTermDraft(ctx, { ...draft, placed: inOrder }, { keepTerm: term })).stored;
  }
  const { goals } = draft;
  return {
    source: 'run',
    ...term,
    plan: plan.courses,
    notes,
    placed,
    unplaced: draft.unplaced.map((u) => ({ course_code: u.course_code, section_name: u.section_name, reason: u.reason })),
    draft_id: input.dry_run ? await keepDraft(ctx, draft) : null,
    score: { hard_violations: draft.score.hard_violations, soft: { ...goals, core_clashes: goals.curriculum_clashes } },
    duration_ms: Math.round(performance.now() - started),
    dry_run: input.dry_run,
  };
}

/** Moving a term's meetings keeps their instructors: a section's meetings would need one choice between them. */
function refuseChoiceWhileMoving(source: TermDraftInput['source'], choose: boolean | undefined): void {
  if (source === 'term' && choose === true) {
    throw new CoreError(
      'invalid',
      'Auto-fill of a term\'s meetings keeps their instructors: choose_instructors is for sections without a time (source "unscheduled") and a run\'s new sections (source "run")',
    );
  }
}

/** Starts drafting a term in the background (draft-jobs.ts): answers the draft's id and state at once. */
export async function startTermDraft(
  ctx: CoreContext,
  input: Omit<TermDraftInput, 'slots' | 'source'> & {
    source: TermSource;
    slots?: Slot[] | undefined;
    year?: number | undefined;
    semester?: Semester | undefined;
  },
): Promise<DraftAnswer> {
  refuseChoiceWhileMoving(input.source, input.choose_instructors);
  const term = await draftTerm(ctx, input);
  return startDraft(ctx, term, input);
}
