/**
 * The timetable seen by resource: one row per room or per instructor, one cell per weekday, each
 * meeting placed by its time so free time shows as empty space. Pure, for the "By room" and
 * "By instructor" views.
 */
import { DAY_LETTERS, DAY_NAMES, type DayLetter } from '../../../core/domain/days';
import { displayRoom, TBD_ROOM } from '../../../core/domain/meetings';
import { formatHHMM } from '../../../core/domain/time';
import type { ScheduleEntry } from '../../../core/timetable/schema';
import { jointTitle, meetingBlocks, sideBySide } from './calendar-events';
import { byNumberedText } from './text-order';

export type ResourceKind = 'room' | 'instructor';

/** What a row needs of an entry. */
export type ResourceEntry = Pick<
  ScheduleEntry,
  'id' | 'course_code' | 'section_name' | 'doctors' | 'day' | 'start_time' | 'duration_mins' | 'room' | 'joint_group' | 'curriculum_conflicts' | 'warnings'
>;

export interface ResourceMeeting {
  /** Stable key: the first entry and the day. */
  key: string;
  /** The entries drawn by this block (a joint group meeting together is one block). */
  entryIds: number[];
  letter: DayLetter;
  start: number;
  end: number;
  /** 0-based lane within the row, so overlapping meetings stack instead of covering each other. */
  lane: number;
  /** Short: course and section. */
  label: string;
  /** The course code the label starts with (the first of a joint group), shown in full. */
  code: string;
  /** Everything, for hover, focus and screen readers. */
  description: string;
  curriculum: boolean;
  /** Another department's meeting in a shared room: taken, not opened (entryIds is empty). */
  other?: boolean;
}

/**
 * Another department's meeting in a row shown (from the campus week): in a shared room, or taught by
 * a shared instructor, as the reader may read it.
 */
export interface OtherBooking {
  /** The row it belongs to: a room's name, or an instructor's id. */
  row: string;
  day: string;
  start: number;
  end: number;
  /** "Booked by another department", or the section and department when the reader may read them. */
  label: string;
}

export interface ResourceRow {
  key: string;
  label: string;
  /** Sections (entries) in the row, for the row header. */
  sections: number;
  lanes: number;
  meetings: ResourceMeeting[];
}

/** Days the views show: Monday to Saturday, as the week calendar. */
export const VIEW_DAYS: readonly DayLetter[] = DAY_LETTERS.filter((d) => d !== 'U');
/** The views' time window, as the week calendar's. */
export const VIEW_START = 7 * 60;
export const VIEW_END = 22 * 60;

export const UNASSIGNED_KEY = '0';
/** How a section without an instructor is named on screen. */
export const NO_INSTRUCTOR = 'No instructor yet';

/** A section's instructors by name, or NO_INSTRUCTOR. */
export function instructorsOf(entry: Pick<ResourceEntry, 'doctors'> | undefined): string {
  return entry && entry.doctors.length > 0 ? entry.doctors.map((d) => d.name).join(', ') : NO_INSTRUCTOR;
}

/** A meeting in words: course and section (every code of a joint group), day, times, room, instructors. */
export function describeMeeting(members: readonly ResourceEntry[], letter: DayLetter, start: number, end: number): string {
  const first = members[0];
  const who = first && first.doctors.length > 0 ? instructorsOf(first) : NO_INSTRUCTOR.toLowerCase();
  return `${jointTitle(members)}, ${DAY_NAMES[letter]} ${formatHHMM(start)}–${formatHHMM(end)}, ${displayRoom(first?.room)}, ${who}`;
}

function rowOf(key: string, label: string, entries: readonly ResourceEntry[]): ResourceRow {
  const byDay = meetingBlocks(entries);
  const meetings: ResourceMeeting[] = [];
  let lanes = 1;
  for (const letter of VIEW_DAYS) {
    const ofDay = (byDay.get(letter) ?? []).sort((a, b) => a.start - b.start || b.end - a.end);
    const columns = sideBySide(ofDay);
    lanes = Math.max(lanes, columns.length);
    columns.forEach((column, lane) =>
      column.forEach(({ entry, members, start, end }) =>
        meetings.push({
          key: `${entry.id}:${letter}`,
          entryIds: members.map((m) => m.id),
          letter,
          start,
          end,
          lane,
          label: jointTitle(members),
          code: members[0]?.course_code ?? entry.course_code,
          description: describeMeeting(members, letter, start, end),
          curriculum: members.some((m) => m.curriculum_conflicts.length > 0),
        }),
      ),
    );
  }
  return { key, label, sections: entries.length, lanes, meetings };
}

