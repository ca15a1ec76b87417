import { describe, expect, it } from 'vitest';
import { MAX_DRAWN_PER_SLOT, weekEvents, type CalendarEntry } from '../../renderer/src/lib/calendar-events';
import { shiftPattern } from '../../renderer/src/lib/week';

const entry = (id: number, overrides: Partial<CalendarEntry> = {}): CalendarEntry => ({ id, course_code: `CSC${100 + id}`, section_name: '1', doctor_id: null, day: 'MW', start_time: '09:00', duration_mins: 60, warnings: [], ...overrides });

describe('calendar events', () => {
  it('draws one event per entry and day', () => {
    const events = weekEvents([entry(1), entry(2, { day: 'TR', start_time: '11:00', duration_mins: 90 })]);
    expect(events.map((e) => [e.id, e.start, e.end])).toEqual([
      ['1:M', '2024-01-01T09:00', '2024-01-01T10:00'],
      ['1:W', '2024-01-03T09:00', '2024-01-03T10:00'],
      ['2:T', '2024-01-02T11:00', '2024-01-02T12:30'],
      ['2:R', '2024-01-04T11:00', '2024-01-04T12:30'],
    ]);
  });

  it('summarises a crowded slot so every section is either drawn or listed', () => {
    const crowded = Array.from({ length: 10 }, (_, i) => entry(i + 1, { day: 'M' }));
    const events = weekEvents(crowded);
    const drawn = events.filter((e) => !String(e.id).startsWith('more:'));
    const summary = events.find((e) => String(e.id).startsWith('more:'));
    expect(drawn).toHaveLength(MAX_DRAWN_PER_SLOT - 1);
    const hidden = (summary?.extendedProps as { hiddenEntries: number[] }).hiddenEntries;
    expect(hidden).toHaveLength(10 - (MAX_DRAWN_PER_SLOT - 1));
    expect(new Set([...drawn.map((e) => Number(e.groupId)), ...hidden])).toEqual(new Set(crowded.map((e) => e.id)));
    expect(summary?.editable).toBe(false);
  });

  it('draws the members of a joint group meeting together as one block labelled with every code', () => {
    const events = weekEvents([
      entry(1, { course_code: 'CSC374', joint_group: 'G', day: 'M' }),
      entry(2, { course_code: 'BIF374', joint_group: 'G', day: 'M' }),
      entry(3, { course_code: 'CSC380', joint_group: 'other', day: 'M' }),
      entry(4, { course_code: 'CSC574', section_name: '2', joint_group: 'G', day: 'M', start_time: '11:00' }),
    ]);
    expect(events.map((e) => e.title)).toEqual(['CSC374 / BIF374 §1', 'CSC380 §1', 'CSC574 §2']);
    expect(events[0]).toMatchObject({ editable: false, extendedProps: { jointEntries: [1, 2] } });
  });

  it('moves a whole day pattern when one occurrence is dragged', () => {
    expect(shiftPattern('MWF', 1)).toBe('TRS');
    expect(shiftPattern('TR', -1)).toBe('MW');
    expect(shiftPattern('MWF', 0)).toBe('MWF');
  });
});
