import { courseTypes } from '../catalog/types';
import { sectionLabel } from '../domain/meetings';
import { normaliseSemester, type Semester } from '../domain/terms';
import { jointPartners, meetTogether, type Booking } from './conflicts';

/**
 * Curriculum conflicts, pure: courses that one cohort of students takes in the same term must not
 * overlap. The catalog's `study_plan` names the cohort ("Computer Science — Year 2, Fall"); a
 * course without one falls back to the core courses of its prefix and level (all core CSC 2xx).
 * Two courses of one group conflict when every choice of one section of each overlaps somewhere:
 * if any pair of their sections is clash-free, the students have a choice and nothing is wrong.
 */

/** What the rule reads of a catalog course. */
export interface CurriculumCourse {
  code: string;
  prefix: string;
  course_level: number;
  type: string | null;
  study_plan: string | null;
}

/** A cohort of students who take the group's courses together; `key` compares, `label` is shown. */
export interface CurriculumGroup {
  key: string;
  label: string;
  /** Where the cohort comes from: a study plan, or the core courses of a prefix and level. */
  source: 'plan' | 'core';
}

/** One cohort entry of a study plan: the program, the year of study, the semesters it names (none: any). */
export interface StudyPlan {
  program: string;
  year: number | null;
  semesters: Semester[];
}

/** The longest study-plan text read; a catalog cell is a short phrase, never a document. */
const MAX_PLAN_TEXT = 500;
const MAX_PLANS_PER_COURSE = 10;

