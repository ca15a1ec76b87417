import { normaliseCourseCode } from '../domain/codes';
import { sharesDay } from '../domain/days';
import { partsOverlap, type PartOfTerm } from '../domain/parts';
import type { ComparisonBudget } from './term-book';
import type { Booking } from './conflicts';

/**
 * When meetings listed apart are one class by design, pure, in one place: the timetable import,
 * its preview and the Scheduler's refusals all read these rules.
 *
 * - Rows of one section at one time whose days overlap (MTWRU and MTWRFU) are one meeting, on the
 *   union of their days (a registrar listing a meeting twice).
 * - Sections meeting at one time (same start and length, a shared day, parts of term with a common
 *   date) meet together — a joint group — when
 *   - they share a room and an instructor, or share a room and neither has an instructor;
 *   - they share an instructor and are not in two different rooms (online, arranged, to be
 *     decided: one person teaching cross-listed or stacked sections at once);
 *   - the file says their courses are cross-listed ("Same as AFRO 201, LLS 201", a "meets with"
 *     column), whatever their rooms.
 *   Sections of different courses in two different real rooms with one shared instructor stay a
 *   clash: the person cannot be in two rooms.
 */

/** What the rules read of a meeting. */
export interface TogetherMeeting {
  term: string;
  course_code: string;
  section_name: string;
  day: string;
  start: number;
  duration: number;
  /** Room key; null for none (online, arranged, TBD). */
  room: string | null;
  instructors: readonly string[];
  part: PartOfTerm;
}

/** A stored or proposed meeting as these rules read it (instructors by id; one term). */
export function bookingTogether(b: Booking): TogetherMeeting {
  return {
    term: '',
    course_code: b.course_code,
    section_name: b.section_name,
    day: b.day,
    start: b.start,
    duration: b.duration,
    room: b.roomKey,
    instructors: b.doctor_ids.map(String),
    part: b.part,
  };
}

/** Why two meetings are proposed as one joint group, in the words the preview shows. */
export const JOINT_RULES = {
  room: 'same room, time and instructor',
  emptyRoom: 'same room and time, no instructor listed',
  instructor: 'same instructor and time, no room for one of them',
  crossListed: 'cross-listed in the file',
  named: 'named in the file',
} as const;
export type JointRule = keyof typeof JOINT_RULES;

const shareInstructor = (a: TogetherMeeting, b: TogetherMeeting): boolean => a.instructors.some((name) => b.instructors.includes(name));

/** Same start and length, a shared day, parts with a common date, one term: they are at one time. */
export function atOneTime(a: TogetherMeeting, b: TogetherMeeting): boolean {
  return a.term === b.term && a.start === b.start && a.duration === b.duration && sharesDay(a.day, b.day) && partsOverlap(a.part, b.part);
}

/** Whether two rows list one meeting of one section: same section, room, time and part, days overlapping. */
export function sameMeetingRows(a: TogetherMeeting, b: TogetherMeeting): boolean {
  return (
    a.term === b.term &&
    a.course_code === b.course_code &&
    a.section_name === b.section_name &&
    a.room === b.room &&
    a.part.code === b.part.code &&
    a.start === b.start &&
    a.duration === b.duration &&
    sharesDay(a.day, b.day)
  );
}

/** The days of two overlapping rows of one meeting, in week order. */
export function unionOfDays(a: string, b: string, order: string): string {
  return [...order].filter((d) => a.includes(d) || b.includes(d)).join('');
}

/**
 * The rule by which two meetings of different sections meet together, or null. `crossListed`
 * says whether the file lists their two courses as one.
 */
export function jointRule(a: TogetherMeeting, b: TogetherMeeting, crossListed: (x: string, y: string) => boolean): JointRule | null {
  if ((a.course_code === b.course_code && a.section_name === b.section_name) || !atOneTime(a, b)) return null;
  if (a.course_code !== b.course_code && crossListed(a.course_code, b.course_code)) return 'crossListed';
  if (a.room !== null && a.room === b.room) {
    if (shareInstructor(a, b)) return 'room';
    if (a.instructors.length === 0 && b.instructors.length === 0) return 'emptyRoom';
    return null;
  }
  if ((a.room === null || b.room === null) && shareInstructor(a, b)) return 'instructor';
  return null;
}

