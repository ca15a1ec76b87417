import { DAY_NAMES, sharesDay, type DayLetter } from './days';
import { formatHHMM } from './time';

/** When a section meets: a day pattern and an interval [start, start + duration) in minutes. */
export interface Session {
  day: string;
  start: number;
  duration: number;
}

export const TBD_ROOM = 'TBD';

/** Rooms are compared trimmed and case-insensitively; TBD never conflicts (null key). */
export function roomKey(room: string): string | null {
  const key = room.trim().replace(/\s+/g, ' ').toLowerCase();
  return key === '' || key === 'tbd' ? null : key;
}

export function displayRoom(room: string | null | undefined): string {
  const trimmed = (room ?? '').trim().replace(/\s+/g, ' ');
  return roomKey(trimmed) === null ? TBD_ROOM : trimmed;
}

/** Two sessions overlap when they share a day and their intervals intersect; back-to-back do not. */
export function sessionsOverlap(a: Session, b: Session): boolean {
  return sharesDay(a.day, b.day) && a.start < b.start + b.duration && b.start < a.start + a.duration;
}

export function sharedDays(a: string, b: string): string {
  return [...a].filter((d) => b.includes(d)).join('');
}

export function formatInterval(start: number, duration: number): string {
  return `${formatHHMM(start)}-${formatHHMM(start + duration)}`;
}

export function dayNames(letters: string): string {
  const names = [...letters].map((d) => DAY_NAMES[d as DayLetter] ?? d);
  if (names.length <= 1) return names.join('');
  return `${names.slice(0, -1).join(', ')} and ${names[names.length - 1] ?? ''}`;
}

export function sectionLabel(course: string, section: string): string {
  return /^sec(tion)?\b/i.test(section) ? `${course} ${section}` : `${course} section ${section}`;
}
