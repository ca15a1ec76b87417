import { normaliseCourseCode } from '../domain/codes';
import { readDaysLeniently } from '../domain/days';
import { formatHHMM, formatTimeRange, parseTimeRange, readClockLeniently } from '../domain/time';
import { cellText } from '../import/table';
import { readListCell } from '../import/lists';

/** Reads allowed courses given as a JSON array, a JSON-array string or "CSC310, CSC311". */
export function readAllowedCourses(value: unknown): { codes: string[]; rejected: string[] } {
  const items = readListCell(value, { separators: ',;|' }) ?? [];
  const codes: string[] = [];
  const rejected: string[] = [];
  for (const raw of items) {
    const code = normaliseCourseCode(raw);
    if (code) {
      if (!codes.includes(code)) codes.push(code);
    } else rejected.push(raw);
  }
  return { codes, rejected };
}

export type Availability = { days: string | null; time: string | null; problems: string[] };

/**
 * Availability from either the stored names (available_days, available_time "HH:MM-HH:MM")
 * or the upload's (days, start, end). Blank means no restriction.
 */
export function readAvailability(fields: { days?: unknown; time?: unknown; start?: unknown; end?: unknown }): Availability {
  const problems: string[] = [];
  const daysText = cellText(fields.days);
  let days: string | null = null;
  if (daysText !== '') {
    days = readDaysLeniently(daysText);
    if (!days) problems.push(`days "${daysText}" are not day letters (M T W R F S U)`);
  }
  let time: string | null = null;
  const timeText = cellText(fields.time);
  if (timeText !== '') {
    const range = parseTimeRange(timeText);
    if (range) time = formatTimeRange(range);
    else problems.push(`available time "${timeText}" is not HH:MM-HH:MM with start before end`);
  } else {
    const start =
      cellText(fields.start) === ''
        ? null
        : readClockLeniently(fields.start instanceof Date || typeof fields.start === 'number' ? fields.start : cellText(fields.start));
    const end =
      cellText(fields.end) === '' ? null : readClockLeniently(fields.end instanceof Date || typeof fields.end === 'number' ? fields.end : cellText(fields.end));
    const hasStart = cellText(fields.start) !== '';
    const hasEnd = cellText(fields.end) !== '';
    if (hasStart || hasEnd) {
      if (start === null || end === null)
        problems.push(`availability "${cellText(fields.start)}"–"${cellText(fields.end)}" needs a readable start and end time`);
      else if (end <= start) problems.push(`availability ends (${formatHHMM(end)}) before it starts (${formatHHMM(start)})`);
      else time = `${formatHHMM(start)}-${formatHHMM(end)}`;
    }
  }
  return { days, time, problems };
}