/** Longest note read for cross-listing (a section note is a sentence). */
const MAX_NOTE_CHARS = 500;
const SAME_AS = /\bsame\s+as\b([^.;]*)/gi;
const CODE_IN_TEXT = /\b([A-Za-z]{2,6})\s*[-_]?\s*(\d{2,4}[A-Za-z]{0,3})\b/g;

/** The course codes a text names, in order, without repeats. */
function codesIn(text: string): string[] {
  const codes: string[] = [];
  for (const m of text.matchAll(CODE_IN_TEXT)) {
    const code = normaliseCourseCode(`${m[1] ?? ''}${m[2] ?? ''}`);
    if (code && !codes.includes(code)) codes.push(code);
  }
  return codes;
}

/**
 * The courses a section note says the section is cross-listed with: "Same as AFRO 201, LLS 201,
 * and PS 201." or "Same as CS 374. See CS 374." (codes with or without a space). None when the
 * note says no such thing.
 */
export function crossListedInNote(note: string): string[] {
  const text = note.slice(0, MAX_NOTE_CHARS);
  const codes: string[] = [];
  for (const m of text.matchAll(SAME_AS)) for (const code of codesIn(m[1] ?? '')) if (!codes.includes(code)) codes.push(code);
  return codes;
}

/**
 * A "meets with" / "cross list" cell: course codes ("CS 374", "ECE374 / MATH374", "Same as CS 374")
 * are cross-listing; anything else ("G1", "CS374+574 lab") is a joint group's label.
 */
export function readMeetsWith(cell: string): { crossListed: string[]; label: string | null } {
  const text = cell.trim().slice(0, MAX_NOTE_CHARS);
  if (text === '') return { crossListed: [], label: null };
  const noted = crossListedInNote(text);
  if (noted.length > 0) return { crossListed: noted, label: null };
  const pieces = text.split(/\s*(?:[,;/&+]|\band\b)\s*/i).filter((p) => p !== '');
  const codes = pieces.map((p) => normaliseCourseCode(p));
  if (codes.length > 0 && codes.every((c): c is string => c !== null)) return { crossListed: codes, label: null };
  return { crossListed: [], label: text.slice(0, 60) };
}

/**
 * Courses a file lists as one, per term: each set of cross-listed codes joins one class. Answers
 * whether two courses are cross-listed in a term.
 */
export class CrossListing {
  private readonly parent = new Map<string, string>();

  private find(x: string): string {
    let root = x;
    while (this.parent.has(root) && this.parent.get(root) !== root) root = this.parent.get(root) as string;
    return root;
  }

  /** `course` is listed as the same class as each of `others` in `term`. */
  add(term: string, course: string, others: readonly string[]): void {
    for (const other of others) {
      const a = this.find(`${term}|${course}`);
      const b = this.find(`${term}|${other}`);
      if (!this.parent.has(a)) this.parent.set(a, a);
      if (a !== b) this.parent.set(b, a);
    }
  }

  /** The class a course is cross-listed into in a term (a key shared by its cross-listed courses), or null. */
  classOf(term: string, course: string): string | null {
    const key = `${term}|${course}`;
    return this.parent.has(key) ? this.find(key) : null;
  }

  has(term: string, a: string, b: string): boolean {
    const x = `${term}|${a}`;
    const y = `${term}|${b}`;
    return this.parent.has(x) && this.parent.has(y) && this.find(x) === this.find(y);
  }
}

/** A joint group the rules propose: its label, its meetings (indexes) and sections, and why. */
export interface ProposedGroup {
  label: string;
  /** Indexes into the meetings. */
  meetings: number[];
  /** "CS374 AL1", one per section. */
  members: string[];
  /** Which rules found it, in words. */
  rule: string;
}

function find(parent: number[], x: number): number {
  let root = x;
  while (parent[root] !== root) root = parent[root] as number;
  while (parent[x] !== root) {
    const next = parent[x] as number;
    parent[x] = root;
    x = next;
  }
  return root;
}

const labelOf = (m: TogetherMeeting): string => `${m.course_code} ${m.section_name}`;

