import { useMemo, useState } from 'react';
import { useLive } from '../api/live';
import type { Term } from '../api/wire';
import { parseDayPattern, type DayLetter } from '../../../core/domain/days';
import { VIEW_DAYS } from '../lib/resource-rows';
import type { Result } from '../api/client';

export type CampusWeekView = Result<'campus-week'>;
export type CampusBooking = CampusWeekView['bookings'][number];

/** One room's row of the campus week: its bookings per day, in time order. */
export interface CampusRoomRow {
  name: string;
  campus: string | null;
  capacity: number | null;
  /** The department the room belongs to (its code), or null: the shared pool. */
  department: string | null;
  days: Record<DayLetter, CampusBooking[]>;
}

const emptyDays = (): Record<DayLetter, CampusBooking[]> => Object.fromEntries(VIEW_DAYS.map((d) => [d, []])) as unknown as Record<DayLetter, CampusBooking[]>;

/** The rooms of the campus week with each day's bookings (already in time order from the core). */
export function campusRows(week: CampusWeekView): CampusRoomRow[] {
  const rows = new Map(
    week.rooms.map((room) => [room.name, { name: room.name, campus: room.campus, capacity: room.capacity, department: room.department, days: emptyDays() }]),
  );
  for (const booking of week.bookings) {
    const row = rows.get(booking.room);
    if (!row) continue;
    for (const letter of parseDayPattern(booking.day) ?? []) row.days[letter]?.push(booking);
  }
  for (const row of rows.values()) for (const letter of VIEW_DAYS) row.days[letter].sort((a, b) => a.start_time.localeCompare(b.start_time));
  return [...rows.values()];
}

/** The Campus screen: every department's bookings in the rooms the caller books, for a term, a campus or one room. */
export function useCampusPage() {
  const [term, setTerm] = useState<Term | null>(null);
  const [campus, setCampus] = useState<string | null>(null);
  const [room, setRoom] = useState<string | null>(null);
  const args = { ...(term ?? {}), ...(campus ? { campus } : {}) };
  const read = useLive('campus-week', args);
  const campuses = useLive('campuses-list', {}).data;
  const week = read.data ?? null;
  const rows = useMemo(() => (week ? campusRows(week) : []), [week]);
  return {
    week,
    error: read.error,
    term: week?.term ?? term,
    showTerm: setTerm,
    campus,
    showCampus: (name: string | null) => {
      setCampus(name);
      setRoom(null);
    },
    /** The department's campuses (not those of the rooms shown: the filter stays clearable). */
    campuses: campuses ?? [],
    room,
    showRoom: setRoom,
    roomNames: rows.map((r) => r.name),
    rows: room === null ? rows : rows.filter((r) => r.name === room),
  };
}