const YEAR_PATTERNS = [/\b(?:year|yr)\.?\s*(\d{1,2})\b/i, /\b(\d{1,2})(?:st|nd|rd|th)\s+year\b/i];
const SEPARATORS = /^[\s,;:—–-]+|[\s,;:—–(-]+$/g;

/** "Computer Science — Year 2, Fall or Spring" → program, year, semesters; several plans split on ";" or new lines. */
export function readStudyPlans(text: string): StudyPlan[] {
  const plans: StudyPlan[] = [];
  for (const piece of text.slice(0, MAX_PLAN_TEXT).split(/[;\n]/)) {
    if (plans.length >= MAX_PLANS_PER_COURSE) break;
    const trimmed = piece.trim();
    if (trimmed === '') continue;
    const yearMatch = YEAR_PATTERNS.map((p) => p.exec(trimmed)).find((m) => m !== null) ?? null;
    const semesters = new Set<Semester>();
    for (const word of trimmed.split(/[^A-Za-z]+/)) {
      if (/^both$/i.test(word)) ['Fall', 'Spring'].forEach((s) => semesters.add(s as Semester));
      else if (/^(fall|autumn|spring|summer)$/i.test(word)) semesters.add(normaliseSemester(word) as Semester);
    }
    const before = yearMatch ? trimmed.slice(0, yearMatch.index) : trimmed.replace(/\b(fall|autumn|spring|summer|both|or|and)\b/gi, ' ');
    const program = before.replace(/\s+/g, ' ').replace(SEPARATORS, '').trim();
    plans.push({ program: program || trimmed, year: yearMatch ? Number(yearMatch[1]) : null, semesters: [...semesters] });
  }
  return plans;
}

/** Worked-out groups by what they depend on: every write reads a program's plans again, and plans rarely change. */
const groupsMemo = new Map<string, readonly CurriculumGroup[]>();
const MAX_MEMO = 10_000;

/** The cohorts that take a course in a semester: its study plans for that semester, else (a core course) its prefix and level. */
export function curriculumGroups(course: CurriculumCourse, semester: Semester): readonly CurriculumGroup[] {
  const key = [semester, course.study_plan ?? '', course.type ?? '', course.prefix, course.course_level].join('\u0000');
  let groups = groupsMemo.get(key);
  if (!groups) {
    if (groupsMemo.size >= MAX_MEMO) groupsMemo.clear();
    groups = Object.freeze(groupsOfCourse(course, semester));
    groupsMemo.set(key, groups);
  }
  return groups;
}

function groupsOfCourse(course: CurriculumCourse, semester: Semester): CurriculumGroup[] {
  if (course.study_plan !== null && course.study_plan.trim() !== '') {
    return readStudyPlans(course.study_plan)
      .filter((plan) => plan.semesters.length === 0 || plan.semesters.includes(semester))
      .map((plan) => ({
        key: `plan:${plan.program.toLowerCase()}|${plan.year ?? ''}`,
        label: plan.year === null ? plan.program : `${plan.program}, Year ${plan.year}`,
        source: 'plan' as const,
      }));
  }
  if (!courseTypes(course.type).includes('core')) return [];
  const level = course.course_level > 0 ? ` ${course.course_level}00-level` : '';
  return [{ key: `core:${course.prefix.toUpperCase()}|${course.course_level}`, label: `${course.prefix.toUpperCase()}${level} core courses`, source: 'core' }];
}

/** Two courses of one cohort whose sections cannot be combined without an overlap. */
export interface CurriculumConflict {
  group: string;
  /** Students attend one campus: sections elsewhere are no choice and no clash. */
  campus: string;
  courses: [string, string];
  /** Every overlapping pair of meetings, the first of each from courses[0]. */
  overlaps: [Booking, Booking][];
}

/** Two meetings a student of both cannot attend: they meet together and are not one joint class. */
function studentClash(a: Booking, b: Booking): boolean {
  return meetTogether(a, b) && !jointPartners(a, b);
}

/** A course's meetings by section. */
type Sections = Map<string, Booking[]>;

function sectionsClash(a: readonly Booking[], b: readonly Booking[]): boolean {
  return a.some((x) => b.some((y) => studentClash(x, y)));
}

function conflictOf(group: string, campus: string, codes: [string, string], a: Sections, b: Sections): CurriculumConflict | null {
  for (const sa of a.values()) for (const sb of b.values()) if (!sectionsClash(sa, sb)) return null;
  const overlaps: [Booking, Booking][] = [];
  for (const sa of a.values()) for (const x of sa) for (const sb of b.values()) for (const y of sb) if (studentClash(x, y)) overlaps.push([x, y]);
  return { group, campus, courses: codes, overlaps };
}

/**
 * Every curriculum conflict among a term's meetings, campus by campus; `groupsOf` gives each
 * course's cohorts in the term. A pair of courses in several groups is reported once, under the first.
 * With `focus`, only the pairs that include that course are checked (a write's own conflicts).
 */
export function curriculumConflicts(meetings: readonly Booking[], groupsOf: (code: string) => readonly CurriculumGroup[], focus: string | null = null): CurriculumConflict[] {
  const byCampus = new Map<string, Map<string, Sections>>();
  for (const m of meetings) {
    const byCourse = byCampus.get(m.campus) ?? new Map<string, Sections>();
    const sections = byCourse.get(m.course_code) ?? new Map<string, Booking[]>();
    const list = sections.get(m.section_name) ?? [];
    list.push(m);
    sections.set(m.section_name, list);
    byCourse.set(m.course_code, sections);
    byCampus.set(m.campus, byCourse);
  }
  return [...byCampus].flatMap(([campus, byCourse]) => campusConflicts(campus, byCourse, groupsOf, focus));
}

function campusConflicts(campus: string, byCourse: ReadonlyMap<string, Sections>, groupsOf: (code: string) => readonly CurriculumGroup[], focus: string | null): CurriculumConflict[] {
  const groups = new Map<string, { label: string; codes: string[] }>();
  for (const code of [...byCourse.keys()].sort()) {
    for (const group of groupsOf(code)) {
      const entry = groups.get(group.key) ?? { label: group.label, codes: [] };
      if (!entry.codes.includes(code)) entry.codes.push(code);
      groups.set(group.key, entry);
    }
  }
  const seen = new Set<string>();
  const conflicts: CurriculumConflict[] = [];
  for (const { label, codes } of groups.values()) {
    for (let i = 0; i < codes.length; i++) {
      for (let j = i + 1; j < codes.length; j++) {
        const pair: [string, string] = [codes[i] as string, codes[j] as string];
        if (focus !== null && !pair.includes(focus)) continue;
        const key = pair.join('\u0000');
        if (seen.has(key)) continue;
        seen.add(key);
        const conflict = conflictOf(label, campus, pair, byCourse.get(pair[0]) as Sections, byCourse.get(pair[1]) as Sections);
        if (conflict) conflicts.push(conflict);
      }
    }
  }
  return conflicts;
}

/** A curriculum conflict in one sentence, naming the cohort, the two courses and the overlapping sections. */
export function describeCurriculumConflict(conflict: CurriculumConflict): string {
  const [first, second] = conflict.courses;
  const pairs = [...new Set(conflict.overlaps.map(([a, b]) => `${sectionLabel(a.course_code, a.section_name)} with ${sectionLabel(b.course_code, b.section_name)}`))];
  return `Students of ${conflict.group} take ${first} and ${second} together at ${conflict.campus}, and every choice of their sections overlaps (${pairs.join('; ')})`;
}

/** What a meeting in a curriculum conflict is told: the other course, and the warning naming it and the sections it overlaps. */
export interface CurriculumNote {
  course: string;
  warning: string;
}

/** The notes each meeting of a conflict carries, by entry id. */
export function curriculumNotes(conflicts: readonly CurriculumConflict[]): Map<number, CurriculumNote[]> {
  const overlapped = new Map<number, Map<string, { group: string; sections: Set<string> }>>();
  const note = (meeting: Booking, other: Booking, group: string): void => {
    if (meeting.id === null) return;
    const byCourse = overlapped.get(meeting.id) ?? new Map<string, { group: string; sections: Set<string> }>();
    const entry = byCourse.get(other.course_code) ?? { group, sections: new Set<string>() };
    entry.sections.add(other.section_name);
    byCourse.set(other.course_code, entry);
    overlapped.set(meeting.id, byCourse);
  };
  for (const conflict of conflicts) {
    for (const [a, b] of conflict.overlaps) {
      note(a, b, conflict.group);
      note(b, a, conflict.group);
    }
  }
  const notes = new Map<number, CurriculumNote[]>();
  for (const [id, byCourse] of overlapped) {
    notes.set(
      id,
      [...byCourse].map(([course, { group, sections }]) => {
        const labels = [...sections].map((s) => sectionLabel(course, s)).join(', ');
        return { course, warning: `Curriculum conflict: students of ${group} take this course and ${course} together, and every choice of their sections overlaps (this meeting overlaps ${labels})` };
      }),
    );
  }
  return notes;
}