/**
 * The joint groups among meetings: every pair the rules join (see jointRule), in groups; sections
 * meeting together in several slots (a lecture and its lab both joint) are one group. Meetings the
 * file already puts in a group (`named`) keep it. Pairs are only compared where they can meet
 * together — in one slot and one room, with one instructor, or of cross-listed courses — within
 * `budget`. `taken` are labels each term already uses.
 */
export function proposeJointGroups(
  meetings: readonly TogetherMeeting[],
  named: readonly (string | null)[],
  crossListing: CrossListing,
  taken: (term: string) => ReadonlySet<string>,
  budget: ComparisonBudget,
): ProposedGroup[] {
  const parent = meetings.map((_, i) => i);
  const rules = meetings.map(() => new Set<JointRule>());
  const crossListed =
    (term: string) =>
    (x: string, y: string): boolean =>
      crossListing.has(term, x, y);
  // The places two meetings of one joint group share: their slot and a room, an instructor or a cross-listing.
  const places = new Map<string, number[]>();
  const put = (key: string, i: number): void => {
    const list = places.get(key);
    if (list) list.push(i);
    else places.set(key, [i]);
  };
  meetings.forEach((m, i) => {
    if (named[i] !== null && named[i] !== undefined) return;
    const slot = `${m.term}|${m.start}|${m.duration}`;
    if (m.room !== null) put(`${slot}|room|${m.room}`, i);
    for (const name of m.instructors) put(`${slot}|by|${name}`, i);
    const listed = crossListing.classOf(m.term, m.course_code);
    if (listed !== null) put(`${slot}|listed|${listed}`, i);
  });
  for (const list of places.values()) {
    for (let x = 0; x < list.length; x++) {
      const a = meetings[list[x] as number] as TogetherMeeting;
      budget.spend(list.length - x - 1);
      for (let y = x + 1; y < list.length; y++) {
        const b = meetings[list[y] as number] as TogetherMeeting;
        const rule = jointRule(a, b, crossListed(a.term));
        if (rule === null) continue;
        const i = list[x] as number;
        const j = list[y] as number;
        parent[find(parent, i)] = find(parent, j);
        rules[i]?.add(rule);
        rules[j]?.add(rule);
      }
    }
  }
  const groups = new Map<number, number[]>();
  meetings.forEach((_, i) => {
    const root = find(parent, i);
    const group = groups.get(root);
    if (group) group.push(i);
    else groups.set(root, [i]);
  });
  const used = new Map<string, Set<string>>();
  const proposed: ProposedGroup[] = [];
  const bySections = new Map<string, { group: ProposedGroup; rules: Set<JointRule> }>();
  for (const indexes of groups.values()) {
    const members = indexes.map((i) => meetings[i] as TogetherMeeting);
    const sections = [...new Set(members.map(labelOf))].sort();
    if (sections.length < 2) continue;
    const found = new Set(indexes.flatMap((i) => [...(rules[i] ?? [])]));
    const term = (members[0] as TogetherMeeting).term;
    const same = bySections.get(`${term}|${sections.join('|')}`);
    if (same) {
      same.group.meetings.push(...indexes);
      for (const rule of found) same.rules.add(rule);
      same.group.rule = describeRules(same.rules);
      continue;
    }
    if (!used.has(term)) used.set(term, new Set(taken(term)));
    const labels = used.get(term) as Set<string>;
    const base = `${[...new Set(members.map((m) => m.course_code))].join('/')} ${[...new Set(members.map((m) => m.section_name))].join('/')}`.slice(0, 52);
    let label = base;
    for (let n = 2; labels.has(label); n++) label = `${base} (${n})`;
    labels.add(label);
    const group = { label, meetings: [...indexes], members: sections, rule: describeRules(found) };
    bySections.set(`${term}|${sections.join('|')}`, { group, rules: found });
    proposed.push(group);
  }
  return proposed;
}

/** The rules that found a group, in words, most telling first. */
function describeRules(rules: ReadonlySet<JointRule>): string {
  return (Object.keys(JOINT_RULES) as JointRule[])
    .filter((rule) => rules.has(rule))
    .sort((a, b) => (a === 'crossListed' ? -1 : b === 'crossListed' ? 1 : 0))
    .map((rule) => JOINT_RULES[rule])
    .join('; ');
}
