import { termLabel, type Term } from '../domain/terms';
import { formatHHMM, parseHHMM } from '../domain/time';
import { WEEKDAY_LETTERS } from '../domain/days';
import { TBD_ROOM, sectionLabel } from '../domain/meetings';
import type { PartOfTerm } from '../domain/parts';
import type { ScheduleEntry } from '../timetable';

/**
 * One instructor's weekly timetable as an iCalendar file (RFC 5545) for a calendar app: one weekly
 * event per meeting, from the first to the last date of its part of term. Times are floating (the
 * campus's local time), as a timetable states them.
 */
const ICAL_DAYS: Record<string, string> = { M: 'MO', T: 'TU', W: 'WE', R: 'TH', F: 'FR', S: 'SA', U: 'SU' };

/**
 * A term's dates when its parts have none: the months Termwise reads a date's term from
 * (Spring January–May, Summer June–July, Fall August–December).
 */
export function termSpan(term: Term): { start: string; end: string } {
  const spans = { Spring: ['01-01', '05-31'], Summer: ['06-01', '07-31'], Fall: ['08-01', '12-31'] } as const;
  const [start, end] = spans[term.semester];
  return { start: `${term.year}-${start}`, end: `${term.year}-${end}` };
}

/** Text values: backslash, semicolon, comma and line breaks escaped. */
function escapeText(value: string): string {
  return value.replace(/[\\;,]/g, (c) => `\\${c}`).replace(/\r?\n|\r/g, '\\n');
}

const utf8 = new TextEncoder();

/** Lines longer than 75 octets folded (a space starts each continuation). */
function fold(line: string): string {
  if (utf8.encode(line).length <= 75) return line;
  const pieces: string[] = [];
  let piece = '';
  let size = 0;
  for (const char of line) {
    const width = utf8.encode(char).length;
    if (size + width > (pieces.length === 0 ? 75 : 74)) {
      pieces.push(piece);
      piece = '';
      size = 0;
    }
    piece += char;
    size += width;
  }
  pieces.push(piece);
  return pieces.join('\r\n ');
}

const compactDate = (iso: string): string => iso.replace(/-/g, '');
const compactTime = (minutes: number): string => `${formatHHMM(minutes).replace(':', '')}00`;

/** The first date on or after `from` that falls on one of the day letters. */
function firstMeetingDate(from: string, days: string): string {
  const date = new Date(`${from}T00:00:00Z`);
  for (let i = 0; i < 7 && !days.includes(WEEKDAY_LETTERS[date.getUTCDay()] ?? ''); i++) date.setUTCDate(date.getUTCDate() + 1);
  return date.toISOString().slice(0, 10);
}

export function exportInstructorCalendar(
  doctor: { id: number; name: string },
  entries: readonly ScheduleEntry[],
  parts: ReadonlyMap<string, PartOfTerm>,
  term: Term,
  stamp: Date,
): Uint8Array {
  const span = termSpan(term);
  const dtstamp = `${stamp.toISOString().replace(/[-:]/g, '').slice(0, 15)}Z`;
  const lines = [
    'BEGIN:VCALENDAR',
    'VERSION:2.0',
    'PRODID:-//Termwise//Timetable//EN',
    'CALSCALE:GREGORIAN',
    `X-WR-CALNAME:${escapeText(`${doctor.name} — ${termLabel(term)}`)}`,
  ];
  for (const entry of entries.filter((e) => e.doctor_ids.includes(doctor.id))) {
    const part = parts.get(entry.part_of_term);
    const from = part?.start_date ?? span.start;
    const until = part?.end_date ?? span.end;
    const start = parseHHMM(entry.start_time) ?? 0;
    const first = firstMeetingDate(from, entry.day);
    const role = entry.doctors.find((d) => d.id === doctor.id)?.role ?? 'teaches';
    const description = [
      `Instructors: ${entry.doctors.map((d) => (d.role === 'teaches' ? d.name : `${d.name} (${d.role})`)).join('; ')}`,
      `Part of term: ${entry.part_of_term}${part?.start_date ? '' : ' (dates not set: the whole term)'}`,
      ...(entry.joint_group ? [`Meets with joint group ${entry.joint_group}`] : []),
      `Campus: ${entry.campus}`,
    ].join('\n');
    lines.push(
      'BEGIN:VEVENT',
      `UID:termwise-entry-${entry.id}-doctor-${doctor.id}@termwise.local`,
      `DTSTAMP:${dtstamp}`,
      `DTSTART:${compactDate(first)}T${compactTime(start)}`,
      `DTEND:${compactDate(first)}T${compactTime(start + entry.duration_mins)}`,
      `RRULE:FREQ=WEEKLY;BYDAY=${[...entry.day].map((d) => ICAL_DAYS[d] ?? 'MO').join(',')};UNTIL=${compactDate(until)}T235959`,
      `SUMMARY:${escapeText(`${sectionLabel(entry.course_code, entry.section_name)}${role === 'teaches' ? '' : ` (${role})`}`)}`,
      ...(entry.room === TBD_ROOM ? [] : [`LOCATION:${escapeText(entry.room)}`]),
      `DESCRIPTION:${escapeText(description)}`,
      'END:VEVENT',
    );
  }
  lines.push('END:VCALENDAR');
  return utf8.encode(`${lines.map(fold).join('\r\n')}\r\n`);
}
