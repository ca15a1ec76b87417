import { courseTypes } from '../domain/course-types';
import { sectionLabel } from '../domain/meetings';
import { normaliseSemester, PLANNED_SEMESTERS, type Semester } from '../domain/terms';
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
      if (/^both$/i.test(word)) PLANNED_SEMESTERS.forEach((s) => semesters.add(s));
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

/**
 * Every curriculum conflict among a term's meetings, campus by campus; `groupsOf` gives each
 * course's cohorts in the term. A pair of courses in several groups is reported once, under the first.
 * With `focus`, only the pairs that include that course are checked (a write's own conflicts).
 */
export function curriculumConflicts(
  meetings: readonly Booking[],
  groupsOf: (code: string) => readonly CurriculumGroup[],
  focus: string | null = null,
): CurriculumConflict[] {
  const found: CurriculumConflict[] = [];
  forEachCurriculumConflict(meetings, groupsOf, focus, (conflict) => found.push(conflict));
  return found;
}

/** Overlapping meeting pairs a conflict keeps (enough to name every section pair of any real course pair). */
const MAX_KEPT_OVERLAPS = 50;

/**
 * curriculumConflicts one at a time, in bounded memory: a study plan of a thousand courses meeting
 * in one slot has half a million conflicting pairs, which the caller counts or keeps the first of.
 * Within a cohort, each meeting is compared only with the meetings whose times of day can
 * intersect it (found by start time), so the work follows the overlaps, not the square of the plan.
 */
export function forEachCurriculumConflict(
  meetings: readonly Booking[],
  groupsOf: (code: string) => readonly CurriculumGroup[],
  focus: string | null,
  visit: (conflict: CurriculumConflict) => void,
): void {
  const byCampus = new Map<string, Booking[]>();
  for (const m of meetings) {
    const list = byCampus.get(m.campus);
    if (list) list.push(m);
    else byCampus.set(m.campus, [m]);
  }
  for (const [campus, list] of byCampus) campusConflicts(campus, list, groupsOf, focus, visit);
}

function campusConflicts(
  campus: string,
  meetings: readonly Booking[],
  groupsOf: (code: string) => readonly CurriculumGroup[],
  focus: string | null,
  visit: (conflict: CurriculumConflict) => void,
): void {
  // The cohorts in order (of their first course code), each with its meetings; each course's sections.
  const groups = new Map<string, { label: string; meetings: Booking[] }>();
  const sectionsOf = new Map<string, Set<string>>();
  for (const m of [...meetings].sort((x, y) => x.course_code.localeCompare(y.course_code) || x.start - y.start)) {
    const sections = sectionsOf.get(m.course_code) ?? new Set<string>();
    sections.add(m.section_name);
    sectionsOf.set(m.course_code, sections);
    for (const group of groupsOf(m.course_code)) {
      const entry = groups.get(group.key) ?? { label: group.label, meetings: [] };
      entry.meetings.push(m);
      groups.set(group.key, entry);
    }
  }
  const order = new Map([...groups.keys()].map((key, i) => [key, i]));
  const keysOf = new Map([...sectionsOf.keys()].map((code) => [code, groupsOf(code).map((g) => g.key)]));
  /** Whether the pair is reported under an earlier cohort that holds both courses (only possible when both are in several). */
  const earlierGroup = (a: string, b: string, index: number): boolean => {
    const mine = keysOf.get(a) ?? [];
    const theirs = keysOf.get(b) ?? [];
    if (mine.length < 2 || theirs.length < 2) return false;
    return mine.some((key) => theirs.includes(key) && (order.get(key) ?? index) < index);
  };
  let index = 0;
  for (const { label, meetings: members } of groups.values()) {
    const byStart = [...members].sort((x, y) => x.start - y.start);
    const starts = byStart.map((m) => m.start);
    const longest = Math.max(0, ...byStart.map((m) => m.duration));
    // Course by course (members are in course order): the later courses its meetings overlap.
    for (let first = 0; first < members.length;) {
      const code = (members[first] as Booking).course_code;
      let last = first;
      while (last < members.length && (members[last] as Booking).course_code === code) last++;
      const against = new Map<string, { overlaps: [Booking, Booking][]; sections: Set<string> }>();
      for (let k = first; k < last; k++) {
        const a = members[k] as Booking;
        // Only meetings starting within the longest meeting before a's start can reach into it.
        for (let j = lowerBound(starts, a.start - longest); j < byStart.length && (byStart[j] as Booking).start < a.start + a.duration; j++) {
          const b = byStart[j] as Booking;
          if (b.course_code <= code || (focus !== null && code !== focus && b.course_code !== focus) || !studentClash(a, b)) continue;
          let pair = against.get(b.course_code);
          if (!pair) against.set(b.course_code, (pair = { overlaps: [], sections: new Set() }));
          if (pair.overlaps.length < MAX_KEPT_OVERLAPS) pair.overlaps.push([a, b]);
          pair.sections.add(`${a.section_name}\u0000${b.section_name}`);
        }
      }
      for (const other of [...against.keys()].sort()) {
        const pair = against.get(other) as { overlaps: [Booking, Booking][]; sections: Set<string> };
        if (earlierGroup(code, other, index)) continue;
        // A conflict only when every choice of one section of each overlaps somewhere.
        const choices = (sectionsOf.get(code)?.size ?? 0) * (sectionsOf.get(other)?.size ?? 0);
        if (pair.sections.size === choices) visit({ group: label, campus, courses: [code, other], overlaps: pair.overlaps });
      }
      first = last;
    }
    index++;
  }
}

