import type { PartOfTerm } from '../domain/parts';
import type { Db, Store } from '../db/store';
import { dataVersion } from '../db/versions';
import { cohortCourses, corePeersWithoutPlan, courseCurriculum, coursesMentioningProgram, type CourseCurriculum } from '../catalog/repo';
import type { CoreContext } from '../context';
import type { Term } from '../domain/terms';
import { bookingOf, listEntries, meetingsOfCourses, type EntryRow } from './repo';
import { partsByCode, termAsked } from './terms';
import {
  curriculumConflicts,
  curriculumGroups,
  CurriculumNotes,
  forEachCurriculumConflict,
  readStudyPlans,
  curriculumNotes,
  type CurriculumConflict,
  type MeetingCurriculum,
  type CurriculumCourse,
  type CurriculumGroup,
} from './curriculum';

/** Each course's cohorts in the term's semester (none for a course outside `courses`). */
export function groupLookup(courses: readonly CurriculumCourse[], term: Term): (code: string) => readonly CurriculumGroup[] {
  const byCode = new Map(courses.map((c) => [c.code, c]));
  return (code) => {
    const course = byCode.get(code);
    return course ? curriculumGroups(course, term.semester) : [];
  };
}

async function conflictsAmong(
  ctx: CoreContext,
  term: Term,
  rows: readonly EntryRow[],
  groupsOf: (code: string) => readonly CurriculumGroup[],
  focus: string | null = null,
  known?: ReadonlyMap<string, PartOfTerm>,
): Promise<CurriculumConflict[]> {
  const parts = known ?? (await partsByCode(ctx, term));
  return curriculumConflicts(
    rows.map((row) => bookingOf(row, parts)),
    groupsOf,
    focus,
  );
}

/**
 * A term's curriculum conflicts — how many, and each meeting's notes — kept until anything in the
 * database changes: a term's screen reads them on every load, and a study plan of a thousand
 * courses makes them costly. The key is this connection's changes and SQLite's count of other
 * connections' commits (an import writes from its own thread), so any write anywhere invalidates it.
 */
interface TermCurriculum {
  version: string;
  count: number;
  notes: Map<number, MeetingCurriculum>;
}
const termMemo = new WeakMap<Store, Map<string, TermCurriculum>>();

async function termCurriculum(ctx: CoreContext, term: Term, rows?: readonly EntryRow[]): Promise<TermCurriculum> {
  // Inside a write's transaction the data may differ from what others see: worked out afresh, not kept.
  const memo = ctx.db.isTransaction ? new Map<string, TermCurriculum>() : (termMemo.get(ctx.store) ?? new Map<string, TermCurriculum>());
  if (!ctx.db.isTransaction) termMemo.set(ctx.store, memo);
  const key = `${ctx.department}|${term.year}|${term.semester}`;
  const version = await dataVersion(ctx.db);
  const kept = memo.get(key);
  if (kept && kept.version === version) return kept;
  const parts = await partsByCode(ctx, term);
  const notes = new CurriculumNotes();
  let count = 0;
  const meetings = rows ?? (await listEntries(ctx.db, ctx.department, term));
  forEachCurriculumConflict(
    meetings.map((row) => bookingOf(row, parts)),
    groupLookup(await cohortCourses(ctx.db, ctx.department), term),
    null,
    (conflict) => {
      count++;
      notes.add(conflict);
    },
  );
  const entry = { version, count, notes: notes.byMeeting() };
  memo.set(key, entry);
  return entry;
}

/** How many pairs of courses of one cohort in a term have no clash-free choice of sections. */
export async function termCurriculumConflictCount(ctx: CoreContext, term: Term): Promise<number> {
  return (await termCurriculum(ctx, term)).count;
}