/** Other departments' meetings by the row they belong to. */
function byRow(others: readonly OtherBooking[], keyOf: (row: string) => string): Map<string, OtherBooking[]> {
  const rows = new Map<string, OtherBooking[]>();
  for (const o of others) rows.set(keyOf(o.row), [...(rows.get(keyOf(o.row)) ?? []), o]);
  return rows;
}

/** A row with other departments' meetings in it added, each in the first lane where it covers nothing. */
function withOthers(row: ResourceRow, others: readonly OtherBooking[]): ResourceRow {
  if (others.length === 0) return row;
  const meetings = [...row.meetings];
  let lanes = row.lanes;
  for (const o of [...others].sort((a, b) => a.start - b.start)) {
    for (const letter of VIEW_DAYS.filter((d) => o.day.includes(d))) {
      let lane = 0;
      while (meetings.some((m) => m.letter === letter && m.lane === lane && m.start < o.end && o.start < m.end)) lane++;
      lanes = Math.max(lanes, lane + 1);
      meetings.push({
        key: `other:${o.row}:${letter}:${o.start}:${lane}`,
        entryIds: [],
        letter,
        start: o.start,
        end: o.end,
        lane,
        label: o.label,
        code: '',
        description: `${o.label}, ${DAY_NAMES[letter]} ${formatHHMM(o.start)}–${formatHHMM(o.end)}, ${row.label}`,
        curriculum: false,
        other: true,
      });
    }
  }
  return { ...row, lanes, meetings };
}

/**
 * Rows for a view. Rooms: every room in use and every declared room (free all week shows as an empty
 * row), sorted, the sections without a room last. Instructors: every instructor, then the unassigned.
 */
export function resourceRows(
  kind: ResourceKind,
  entries: readonly ResourceEntry[],
  known: readonly { key: string; label: string }[],
  others: readonly OtherBooking[] = [],
): ResourceRow[] {
  const byKey = new Map<string, ResourceEntry[]>();
  const add = (key: string, entry: ResourceEntry): void => {
    const list = byKey.get(key) ?? [];
    list.push(entry);
    byKey.set(key, list);
  };
  for (const entry of entries) {
    if (kind === 'room') add(displayRoom(entry.room), entry);
    else if (entry.doctors.length === 0) add(UNASSIGNED_KEY, entry);
    else for (const d of entry.doctors) add(String(d.id), entry);
  }
  const labels = new Map(known.map((k) => [k.key, k.label]));
  if (kind === 'room') {
    const rooms = [...new Set([...labels.keys(), ...byKey.keys()])].filter((r) => r !== TBD_ROOM).sort(byNumberedText);
    const taken = byRow(others, displayRoom);
    const rows = rooms.map((room) => withOthers(rowOf(room, labels.get(room) ?? room, byKey.get(room) ?? []), taken.get(room) ?? []));
    const unroomed = byKey.get(TBD_ROOM);
    return unroomed ? [...rows, rowOf(TBD_ROOM, 'No room yet', unroomed)] : rows;
  }
  // Instructors named on entries but not (or no longer) in the list still get their row.
  const named = new Map(entries.flatMap((e) => e.doctors.map((d) => [String(d.id), d.name] as const)));
  const extra = [...byKey.keys()].filter((k) => k !== UNASSIGNED_KEY && !labels.has(k)).map((k) => ({ key: k, label: named.get(k) ?? `Instructor ${k}` }));
  const busy = byRow(others, (row) => row);
  const rows = [...known, ...extra].map((k) => withOthers(rowOf(k.key, k.label, byKey.get(k.key) ?? []), busy.get(k.key) ?? []));
  const unassigned = byKey.get(UNASSIGNED_KEY);
  return unassigned ? [...rows, rowOf(UNASSIGNED_KEY, NO_INSTRUCTOR, unassigned)] : rows;
}
