import { describe, expect, it } from 'vitest';
import { availabilityWindow } from '../../core/domain/teaching';
import { availabilityConflicts } from '../../core/timetable/conflicts';

describe("an instructor's availability, read once for the rules and the calendar", () => {
  it('reads no days as every day and no (or unreadable) hours as the whole day', () => {
    expect(availabilityWindow({ available_days: null, available_time: null })).toEqual({ days: ['M', 'T', 'W', 'R', 'F', 'S', 'U'], start: 0, end: 1440 });
    expect(availabilityWindow({ available_days: 'TR', available_time: '09:30-17:00' })).toEqual({ days: ['T', 'R'], start: 570, end: 1020 });
    expect(availabilityWindow({ available_days: 'RT', available_time: 'mornings' })).toEqual({ days: ['T', 'R'], start: 0, end: 1440 });
  });

  it('lets the conflict rules agree with it: a Sunday meeting is fine without days, refused outside the given ones', () => {
    const sunday = { day: 'U', start: 600, duration: 60 };
    expect(availabilityConflicts({ id: 1, name: 'Dr. A', available_days: null, available_time: null }, sunday)).toEqual([]);
    expect(availabilityConflicts({ id: 1, name: 'Dr. A', available_days: 'MTWRF', available_time: null }, sunday)).toEqual([
      'Dr. A is not available on Sunday (available MTWRF)',
    ]);
    expect(availabilityConflicts({ id: 1, name: 'Dr. A', available_days: null, available_time: '08:00-10:30' }, sunday)).toEqual([
      'Dr. A is not available at 10:00-11:00 (available 08:00-10:30)',
    ]);
  });
});
