import type { EventInput } from '@fullcalendar/core';
import type { ScheduleEntry } from '../../../core/schedule/schema';
import { colourOf, dateOfLetter, hhmm, minutesOf } from './week';

/** What the calendar needs of a timetable entry. */
export type CalendarEntry = Pick<ScheduleEntry, 'id' | 'course_code' | 'section_name' | 'doctor_id' | 'day' | 'start_time' | 'duration_mins' | 'warnings'> & Partial<Pick<ScheduleEntry, 'joint_group' | 'curriculum_conflicts'>>;

/** "CSC374 / CSC574 §1" for members sharing a section name, else "CSC374 §1 / CSC574 §2". */
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
  const border = borderOf(members);
  const joint = members.length > 1;
  return {
    id: `${entry.id}:${letter}`,
    groupId: String(entry.id),
    title: joint ? jointTitle(members) : `${entry.course_code} §${entry.section_name}`,
    // A joint group moves as one in the section dialog, not by dragging one member away from the others.
    ...(joint ? { editable: false, extendedProps: { entryId: entry.id, jointEntries: members.map((m) => m.id) } } : {}),
    start: `${dateOfLetter(letter)}T${entry.start_time}`,
    end: `${dateOfLetter(letter)}T${hhmm(Math.min(start + entry.duration_mins, 24 * 60 - 1))}`,
    backgroundColor: colourOf(entry.doctor_id),
    borderColor: border ?? colourOf(entry.doctor_id),
    ...(border === CURRICULUM_BORDER ? { classNames: ['tw-curriculum'] } : {}),
    ...(joint ? {} : { extendedProps: { entryId: entry.id } }),
  };
}

/**
 * Calendar events for the week: one per entry and day. Where many sections share exactly the
 * same day and time (a busy standard slot across many rooms), the first few are drawn and the
 * rest become one block listing them, which keeps the calendar readable and fast.
 */
export function weekEvents(entries: readonly CalendarEntry[], maxPerSlot = MAX_DRAWN_PER_SLOT): EventInput[] {
  const slots = new Map<string, { entry: CalendarEntry; letter: string; members: CalendarEntry[] }[]>();
  // Members of a joint group meeting at the same time are one block, labelled with every code.
  const joint = new Map<string, { entry: CalendarEntry; letter: string; members: CalendarEntry[] }>();
  for (const entry of entries) {
    for (const letter of entry.day) {
      const key = `${letter}|${entry.start_time}|${entry.duration_mins}`;
      if (entry.joint_group) {
        const together = joint.get(`${key}|${entry.joint_group}`);
        if (together) {
          together.members.push(entry);
          continue;
        }
      }
      const item = { entry, letter, members: [entry] };
      if (entry.joint_group) joint.set(`${key}|${entry.joint_group}`, item);
      const list = slots.get(key) ?? [];
      list.push(item);
      slots.set(key, list);
    }
  }
  const events: EventInput[] = [];
  for (const [key, list] of slots) {
    if (list.length <= maxPerSlot) {
      for (const { entry, letter, members } of list) events.push(occurrence(entry, letter, members));
      continue;
    }
    const sorted = [...list].sort((a, b) => a.entry.course_code.localeCompare(b.entry.course_code) || a.entry.section_name.localeCompare(b.entry.section_name, 'en', { numeric: true }));
    const drawn = sorted.slice(0, maxPerSlot - 1);
    const hidden = sorted.slice(maxPerSlot - 1);
    for (const { entry, letter, members } of drawn) events.push(occurrence(entry, letter, members));
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
      extendedProps: { hiddenEntries: hidden.flatMap((h) => h.members.map((m) => m.id)) },
    });
  }
  return events;
}
