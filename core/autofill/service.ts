import { CHECKED_ROLE } from '../domain/roles';
import { CoreError } from '../domain/errors';
import { nextSectionNames } from '../domain/sections';
import type { CoreContext } from '../context';
import { formatHHMM } from '../domain/time';
import { listDoctors } from '../faculty/repo';
import { allowedCourseList } from '../domain/teaching';
import { run as loadRun } from '../predict';
import { declaredRooms } from '../rooms/repo';
import { inTransaction } from '../db/transactions';
import { takeLocks } from '../db/locks';
import {
  campusTerm,
  courseCohorts,
  termLocks,
  currentTerm,
  insertCheckedEntry,
  instructorAliases,
  type ScheduleEntry,
  termForWrite,
  termOf,
  travelMinutes,
} from '../schedule';
import type { Semester, Term } from '../domain/terms';
import { AUTOFILL_BOUNDS, type AutofillSource } from '../domain/autofill';
import { listUnscheduled } from '../schedule/unscheduled-repo';
import { applyTermDraft, draftTermTimetable, type TermDraft, type TermDraftInput } from './term-draft';
import { startDraft, type DraftAnswer } from './draft-jobs';
import { mayTeach } from '../domain/teaching';
import { roomKey } from '../domain/meetings';
import { WHOLE_TERM_CODE } from '../domain/parts';
import { STANDARD_SLOTS, type Slot } from './grid';
import { solve } from './solver';
import type { Instructor, Placement, Problem, SectionDemand, SoftScore } from './problem';

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
}

export interface AutofillResult {
  source: 'run';
  placed: (Omit<ScheduleEntry, 'id' | 'locked'> & { id: number | null; locked?: boolean })[];
  unplaced: { course_code: string; section_name: string; reason: string }[];
  score: { hard_violations: number; soft: SoftScore };
  duration_ms: number;
  dry_run: boolean;
}

