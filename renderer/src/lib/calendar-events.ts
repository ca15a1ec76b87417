import type { EventInput } from '@fullcalendar/core';
import type { ScheduleEntry } from '../../../core/schedule/schema';
import { colourOf, dateOfLetter, hhmm, minutesOf } from './week';

/** What the calendar needs of a timetable entry. */
export type CalendarEntry = Pick<ScheduleEntry, 'id' | 'course_code' | 'section_name' | 'doctor_id' | 'day' | 'start_time' | 'duration_mins' | 'warnings'>;

/** Sections drawn side by side in one time slot before the rest collapse into one "+N sections" block. */
export const MAX_DRAWN_PER_SLOT = 3;

function occurrence(entry: CalendarEntry, letter: string): EventInput {
  const start = minutesOf(entry.start_time);
  return {
    id: `${entry.id}:${letter}`,
    groupId: String(entry.id),
    title: `${entry.course_code} §${entry.section_name}`,
    start: `${dateOfLetter(letter)}T${entry.start_time}`,
    end: `${dateOfLetter(letter)}T${hhmm(Math.min(start + entry.duration_mins, 24 * 60 - 1))}`,
    backgroundColor: colourOf(entry.doctor_id),
    borderColor: entry.warnings.length ? '#f59f00' : colourOf(entry.doctor_id),
    extendedProps: { entryId: entry.id },
  };
}

/**
 * Calendar events for the week: one per entry and day. Where many sections share exactly the
 * same day and time (a busy standard slot across many rooms), the first few are drawn and the
 * rest become one block listing them, which keeps the calendar readable and fast.
 */
export function weekEvents(entries: readonly CalendarEntry[], maxPerSlot = MAX_DRAWN_PER_SLOT): EventInput[] {
  const slots = new Map<string, { entry: CalendarEntry; letter: string }[]>();
  for (const entry of entries) {
    for (const letter of entry.day) {
      const key = `${letter}|${entry.start_time}|${entry.duration_mins}`;
      const list = slots.get(key) ?? [];
      list.push({ entry, letter });
      slots.set(key, list);
    }
  }
  const events: EventInput[] = [];
  for (const [key, list] of slots) {
    if (list.length <= maxPerSlot) {
      for (const { entry, letter } of list) events.push(occurrence(entry, letter));
      continue;
    }
    const sorted = [...list].sort((a, b) => a.entry.course_code.localeCompare(b.entry.course_code) || a.entry.section_name.localeCompare(b.entry.section_name, 'en', { numeric: true }));
    const drawn = sorted.slice(0, maxPerSlot - 1);
    const hidden = sorted.slice(maxPerSlot - 1);
    for (const { entry, letter } of drawn) events.push(occurrence(entry, letter));
    const first = hidden[0];
    if (!first) continue;
    const base = occurrence(first.entry, first.letter);
    events.push({
      id: `more:${key}`,
      title: `+${hidden.length} sections`,
      start: base.start,
      end: base.end,
      editable: false,
      classNames: ['tw-more'],
      backgroundColor: 'var(--mantine-color-gray-light)',
      borderColor: 'var(--mantine-color-gray-5)',
      textColor: 'inherit',
      extendedProps: { hiddenEntries: hidden.map((h) => h.entry.id) },
    });
  }
  return events;
}
