import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { startTestServer, json, type TestServer } from '../helpers/server';
import { saveRun } from '../helpers/runs';
import type { ScheduleEntry } from '../../core/timetable/schema';
import type * as Conflicts from '../../core/timetable/conflicts';
import type { Booking } from '../../core/timetable/conflicts';

/**
 * A rule added to the timetable's conflict checks, which auto-fill's model knows nothing of: here,
 * a room is left free 10 minutes between two meetings. The draft is judged by the write path's
 * rules, so a placement that breaks the new rule is left out in words, never stored and never an error.
 */
const NEW_RULE = 'a room is left free 10 minutes between two meetings';
const TURNOVER = 10;

vi.mock('../../core/timetable/conflicts', async (original) => {
  const rules = await original<typeof Conflicts>();
  const tooClose = (a: Booking, b: Booking): boolean => {
    const gap = Math.max(a.start, b.start) - Math.min(a.start + a.duration, b.start + b.duration);
    return a.roomKey !== null && a.roomKey === b.roomKey && [...a.day].some((d) => b.day.includes(d)) && gap >= 0 && gap < TURNOVER;
  };
  return {
    ...rules,
    bookingClashes: (...args: Parameters<typeof rules.bookingClashes>) => {
      const [booking, , others] = args;
      const added = others
        .filter((other) => tooClose(booking, other))
        .map((other) => ({ detail: `${other.course_code} §${other.section_name} is in room ${other.room} right before or after (${NEW_RULE})`, with: other }));
      return [...rules.bookingClashes(...args), ...added];
    },
  };
});

let server: TestServer;
beforeEach(async () => {
  server = await startTestServer();
});
afterEach(async () => {
  await server.close();
});

interface RunDraft {
  placed: ScheduleEntry[];
  unplaced: { course_code: string; section_name: string; reason: string }[];
}

describe('a rule added to the conflict checks', () => {
  it('is honoured by the draft: what would break it is left out with the rule in words, and the rest is stored', async () => {
    for (const name of ['Dr. A', 'Dr. B']) {
      const created = await server.api('/scheduler/doctors', { method: 'POST', json: { name, allowed_courses: ['CSC201'] } });
      expect(created.status).toBe(200);
    }
    expect((await server.api('/scheduler/rooms', { method: 'POST', json: { name: 'R1', capacity: 40 } })).status).toBe(200);
    const runId = await saveRun(server.core.context.db, 'Beirut', [{ code: 'CSC201', enrollment: 60, sections: 2 }]);
    // One room and two standard times back to back: the model (which does not know the rule) can only put the sections there.
    const slots = [
      { day: 'MWF', start_time: '09:00', duration_mins: 60 },
      { day: 'MWF', start_time: '10:00', duration_mins: 60 },
    ];
    const response = await server.api('/scheduler/auto', { method: 'POST', json: { run_id: runId, dry_run: false, slots } });
    expect(response.status, await response.clone().text()).toBe(200);
    const result = await json<RunDraft>(response);
    expect(result.placed).toHaveLength(1);
    expect(result.unplaced).toEqual([
      {
        course_code: 'CSC201',
        section_name: expect.stringMatching(/^[12]$/) as string,
        reason: expect.stringContaining(`Placing it would break a rule, so it is left out of the draft: CSC201 §`) as string,
      },
    ]);
    expect(result.unplaced[0]?.reason).toContain(NEW_RULE);
    // Stored in the run's own term (saveRun plans Fall 2025).
    const stored = await json<ScheduleEntry[]>(await server.api('/scheduler/?year=2025&semester=Fall'));
    expect(stored.map((e) => `${e.course_code} ${e.section_name} ${e.room}`)).toEqual([`CSC201 ${result.placed[0]?.section_name} R1`]);
  });
});