/** A term improved or rebuilt (source "term"): the meetings it moves, each with where it was. */
export interface TermAutofillResult extends Omit<TermDraft, 'basis' | 'term'> {
  source: 'term' | 'unscheduled';
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

/** The sections a run asks for, who may teach them, the campus's rooms and what `term` already holds. */
export async function buildProblem(ctx: CoreContext, input: AutofillInput, given?: Term): Promise<Problem> {
  const term = given ?? (await draftTerm(ctx, input));
  const run = await loadRun(ctx, runIdOf(input));
  const { own: entries, ownBookings, taken } = await campusTerm(ctx, term);
  const doctors = await listDoctors(ctx.db, ctx.department);
  // An instructor's load counts what they teach for every department.
  const loads = new Map<number, number>();
  for (const b of [...ownBookings, ...taken]) for (const id of b.doctor_ids) loads.set(id, (loads.get(id) ?? 0) + 1);
  // Sections without a time count too: their instructors teach them.
  for (const u of await listUnscheduled(ctx.db, ctx.department, term)) for (const id of u.doctor_ids) loads.set(id, (loads.get(id) ?? 0) + 1);
  const instructors = new Map<number, Instructor>(
    doctors.map((d) => [d.id, { id: d.id, name: d.name, available_days: d.available_days, available_time: d.available_time, load: loads.get(d.id) ?? 0 }]),
  );
  const allowed = new Map(doctors.map((d) => [d.id, allowedCourseList(d)]));
  const sectionsOf = new Map<string, string[]>();
  for (const e of entries) sectionsOf.set(e.course_code, [...(sectionsOf.get(e.course_code) ?? []), e.section_name]);

  const sections: SectionDemand[] = [];
  // The plan staff decided: their offer/skip and sections where given, else the model's.
  for (const entry of run.entries.filter((e) => e.planned_offer)) {
    const count = entry.planned_sections;
    const size = Math.max(1, Math.ceil(entry.predicted_enrollment / count));
    for (const name of nextSectionNames(sectionsOf.get(entry.course_code) ?? [], count)) {
      sections.push({
        course_code: entry.course_code,
        section_name: name,
        size,
        allowedDoctors: doctors.filter((d) => mayTeach(allowed.get(d.id) ?? [], entry.course_code)).map((d) => d.id),
      });
    }
  }
  const rooms = (await declaredRooms(ctx.db, ctx.department))
    .filter((r) => r.campus === null || r.campus === run.target_campus)
    .map((r) => ({ name: r.name, key: roomKey(r.name) ?? r.name.toLowerCase(), capacity: r.capacity }));
  return {
    sections,
    instructors,
    rooms,
    slots: input.slots ?? STANDARD_SLOTS,
    existing: [...ownBookings, ...taken],
    department: ctx.department,
    maxSectionsPerDoctor: input.max_sections_per_doctor,
    campus: run.target_campus,
    timeBudgetMs: input.time_budget_ms,
    rules: { travelMinutes: await travelMinutes(ctx) },
    cohorts: await courseCohorts(ctx, term, [...sections.map((s) => s.course_code), ...entries.map((e) => e.course_code)]),
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
  const stored = input.dry_run ? 0 : await applyTermDraft(ctx, draft);
  const { basis: _basis, term: _term, ...answer } = draft;
  return { source, year: term.year, semester: term.semester, ...answer, stored, duration_ms: Math.round(performance.now() - started), dry_run: input.dry_run };
}

/** Drafts a conflict-free timetable for a prediction run's recommended courses; stores it unless dry_run. */
export async function autofillRun(ctx: CoreContext, input: AutofillInput): Promise<AutofillResult> {
  const started = performance.now();
  const term = await draftTerm(ctx, input);
  const problem = await buildProblem(ctx, input, term);
  const solution = solve(problem);
  if (solution.hardViolations > 0) throw new CoreError('internal', `The auto-fill draft broke ${solution.hardViolations} hard rules; nothing was stored`);

  const asValues = (p: Placement) => ({
    year: term.year,
    semester: term.semester,
    course_code: p.section.course_code,
    section_name: p.section.section_name,
    doctors: [{ id: p.doctor.id, role: CHECKED_ROLE }],
    day: p.slot.day,
    start_time: formatHHMM(p.slot.start),
    duration_mins: p.slot.duration,
    room: p.room.name,
    part_of_term: WHOLE_TERM_CODE,
    joint_group: null,
    campus: problem.campus,
  });
  let placed: AutofillResult['placed'];
  if (input.dry_run) {
    placed = solution.placed.map((p) => {
      const instructors = [{ id: p.doctor.id, name: p.doctor.name, role: CHECKED_ROLE }];
      return { id: null, ...asValues(p), doctors: instructors, ...instructorAliases(instructors), warnings: [], curriculum_conflicts: [] };
    });
  } else {
    // All or nothing: each entry is re-checked by the timetable's own write path.
    placed = await inTransaction(ctx.db, async (db) => {
      const tx = { ...ctx, db };
      await takeLocks(db, termLocks([term]));
      await termForWrite(tx, input); // keeps the current term as chosen, like any write into it
      const stored: AutofillResult['placed'] = [];
      for (const p of solution.placed) stored.push(await insertCheckedEntry(tx, asValues(p)));
      return stored;
    });
  }
  return {
    source: 'run',
    placed,
    unplaced: solution.unplaced.map((u) => ({ course_code: u.section.course_code, section_name: u.section.section_name, reason: u.reason })),
    score: { hard_violations: solution.hardViolations, soft: solution.soft },
    duration_ms: Math.round(performance.now() - started),
    dry_run: input.dry_run,
  };
}

/** Moving a term's meetings keeps their instructors: a section's meetings would need one choice between them. */
function refuseChoiceWhileMoving(source: 'term' | 'unscheduled', choose: boolean | undefined): void {
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
  input: Omit<TermDraftInput, 'slots'> & { slots?: Slot[] | undefined; year?: number | undefined; semester?: Semester | undefined },
): Promise<DraftAnswer> {
  refuseChoiceWhileMoving(input.source, input.choose_instructors);
  const term = await draftTerm(ctx, input);
  return startDraft(ctx, term, input);
}
