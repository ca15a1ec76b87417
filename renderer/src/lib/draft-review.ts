import type { AutofillResult } from '../api/wire';
import type { CalendarEntry } from './calendar-events';
import { minutesOf } from './week';
import { byNumberedText, byText } from './text-order';

/** Where a meeting is (or was): its days, start, length and room. */
export interface DraftWhere {
  day: string;
  start_time: string;
  duration_mins: number;
  room: string;
}

/**
 * One row of a draft's review: a section it places, or a meeting it moves (with where it was).
 * `key` is what staff check or uncheck: `s<id>` for a placed section, `m<id>` for a moved meeting.
 */
export interface ReviewRow extends DraftWhere {
  key: string;
  kind: 'placed' | 'moved';
  /** The section's id in the draft (placed), or the meeting's entry id (moved). */
  id: number;
  course_code: string;
  section_name: string;
  doctors: { id: number; name: string }[];
  was: DraftWhere | null;
}

/** The review rows of any draft: a run's sections, a term's sections without a time given one, a term's moved meetings. */
export function reviewRows(result: AutofillResult): ReviewRow[] {
  if (result.source === 'run') {
    return result.placed.map((p, i) => ({
      key: `s${p.draft_section ?? i + 1}`,
      kind: 'placed',
      id: p.draft_section ?? i + 1,
      course_code: p.course_code,
      section_name: p.section_name,
      day: p.day,
      start_time: p.start_time,
      duration_mins: p.duration_mins,
      room: p.room,
      doctors: p.doctors.map((d) => ({ id: d.id, name: d.name })),
      was: null,
    }));
  }
  const named = (names: readonly string[], ids: readonly number[] = []): { id: number; name: string }[] => names.map((name, i) => ({ id: ids[i] ?? -1, name }));
  return [
    ...result.placed.map((p): ReviewRow => ({
      ...where(p),
      key: `s${p.id}`,
      kind: 'placed',
      id: p.id,
      course_code: p.course_code,
      section_name: p.section_name,
      doctors: named(p.instructors, p.instructor_ids),
      was: null,
    })),
    ...result.moved.map((m): ReviewRow => ({
      ...where(m),
      key: `m${m.id}`,
      kind: 'moved',
      id: m.id,
      course_code: m.course_code,
      section_name: m.section_name,
      doctors: named(m.instructors),
      was: where(m.was),
    })),
  ];
}

const where = (m: DraftWhere): DraftWhere => ({ day: m.day, start_time: m.start_time, duration_mins: m.duration_mins, room: m.room });

/** What Apply stores: the checked rows (null: every row, nothing left out). */
export function selectionOf(rows: readonly ReviewRow[], left: ReadonlySet<string>): { meetings: number[]; sections: number[] } | null {
  if (rows.every((r) => !left.has(r.key))) return null;
  const kept = rows.filter((r) => !left.has(r.key));
  return { meetings: kept.filter((r) => r.kind === 'moved').map((r) => r.id), sections: kept.filter((r) => r.kind === 'placed').map((r) => r.id) };
}

export const REVIEW_SORTS = [
  { value: 'course', label: 'Course' },
  { value: 'instructor', label: 'Instructor' },
  { value: 'room', label: 'Room' },
  { value: 'time', label: 'Day and time' },
] as const;
export type ReviewSort = (typeof REVIEW_SORTS)[number]['value'];

const DAY_ORDER = 'UMTWRFS';
const byCourse = (a: ReviewRow, b: ReviewRow): number => byText(a.course_code, b.course_code) || byNumberedText(a.section_name, b.section_name);
const lead = (r: ReviewRow): string => r.doctors[0]?.name ?? '\uffff';
const COMPARE: Record<ReviewSort, (a: ReviewRow, b: ReviewRow) => number> = {
  course: byCourse,
  instructor: (a, b) => byText(lead(a), lead(b)) || byCourse(a, b),
  room: (a, b) => byNumberedText(a.room, b.room) || byCourse(a, b),
  time: (a, b) => DAY_ORDER.indexOf(a.day[0] ?? '') - DAY_ORDER.indexOf(b.day[0] ?? '') || minutesOf(a.start_time) - minutesOf(b.start_time) || byCourse(a, b),
};

/** The rows whose course, instructor or room contains `filter` (any case), in the order chosen. */
export function shownRows(rows: readonly ReviewRow[], filter: string, sort: ReviewSort): ReviewRow[] {
  const wanted = filter.trim().toLowerCase();
  const matches = (r: ReviewRow): boolean =>
    wanted === '' ||
    `${r.course_code} ${r.section_name}`.toLowerCase().includes(wanted) ||
    r.room.toLowerCase().includes(wanted) ||
    r.doctors.some((d) => d.name.toLowerCase().includes(wanted));
  return rows.filter(matches).sort(COMPARE[sort]);
}

/** A draft's block on the calendar: drawn like a stored meeting, marked as a draft; `key` is its review row's. */
export type DraftBlock = CalendarEntry & { draft: true; key: string; room: string; joint_group: null; curriculum_conflicts: string[] };

/** The rows as blocks for the calendar (ids below zero, apart from stored meetings'). */
export function draftBlocks(rows: readonly ReviewRow[]): DraftBlock[] {
  return rows.map((r, i) => ({
    id: -(i + 1),
    draft: true,
    key: r.key,
    course_code: r.course_code,
    section_name: r.section_name,
    doctors: r.doctors.map((d) => ({ ...d, role: 'teaches' as const })),
    day: r.day,
    start_time: r.start_time,
    duration_mins: r.duration_mins,
    room: r.room,
    joint_group: null,
    curriculum_conflicts: [],
    warnings: [],
  }));
}
