import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import type { EventInput } from '@fullcalendar/core';
import { MAX_DRAWN_PER_SLOT, weekEvents, type CalendarEntry } from '../../renderer/src/lib/calendar-events';
import { shiftPattern } from '../../renderer/src/lib/week';

const entry = (id: number, overrides: Partial<CalendarEntry> = {}): CalendarEntry => ({
  id,
  course_code: `CSC${100 + id}`,
  section_name: '1',
  doctors: [],
  day: 'MW',
  start_time: '09:00',
  duration_mins: 60,
  warnings: [],
  ...overrides,
});

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

  it('folds sections that overlap without starting together, never more than the limit side by side', () => {
    // A real registrar's week: 50- and 75-minute meetings starting every quarter hour in many rooms.
    const staggered = Array.from({ length: 12 }, (_, i) =>
      entry(i + 1, { day: 'M', start_time: `09:${String((i % 4) * 15).padStart(2, '0')}`, duration_mins: i % 2 ? 75 : 50 }),
    );
    const events = weekEvents(staggered);
    expect(maxSideBySide(events)).toBeLessThanOrEqual(MAX_DRAWN_PER_SLOT);
    expect(accountedFor(events)).toEqual(staggered.map((e) => `${e.id}:M`).sort());
  });

  it('draws a section with a curriculum conflict before quieter ones starting at the same time', () => {
    const crowded = Array.from({ length: 6 }, (_, i) => entry(i + 1, { day: 'M', curriculum_conflicts: i === 5 ? ['CSC101'] : [] }));
    const drawn = weekEvents(crowded).filter((e) => !String(e.id).startsWith('more:'));
    expect(drawn.map((e) => e.groupId)).toContain('6');
  });

  it('keeps every section drawn or counted, and at most the limit side by side, on any week', () => {
    const anyEntry = fc.record({
      day: fc.constantFrom('M', 'MW', 'TR', 'MWF', 'S'),
      start: fc.integer({ min: 7 * 4, max: 20 * 4 }),
      duration: fc.constantFrom(15, 50, 60, 75, 90, 150),
      joint: fc.constantFrom(null, 'A', 'B'),
    });
    fc.assert(
      fc.property(fc.array(anyEntry, { maxLength: 80 }), fc.integer({ min: 1, max: 5 }), (specs, limit) => {
        const entries = specs.map((s, i) =>
          entry(i + 1, {
            day: s.day,
            start_time: `${String(Math.floor(s.start / 4)).padStart(2, '0')}:${String((s.start % 4) * 15).padStart(2, '0')}`,
            duration_mins: s.duration,
            joint_group: s.joint,
          }),
        );
        const events = weekEvents(entries, limit);
        expect(maxSideBySide(events)).toBeLessThanOrEqual(Math.max(limit, 2));
        expect(accountedFor(events)).toEqual(entries.flatMap((e) => [...e.day].map((d) => `${e.id}:${d}`)).sort());
      }),
      { numRuns: 200 },
    );
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

/** Every entry-day an event stands for: drawn (with its joint partners) or listed in a "+N sections" block. */
function accountedFor(events: readonly EventInput[]): string[] {
  const seen: string[] = [];
  for (const e of events) {
    const day = String(e.id).startsWith('more:') ? String(e.id).slice(5, 6) : String(e.id).split(':')[1];
    const props = (e.extendedProps ?? {}) as { hiddenEntries?: number[]; jointEntries?: number[] };
    for (const id of props.hiddenEntries ?? props.jointEntries ?? [Number(e.groupId)]) seen.push(`${id}:${day}`);
  }
  return seen.sort();
}

/** The most events covering one moment of one day. */
function maxSideBySide(events: readonly EventInput[]): number {
  const minutes = new Map<string, number>();
  for (const e of events) {
    const [date, from] = String(e.start).split('T');
    const to = String(e.end).split('T')[1] ?? '';
    const [fh, fm] = (from ?? '').split(':').map(Number);
    const [th, tm] = to.split(':').map(Number);
    for (let m = (fh ?? 0) * 60 + (fm ?? 0); m < (th ?? 0) * 60 + (tm ?? 0); m++) minutes.set(`${date}|${m}`, (minutes.get(`${date}|${m}`) ?? 0) + 1);
  }
  return Math.max(0, ...minutes.values());
}