/** The first index whose value is at least `value` in an ascending list. */
function lowerBound(sorted: readonly number[], value: number): number {
  let lo = 0;
  let hi = sorted.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if ((sorted[mid] as number) < value) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** A curriculum conflict in one sentence, naming the cohort, the two courses and the overlapping sections. */
export function describeCurriculumConflict(conflict: CurriculumConflict): string {
  const [first, second] = conflict.courses;
  const pairs = [
    ...new Set(conflict.overlaps.map(([a, b]) => `${sectionLabel(a.course_code, a.section_name)} with ${sectionLabel(b.course_code, b.section_name)}`)),
  ];
  return `Students of ${conflict.group} take ${first} and ${second} together at ${conflict.campus}, and every choice of their sections overlaps (${pairs.join('; ')})`;
}

/** What a meeting in a curriculum conflict is told: the other course, and the warning naming it and the sections it overlaps. */
export interface CurriculumNote {
  course: string;
  warning: string;
}

/** Courses a meeting's warnings name one by one; beyond, one warning counts the rest. */
export const MAX_NAMED_CURRICULUM_COURSES = 10;

/** A meeting's curriculum conflicts: the first courses it clashes with, each with its warning, and how many more. */
export interface MeetingCurriculum {
  notes: CurriculumNote[];
  more: number;
}

/** The warning that counts the courses a meeting's notes do not name. */
export function moreCurriculumWarning(more: number): string {
  return `Curriculum conflict: this meeting also overlaps ${more.toLocaleString('en-US')} more course${more === 1 ? '' : 's'} its students take together with it, with no clash-free choice of sections`;
}

/** The notes each meeting of a conflict carries, by entry id (bounded per meeting: the first courses named, the rest counted). */
export function curriculumNotes(conflicts: Iterable<CurriculumConflict>): Map<number, MeetingCurriculum> {
  const notes = new CurriculumNotes();
  for (const conflict of conflicts) notes.add(conflict);
  return notes.byMeeting();
}

/** Gathers meetings' curriculum notes conflict by conflict, in memory bounded per meeting. */
export class CurriculumNotes {
  private readonly named = new Map<number, Map<string, { group: string; sections: Set<string> }>>();
  private readonly more = new Map<number, number>();

  add(conflict: CurriculumConflict): void {
    // Each conflict is one pair of courses: each meeting in it clashes with the other course once.
    const sides = new Map<number, { other: string; sections: Set<string> }>();
    for (const [a, b] of conflict.overlaps) {
      for (const [meeting, other] of [
        [a, b],
        [b, a],
      ] as const) {
        if (meeting.id === null) continue;
        const side = sides.get(meeting.id) ?? { other: other.course_code, sections: new Set<string>() };
        side.sections.add(other.section_name);
        sides.set(meeting.id, side);
      }
    }
    for (const [id, side] of sides) {
      let byCourse = this.named.get(id);
      if (!byCourse) this.named.set(id, (byCourse = new Map<string, { group: string; sections: Set<string> }>()));
      if (byCourse.size < MAX_NAMED_CURRICULUM_COURSES) byCourse.set(side.other, { group: conflict.group, sections: side.sections });
      else this.more.set(id, (this.more.get(id) ?? 0) + 1);
    }
  }

  byMeeting(): Map<number, MeetingCurriculum> {
    const notes = new Map<number, MeetingCurriculum>();
    for (const [id, byCourse] of this.named) {
      notes.set(id, {
        notes: [...byCourse].map(([course, { group, sections }]) => {
          const labels = [...sections]
            .sort((x, y) => x.localeCompare(y, 'en', { numeric: true }))
            .map((sec) => sectionLabel(course, sec))
            .join(', ');
          return {
            course,
            warning: `Curriculum conflict: students of ${group} take this course and ${course} together, and every choice of their sections overlaps (this meeting overlaps ${labels})`,
          };
        }),
        more: this.more.get(id) ?? 0,
      });
    }
    return notes;
  }
}