/** The curriculum groups (keys) of each given course in a term, for the auto-fill's soft goal. */
export async function courseCohorts(ctx: CoreContext, term: Term, codes: Iterable<string>): Promise<Map<string, string[]>> {
  const groupsOf = groupLookup(await cohortCourses(ctx.db, ctx.department), term);
  return new Map([...new Set(codes)].map((code) => [code, groupsOf(code).map((g) => g.key)]));
}

/** A cohort of students and the courses of the term's timetable it takes. */
export interface TermCohort {
  key: string;
  label: string;
  courses: string[];
}

/** The cohorts (curriculum groups) of a term's timetable (the current term unless named), each with its courses there, by label. */
export async function termCohorts(ctx: CoreContext, asked: Partial<Term>): Promise<TermCohort[]> {
  const term = await termAsked(ctx, asked);
  const groupsOf = groupLookup(await cohortCourses(ctx.db, ctx.department), term);
  const cohorts = new Map<string, TermCohort>();
  for (const code of new Set((await listEntries(ctx.db, ctx.department, term)).map((row) => row.course_code))) {
    for (const group of groupsOf(code)) {
      const cohort = cohorts.get(group.key) ?? { key: group.key, label: group.label, courses: [] };
      cohort.courses.push(code);
      cohorts.set(group.key, cohort);
    }
  }
  return [...cohorts.values()].map((c) => ({ ...c, courses: c.courses.sort() })).sort((a, b) => a.label.localeCompare(b.label));
}

/** Curriculum notes of a whole term's meetings, by entry id. */
export async function termCurriculumNotes(ctx: CoreContext, term: Term, rows: readonly EntryRow[]): Promise<Map<number, MeetingCurriculum>> {
  return (await termCurriculum(ctx, term, rows)).notes;
}

/**
 * The catalog courses that may share a cohort with a course: for a study plan, those whose plan
 * names the same program; for a core course without one, the core courses of its prefix and
 * level. A narrowing in SQL (the groups themselves are worked out from what it returns), so a
 * write reads a program's courses, not the whole catalog.
 */
async function possiblePeers(db: Db, department: number, course: CurriculumCourse, groups: readonly CurriculumGroup[]): Promise<CurriculumCourse[]> {
  if (groups.every((g) => g.source === 'core')) {
    return corePeersWithoutPlan(db, department, course.prefix, course.course_level);
  }
  const programs = [...new Set(readStudyPlans(course.study_plan ?? '').map((plan) => plan.program))];
  const byCode = new Map<string, CurriculumCourse>();
  for (const program of programs) for (const peer of await coursesMentioningProgram(db, department, program)) byCode.set(peer.code, peer);
  return [...byCode.values()];
}

/**
 * Curriculum notes of one meeting just written: only the courses that can share a cohort with it
 * are read, so a write whose course has none costs one lookup. `course` is its catalog course
 * (undefined: not in the catalog), and `parts` the term's parts of term, when the caller has read them already.
 */
export async function meetingCurriculumNotes(
  ctx: CoreContext,
  row: EntryRow,
  known?: { course: CourseCurriculum | undefined; parts?: ReadonlyMap<string, PartOfTerm> },
): Promise<MeetingCurriculum> {
  const term: Term = { year: row.year, semester: row.semester };
  const course = known ? known.course : await courseCurriculum(ctx.db, ctx.department, row.course_code);
  const groups = course ? curriculumGroups(course, term.semester) : [];
  if (!course || groups.length === 0) return { notes: [], more: 0 };
  const courses = await possiblePeers(ctx.db, ctx.department, course, groups);
  const groupsOf = groupLookup(courses, term);
  const mine = new Set(groups.map((g) => g.key));
  const peers = courses.filter((c) => groupsOf(c.code).some((g) => mine.has(g.key))).map((c) => c.code);
  return (
    curriculumNotes(await conflictsAmong(ctx, term, await meetingsOfCourses(ctx.db, ctx.department, term, peers), groupsOf, row.course_code, known?.parts)).get(
      row.id,
    ) ?? {
      notes: [],
      more: 0,
    }
  );
}
