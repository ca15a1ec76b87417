/** Minutes since midnight ↔ "HH:MM" (24 h). */
const HHMM = /^([01]\d|2[0-3]):([0-5]\d)$/;

export function parseHHMM(value: string): number | null {
  if (value.length > 32) return null;
  const m = HHMM.exec(value.trim());
  if (!m) return null;
  return Number(m[1]) * 60 + Number(m[2]);
}

export function formatHHMM(minutes: number): string {
  const h = Math.floor(minutes / 60);
  const m = minutes % 60;
  return `${String(h).padStart(2, '0')}:${String(m).padStart(2, '0')}`;
}

/**
 * Lenient clock time as found in spreadsheets: "8", "8:00", "08:00", "8:00 AM", "2:30pm",
 * "14.30", or an Excel time (fraction of a day). Returns minutes since midnight, or null.
 */
export function readClockLeniently(value: unknown): number | null {
  if (value instanceof Date) return value.getUTCHours() * 60 + value.getUTCMinutes();
  if (typeof value === 'number') {
    if (value >= 0 && value < 1) return Math.round(value * 24 * 60);
    if (Number.isInteger(value) && value >= 0 && value <= 24) return value * 60;
    return null;
  }
  if (typeof value !== 'string' || value.length > 32) return null;
  const m = /^\s*(\d{1,2})(?:[:.h](\d{2}))?\s*(am|pm|a\.m\.|p\.m\.)?\s*$/i.exec(value);
  if (!m) return null;
  let hours = Number(m[1]);
  const minutes = m[2] ? Number(m[2]) : 0;
  const meridiem = m[3]?.toLowerCase().replace(/\./g, '');
  if (minutes > 59) return null;
  if (meridiem) {
    if (hours < 1 || hours > 12) return null;
    if (meridiem === 'pm' && hours !== 12) hours += 12;
    if (meridiem === 'am' && hours === 12) hours = 0;
  }
  if (hours > 24 || (hours === 24 && minutes > 0)) return null;
  return hours * 60 + minutes;
}

/** A time range "HH:MM-HH:MM" with start before end. */
export interface TimeRange {
  start: number;
  end: number;
}

export function parseTimeRange(value: string): TimeRange | null {
  const parts = value.split('-');
  if (parts.length !== 2) return null;
  const start = parseHHMM(parts[0] ?? '');
  const endText = (parts[1] ?? '').trim();
  const end = endText === '24:00' ? 1440 : parseHHMM(endText);
  if (start === null || end === null || end <= start) return null;
  return { start, end };
}

export function formatTimeRange(range: TimeRange): string {
  return `${formatHHMM(range.start)}-${formatHHMM(range.end)}`;
}
