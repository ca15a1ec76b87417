import type { EventInput } from '@fullcalendar/core';
import type { ScheduleEntry } from '../../../core/timetable/schema';
import { colourOf, dateOfLetter, hhmm, leadInstructor, minutesOf } from './week';
import { byNumberedText, byText } from './text-order';

/** What the calendar needs of a timetable entry. */
export type CalendarEntry = Pick<ScheduleEntry, 'id' | 'course_code' | 'section_name' | 'doctors' | 'day' | 'start_time' | 'duration_mins' | 'warnings'> &
  Partial<Pick<ScheduleEntry, 'joint_group' | 'curriculum_conflicts'>> & {
    /** A section of an auto-fill draft (id below zero): drawn by the same rules, in the draft's pattern, never dragged. */
    draft?: true;
  };

/** "CSC374 §1" for one section; for a joint group "CSC374 / CSC574 §1" when members share a section name, else "CSC374 §1 / CSC574 §2". */
export function jointTitle(members: readonly CalendarEntry[]): string {
  const sections = new Set(members.map((m) => m.section_name));
  if (sections.size === 1) return `${members.map((m) => m.course_code).join(' / ')} §${members[0]?.section_name ?? ''}`;
  return members.map((m) => `${m.course_code} §${m.section_name}`).join(' / ');
}

/** Sections drawn side by side in one time slot before the rest collapse into one "+N sections" block. */
export const MAX_DRAWN_PER_SLOT = 3;

/** Border colours: a curriculum conflict (students of one cohort cannot attend both) outranks other warnings. */
export const CURRICULUM_BORDER = '#e03131';
export const WARNING_BORDER = '#f59f00';

const inCurriculumConflict = (members: readonly CalendarEntry[]): boolean => members.some((m) => (m.curriculum_conflicts?.length ?? 0) > 0);

function borderOf(members: readonly CalendarEntry[]): string | null {
  if (inCurriculumConflict(members)) return CURRICULUM_BORDER;
  if (members.some((m) => m.warnings.length > 0)) return WARNING_BORDER;
  return null;
}

function occurrence(entry: CalendarEntry, letter: string, members: readonly CalendarEntry[] = [entry]): EventInput {
  const start = minutesOf(entry.start_time);
  if (entry.draft) {
    return {
      id: `${entry.id}:${letter}`,
      groupId: String(entry.id),
      title: jointTitle(members),
      start: `${dateOfLetter(letter)}T${entry.start_time}`,
      end: `${dateOfLetter(letter)}T${hhmm(Math.min(start + entry.duration_mins, 24 * 60 - 1))}`,
      classNames: ['tw-preview'],
      editable: false,
      backgroundColor: 'transparent',
      borderColor: colourOf(leadInstructor(entry)),
      textColor: 'inherit',
      extendedProps: { draft: entry },
    };
  }
  const border = borderOf(members);
  const joint = members.length > 1;
  return {
    id: `${entry.id}:${letter}`,
    groupId: String(entry.id),
    title: jointTitle(members),
    // A joint group moves as one in the section dialog, not by dragging one member away from the others.
    ...(joint ? { editable: false, extendedProps: { entryId: entry.id, jointEntries: members.map((m) => m.id) } } : {}),
    start: `${dateOfLetter(letter)}T${entry.start_time}`,
    end: `${dateOfLetter(letter)}T${hhmm(Math.min(start + entry.duration_mins, 24 * 60 - 1))}`,
    backgroundColor: colourOf(leadInstructor(entry)),
    borderColor: border ?? colourOf(leadInstructor(entry)),
    ...(border === CURRICULUM_BORDER ? { classNames: ['tw-curriculum'] } : {}),
    ...(joint ? {} : { extendedProps: { entryId: entry.id } }),
  };
}

/** One block on a day: an entry's meeting, or the meetings of a joint group that meet together. */
export interface Occurrence<T extends CalendarEntry = CalendarEntry> {
  entry: T;
  letter: string;
  members: T[];
  start: number;
  end: number;
}

/**
 * The week's blocks by day letter: one per entry and day, except that members of a joint group
 * meeting at the same time share one block (drawn once, labelled with every code).
 */
export function meetingBlocks<T extends CalendarEntry>(entries: readonly T[]): Map<string, Occurrence<T>[]> {
  const byDay = new Map<string, Occurrence<T>[]>();
  const joint = new Map<string, Occurrence<T>>();
  for (const entry of entries) {
    const start = minutesOf(entry.start_time);
    for (const letter of entry.day) {
      const jointKey = entry.joint_group ? `${letter}|${entry.start_time}|${entry.duration_mins}|${entry.joint_group}` : null;
      const together = jointKey === null ? undefined : joint.get(jointKey);
      if (together) {
        together.members.push(entry);
        continue;
      }
      const item: Occurrence<T> = { entry, letter, members: [entry], start, end: Math.max(start + entry.duration_mins, start + 1) };
      if (jointKey !== null) joint.set(jointKey, item);
      const list = byDay.get(letter) ?? [];
      list.push(item);
      byDay.set(letter, list);
    }
  }
  return byDay;
}

