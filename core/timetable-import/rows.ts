import { normaliseCourseCode } from '../domain/codes';
import { readDaysLeniently, DAY_LETTERS } from '../domain/days';
import { readClockLeniently } from '../domain/time';
import { readTermText, type Term } from '../domain/terms';
import { PART_CODE_PATTERN, readIsoDate, WHOLE_TERM_CODE, type PartOfTerm } from '../domain/parts';
import { isInstructorRole, type InstructorRole } from '../domain/roles';
import { displayRoom, roomKey } from '../domain/meetings';
import { readListCell } from '../import/lists';
import { cellText, matchColumns, type Table } from '../import/table';
import {
  MAX_DURATION,
  MAX_INSTRUCTORS,
  MIN_DURATION,
  crossListedInNote,
  readMeetsWith,
  sameMeetingRows,
  unionOfDays,
  type TogetherMeeting,
} from '../timetable';
import { TIMETABLE_COLUMNS, type TimetableColumn } from './columns';

/** A listed meeting as the meeting-together rules read it (parts by code: dates are not known while reading). */
export function togetherOf(m: ListedMeeting, part: PartOfTerm = { code: m.part_of_term, name: '', start_date: null, end_date: null }): TogetherMeeting {
  return {
    term: `${m.term.year}|${m.term.semester}`,
    course_code: m.course_code,
    section_name: m.section_name,
    day: m.day,
    start: m.start,
    duration: m.duration,
    room: m.room === null ? null : roomKey(m.room),
    instructors: m.instructors,
    part,
  };
}

/** One meeting read from a registrar's listing (rows that repeat it are merged into it). */
export interface ListedMeeting extends ListedSection {
  day: string;
  start: number;
  duration: number;
}

/** A section as a listing gives it, with or without a time (a row without one is a section without a time). */
export interface ListedSection {
  /** The file row it was first read from (1-based, as a spreadsheet numbers it), and where in words. */
  row: number;
  where: string;
  term: Term;
  course_code: string;
  course_name: string | null;
  section_name: string;
  /** The room as "Building Room" (or the location); null when the listing names none. */
  room: string | null;
  instructors: string[];
  /** Roles the file gives, one per instructor; null when it gives none. */
  roles: InstructorRole[] | null;
  part_of_term: string;
  part_dates: { start: string; end: string } | null;
  type: string | null;
  joint_group: string | null;
  /** Courses the file lists this section's course with ("Same as …", a "meets with" column). */
  cross_listed: string[];
  campus: string | null;
}

export interface ListingRead {
  meetings: ListedMeeting[];
  /** Sections without a time (rows with no days or time: online, arranged), one per section. */
  untimed: ListedSection[];
  /** Rows read (blank and totals rows aside). */
  rows: number;
  /** Rows repeating a meeting already read (merged into it). */
  merged: number;
  /** Each merged row, the row it was merged into and the days (both, when they differed). */
  mergedRows: { row: number; into: number; course_code: string; section_name: string; days: string }[];
  skipped: { row: number; where: string; reason: string }[];
}

/** Reasons a row is not a meeting; the answer counts rows by these. */
export const SKIP_REASONS = {
  noTime: 'no meeting time (arranged, TBA or blank)',
  noDays: 'no meeting days',
  badTime: 'meeting time not readable',
  badEnd: 'ends before it starts, or lasts longer than a day allows',
  noCourse: 'no readable course code',
  noTerm: 'no term (give year and semester)',
  badPart: 'part-of-term code not readable',
  tooManyInstructors: `more than ${MAX_INSTRUCTORS} instructors for one meeting (a timetable entry holds at most ${MAX_INSTRUCTORS})`,
} as const;

const UNTIMED = /^(arr|arranged|tba|tbd|n\/?a|online|none|-+)$/i;

const splitInstructors = (value: unknown): string[] =>
  (readListCell(value, { separators: ';/', andWord: true }) ?? []).map((n) => n.replace(/\s+/g, ' ')).filter((n) => !/^(staff|tba|tbd)$/i.test(n));

