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
  days: Record<DayLetter, CampusShownBooking[]>;
}

const emptyDays = (): Record<DayLetter, CampusShownBooking[]> =>
  Object.fromEntries(VIEW_DAYS.map((d) => [d, []])) as unknown as Record<DayLetter, CampusShownBooking[]>;

/** Where a campus draft puts a meeting (by its id), shown on the campus week: its new day, time and room, and where it was. */
export interface CampusDraftPlace {
  day: string;
  start_time: string;
  duration_mins: number;
  room: string;
  was: { day: string; start_time: string; room: string };
}

/** A booking of the week as the draft would leave it (marked `draft` with where it was), or as it is. */
export type CampusShownBooking = CampusBooking & { draft?: string };

const addMinutes = (time: string, minutes: number): string => {
  const total = Number(time.slice(0, 2)) * 60 + Number(time.slice(3, 5)) + minutes;
  return `${String(Math.floor(total / 60)).padStart(2, '0')}:${String(total % 60).padStart(2, '0')}`;
};

/** The week's bookings as a campus draft would leave them: moved meetings at their new place, those left without a time gone. */
export function bookingsWithDraft(
  bookings: readonly CampusBooking[],
  moved: ReadonlyMap<number, CampusDraftPlace>,
  unplaced: ReadonlySet<number>,
): CampusShownBooking[] {
  return bookings.flatMap((b): CampusShownBooking[] => {
    if (b.id === null) return [b];
    if (unplaced.has(b.id)) return [];
    const move = moved.get(b.id);
    if (move === undefined) return [b];
    return [
      {
        ...b,
        day: move.day,
        start_time: move.start_time,
        end_time: addMinutes(move.start_time, move.duration_mins),
        room: move.room,
        draft: `draft: was ${move.was.day} ${move.was.start_time} in ${move.was.room}`,
      },
    ];
  });
}

/** The rooms of the campus week with each day's bookings (already in time order from the core). */
export function campusRows(week: CampusWeekView, shown: readonly CampusShownBooking[] = week.bookings): CampusRoomRow[] {
  const rows = new Map(
    week.rooms.map((room) => [room.name, { name: room.name, campus: room.campus, capacity: room.capacity, department: room.department, days: emptyDays() }]),
  );
  for (const booking of shown) {
    const row = rows.get(booking.room);
    if (!row) continue;
    for (const letter of parseDayPattern(booking.day) ?? []) row.days[letter]?.push(booking);
  }
  for (const row of rows.values()) for (const letter of VIEW_DAYS) row.days[letter].sort((a, b) => a.start_time.localeCompare(b.start_time));
  return [...rows.values()];
}

/** The Campus screen: every department's bookings in the rooms the caller books, for a term, a campus or one room. */
export function useCampusPage(draft: { moved: readonly ({ id: number } & CampusDraftPlace)[]; unplaced: readonly { id: number }[] } | null = null) {
  const [term, setTerm] = useState<Term | null>(null);
  const [campus, setCampus] = useState<string | null>(null);
  const [room, setRoom] = useState<string | null>(null);
  const args = { ...(term ?? {}), ...(campus ? { campus } : {}) };
  const read = useLive('campus-week', args);
  const campuses = useLive('campuses-list', {}).data;
  const week = read.data ?? null;
  const rows = useMemo(() => {
    if (!week) return [];
    if (draft === null) return campusRows(week);
    const moved = new Map(draft.moved.map((m) => [m.id, m]));
    return campusRows(week, bookingsWithDraft(week.bookings, moved, new Set(draft.unplaced.map((u) => u.id))));
  }, [week, draft]);
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