/** Problems first among sections starting together, so a crowded slot never hides the one that needs attention. */
const attention = (o: Occurrence): number => (inCurriculumConflict(o.members) ? 0 : o.members.some((m) => m.warnings.length > 0) ? 1 : 2);
const drawingOrder = (a: Occurrence, b: Occurrence): number =>
  a.start - b.start ||
  attention(a) - attention(b) ||
  b.end - a.end ||
  byText(a.entry.course_code, b.entry.course_code) ||
  byNumberedText(a.entry.section_name, b.entry.section_name);

/** Runs of occurrences that overlap one another in time (sorted by start); separate runs never share a moment. */
function overlapRuns(sorted: readonly Occurrence[]): Occurrence[][] {
  const runs: Occurrence[][] = [];
  let runEnd = -1;
  for (const o of sorted) {
    const current = runs.at(-1);
    if (current && o.start < runEnd) {
      current.push(o);
      runEnd = Math.max(runEnd, o.end);
    } else {
      runs.push([o]);
      runEnd = o.end;
    }
  }
  return runs;
}

/** Side-by-side columns (lanes), first fit over items sorted by start: each takes the leftmost one free at its start. */
export function sideBySide<T extends { start: number; end: number }>(sorted: readonly T[]): T[][] {
  const columns: T[][] = [];
  const columnEnds: number[] = [];
  for (const o of sorted) {
    const free = columnEnds.findIndex((end) => end <= o.start);
    if (free === -1) {
      columns.push([o]);
      columnEnds.push(o.end);
    } else {
      columns[free]?.push(o);
      columnEnds[free] = o.end;
    }
  }
  return columns;
}

function summary(letter: string, hidden: readonly Occurrence[]): EventInput {
  const start = Math.min(...hidden.map((o) => o.start));
  const end = Math.max(...hidden.map((o) => o.end));
  const ids = hidden.flatMap((h) => h.members.map((m) => m.id));
  return {
    id: `more:${letter}|${hhmm(start)}|${ids[0] ?? ''}`,
    title: `+${ids.length} sections`,
    start: `${dateOfLetter(letter)}T${hhmm(start)}`,
    end: `${dateOfLetter(letter)}T${hhmm(Math.min(end, 24 * 60 - 1))}`,
    editable: false,
    classNames: ['tw-more'],
    backgroundColor: 'var(--mantine-color-gray-light)',
    borderColor: inCurriculumConflict(hidden.flatMap((h) => h.members)) ? CURRICULUM_BORDER : 'var(--mantine-color-gray-5)',
    textColor: 'inherit',
    extendedProps: { overflow: 1, hiddenEntries: ids, hiddenLabels: hidden.map((h) => jointTitle(h.members)) },
  };
}

/**
 * Calendar events for the week: one per entry and day. Where more sections overlap than fit side
 * by side (at most `maxPerSlot`, fewer when `columnsThatFit` says the day is too narrow for their
 * course codes in full), the first columns but one are drawn and the rest become "+N sections" blocks that
 * list them, so at any moment at most `maxPerSlot` blocks stand side by side and no section is ever
 * hidden without being counted. This is the calendar's only overflow mechanism (FullCalendar's own
 * "+N" links stay off), and it keeps a full campus week readable and fast.
 */
export function weekEvents(
  entries: readonly CalendarEntry[],
  maxPerSlot = MAX_DRAWN_PER_SLOT,
  columnsThatFit?: (codes: readonly string[]) => number,
): EventInput[] {
  const events: EventInput[] = [];
  for (const [letter, list] of meetingBlocks(entries)) {
    for (const run of overlapRuns([...list].sort(drawingOrder))) {
      const columns = sideBySide(run);
      // The code first: no more blocks side by side than leave each room for its course code in full;
      // when even one would not fit beside a fold, the whole crowd is the fold.
      const fit = columnsThatFit ? columnsThatFit(run.map((o) => o.entry.course_code)) : maxPerSlot;
      const limit = Math.max(1, Math.min(maxPerSlot, fit));
      const drawnColumns = columns.length <= limit ? columns : limit === 1 ? [] : columns.slice(0, limit - 1);
      for (const o of drawnColumns.flat().sort(drawingOrder)) events.push(occurrence(o.entry, o.letter, o.members));
      const hidden = columns.slice(drawnColumns.length).flat().sort(drawingOrder);
      // Hidden sections that overlap one another share one block; a later, separate crowd gets its own.
      for (const crowd of overlapRuns(hidden)) events.push(summary(letter, crowd));
    }
  }
  return events;
}