/** Reads the meetings of a registrar's listing; `given` (the form's year/semester) wins over the file's. */
export function readListing(tables: readonly Table[], given: Partial<Term>, fallback: Term): ListingRead {
  const untimedSeen = new Map<string, ListedSection>();
  const result: ListingRead = { meetings: [], untimed: [], rows: 0, merged: 0, mergedRows: [], skipped: [] };
  const seen = new Map<string, ListedMeeting[]>();
  for (const table of tables) {
    const columns = matchColumns(table.headers, TIMETABLE_COLUMNS);
    const at = (values: readonly unknown[], column: TimetableColumn): string => {
      const index = columns[column];
      // A leading apostrophe is how exports keep a formula-like cell as text (=, +, -, @): read the text back.
      return index === undefined ? '' : cellText(values[index]).replace(/^'(?=[=+\-@\t\r])/, '');
    };
    for (const tableRow of table.rows) {
      result.rows++;
      const v = tableRow.values;
      const row = Number(/row (\d+)/.exec(tableRow.where)?.[1] ?? result.rows + 1);
      const skip = (reason: string): void => void result.skipped.push({ row, where: tableRow.where, reason });
      const startText = at(v, 'start_time');
      const daysText = at(v, 'days');
      // A row without a time (online, arranged) is a section without a time: kept, not a meeting.
      const untimed = startText === '' || UNTIMED.test(startText);
      const timing = untimed ? null : rowTiming(startText, at(v, 'end_time'), at(v, 'duration'), daysText);
      if (typeof timing === 'string') {
        skip(timing);
        continue;
      }
      const code = normaliseCourseCode(columns.course_code !== undefined ? at(v, 'course_code') : `${at(v, 'prefix')}${at(v, 'number')}`);
      if (!code) {
        skip(untimed ? SKIP_REASONS.noTime : SKIP_REASONS.noCourse);
        continue;
      }
      const fromFile = { ...readTermText(at(v, 'year')), ...readTermText(at(v, 'term')) };
      const year = given.year ?? fromFile.year ?? (fromFile.semester === undefined ? fallback.year : undefined);
      const semester = given.semester ?? fromFile.semester ?? (fromFile.year === undefined ? fallback.semester : undefined);
      if (year === undefined || semester === undefined) {
        skip(SKIP_REASONS.noTerm);
        continue;
      }
      const part = at(v, 'part_of_term') || WHOLE_TERM_CODE;
      if (!PART_CODE_PATTERN.test(part)) {
        skip(SKIP_REASONS.badPart);
        continue;
      }
      const startDate = readIsoDate(at(v, 'start_date'));
      const endDate = readIsoDate(at(v, 'end_date'));
      const instructors = splitInstructors(columns.instructors === undefined ? '' : v[columns.instructors]);
      const roleCells = (readListCell(columns.roles === undefined ? '' : v[columns.roles], { separators: ';/' }) ?? []).map((r) => r.toLowerCase());
      const roles = roleCells.length === instructors.length && roleCells.every(isInstructorRole) ? roleCells : null;
      const meetsWith = readMeetsWith(at(v, 'cross_list'));
      const location = at(v, 'location');
      const room = location !== '' ? location : [at(v, 'building'), at(v, 'room')].filter((p) => p !== '').join(' ');
      const section: ListedSection = {
        row,
        where: tableRow.where,
        term: { year, semester },
        course_code: code,
        course_name: at(v, 'course_name') || null,
        section_name: at(v, 'section') || at(v, 'crn') || '1',
        // No room, or one still to be decided (TBD): never a joint group's room, never a new declared room.
        room: roomKey(room) === null ? null : displayRoom(room),
        instructors: [...new Set(instructors)],
        roles,
        part_of_term: part,
        part_dates: startDate && endDate && startDate <= endDate ? { start: startDate, end: endDate } : null,
        type: at(v, 'type') || null,
        joint_group: at(v, 'joint_group').slice(0, 60) || meetsWith.label,
        cross_listed: [...new Set([...meetsWith.crossListed, ...crossListedInNote(at(v, 'notes'))])].filter((c) => c !== code),
        campus: at(v, 'campus') || null,
      };
      if (timing === null) keepUntimed(result, untimedSeen, section);
      else keepMeeting(result, seen, { ...section, ...timing });
    }
  }
  return withoutOverfull(result);
}

/** A timed row's days, start and length in minutes, or why the row is skipped. */
function rowTiming(startText: string, endText: string, durationText: string, daysText: string): { day: string; start: number; duration: number } | string {
  const start = readClockLeniently(startText);
  const end = endText === '' ? null : readClockLeniently(endText);
  const duration = end !== null && start !== null ? end - start : durationText === '' ? NaN : Number(durationText);
  if (start === null || (endText !== '' && end === null)) return SKIP_REASONS.badTime;
  if (!(Number.isInteger(duration) && duration >= MIN_DURATION && duration <= MAX_DURATION && start + duration <= 24 * 60)) return SKIP_REASONS.badEnd;
  const day = readDaysLeniently(daysText);
  return day === null ? SKIP_REASONS.noDays : { day, start, duration };
}

/** Adds names to a list of instructors, each once; bounded: a list over the limit is left out at the end, so it stops growing there. */
function addInstructors(to: string[], names: readonly string[]): void {
  for (const name of names) if (to.length <= MAX_INSTRUCTORS && !to.includes(name)) to.push(name);
}

/** A section's untimed rows (a second instructor's, a copy) are one section without a time. */
function keepUntimed(result: ListingRead, seen: Map<string, ListedSection>, section: ListedSection): void {
  const sectionKey = [section.term.year, section.term.semester, section.course_code, section.section_name].join('|');
  const earlier = seen.get(sectionKey);
  if (earlier) addInstructors(earlier.instructors, section.instructors);
  else {
    seen.set(sectionKey, section);
    result.untimed.push(section);
  }
}

/**
 * A meeting, kept; the same meeting of a section listed again (a second instructor's row, a copy, a
 * row whose days overlap it — MTWRU and MTWRFU) is one meeting, on the union of the days.
 */
function keepMeeting(result: ListingRead, seen: Map<string, ListedMeeting[]>, meeting: ListedMeeting): void {
  const { day, start, duration } = meeting;
  const key = [
    meeting.term.year,
    meeting.term.semester,
    meeting.course_code,
    meeting.section_name,
    start,
    duration,
    roomKey(meeting.room ?? ''),
    meeting.part_of_term,
  ].join('|');
  const candidates = seen.get(key) ?? [];
  const earlier = candidates.find((c) => sameMeetingRows(togetherOf(c), togetherOf(meeting)));
  if (!earlier) {
    candidates.push(meeting);
    seen.set(key, candidates);
    result.meetings.push(meeting);
    return;
  }
  result.merged++;
  result.mergedRows.push({
    row: meeting.row,
    into: earlier.row,
    course_code: meeting.course_code,
    section_name: meeting.section_name,
    days: earlier.day === day ? day : `${earlier.day} + ${day}`,
  });
  earlier.day = unionOfDays(earlier.day, day, DAY_LETTERS.join(''));
  addInstructors(earlier.instructors, meeting.instructors);
  if (earlier.roles && earlier.roles.length !== earlier.instructors.length) earlier.roles = null;
  for (const other of meeting.cross_listed) if (!earlier.cross_listed.includes(other)) earlier.cross_listed.push(other);
}

/** The meetings and sections listing too many instructors left out, each skipped with the reason. */
function withoutOverfull(result: ListingRead): ListingRead {
  const overfull = (m: ListedSection): boolean => m.instructors.length > MAX_INSTRUCTORS;
  for (const m of [...result.meetings.filter(overfull), ...result.untimed.filter(overfull)])
    result.skipped.push({ row: m.row, where: m.where, reason: SKIP_REASONS.tooManyInstructors });
  return { ...result, meetings: result.meetings.filter((m) => !overfull(m)), untimed: result.untimed.filter((u) => !overfull(u)) };
}
