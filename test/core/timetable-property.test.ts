import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createCore } from '../../core/index';
import { isCoreError } from '../../core/domain/errors';
import type { ScheduleEntry } from '../../core/timetable/schema';

/** An independent oracle for the three rules, written without the production code. */
function minutes(hhmm: string): number {
  const [h, m] = hhmm.split(':').map(Number);
  return (h ?? 0) * 60 + (m ?? 0);
}
function clash(a: ScheduleEntry, b: ScheduleEntry): boolean {
  const shareDay = [...a.day].some((d) => b.day.includes(d));
  const [as, bs] = [minutes(a.start_time), minutes(b.start_time)];
  return shareDay && as < bs + b.duration_mins && bs < as + a.duration_mins;
}
const sameRoom = (a: ScheduleEntry, b: ScheduleEntry): boolean =>
  a.room.trim().toLowerCase() !== 'tbd' && a.room.trim().toLowerCase() === b.room.trim().toLowerCase();

const AVAILABILITY: Record<string, { days: string; time: string; from: number; to: number } | null> = {
  'Dr. A': { days: 'MWF', time: '08:00-14:00', from: 8 * 60, to: 14 * 60 },
  'Dr. B': { days: 'TR', time: '09:30-17:00', from: 9 * 60 + 30, to: 17 * 60 },
  'Dr. C': null,
};

const dayPattern = fc.subarray(['M', 'T', 'W', 'R', 'F'], { minLength: 1 }).map((d) => d.join(''));
const startTime = fc.integer({ min: 28, max: 76 }).map((q) => `${String(Math.floor(q / 4)).padStart(2, '0')}:${String((q % 4) * 15).padStart(2, '0')}`);
const fields = fc.record(
  {
    doctor: fc.constantFrom(0, 1, 2, 3),
    day: dayPattern,
    start_time: startTime,
    duration_mins: fc.constantFrom(30, 50, 60, 75, 90, 120),
    room: fc.constantFrom('R1', ' r1 ', 'R2', 'TBD'),
  },
  { requiredKeys: [] },
);
const operation = fc.oneof(
  fc.record({ kind: fc.constant('create' as const), values: fields }),
  fc.record({ kind: fc.constant('patch' as const), target: fc.nat(), values: fields }),
);

describe('timetable invariant', () => {
  it('never stores two conflicting entries, nor an entry outside its doctor availability', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(operation, { minLength: 1, maxLength: 40 }), async (operations) => {
        const dataDir = mkdtempSync(join(tmpdir(), 'termwise-prop-'));
        const core = await createCore({ dataDir });
        try {
          const doctorIds: number[] = [];
          for (const [name, a] of Object.entries(AVAILABILITY)) {
            const d = await core.run('doctors-create', { name, allowed_courses: ['CSC201'], available_days: a?.days ?? null, available_time: a?.time ?? null });
            doctorIds.push(d.id);
          }
          let section = 0;
          for (const op of operations) {
            const v = op.values;
            const doctor_id = v.doctor === undefined ? undefined : v.doctor === 0 ? 0 : doctorIds[v.doctor - 1];
            try {
              if (op.kind === 'create') {
                await core.run('schedule-create', {
                  course_code: 'CSC201',
                  section_name: String(++section),
                  doctor_id: doctor_id ?? 0,
                  day: v.day ?? 'MW',
                  start_time: v.start_time ?? '09:00',
                  duration_mins: v.duration_mins ?? 60,
                  room: v.room ?? 'R1',
                });
              } else {
                const entries = await core.run('schedule-list', {});
                const target = entries[op.target % Math.max(1, entries.length)];
                if (target) await core.run('schedule-update', { entry_id: target.id, ...v, doctor_id });
              }
            } catch (error) {
              if (!isCoreError(error) || !['conflict', 'validation'].includes(error.code)) throw error;
            }
          }
          const stored = await core.run('schedule-list', {});
          for (const e of stored) {
            const a = e.doctor ? AVAILABILITY[e.doctor.name] : null;
            if (a) {
              expect(
                [...e.day].every((d) => a.days.includes(d)),
                `${e.doctor?.name} on ${e.day}`,
              ).toBe(true);
              expect(minutes(e.start_time) >= a.from && minutes(e.start_time) + e.duration_mins <= a.to).toBe(true);
            }
            for (const f of stored) {
              if (f.id <= e.id || !clash(e, f)) continue;
              expect(e.doctor_id !== null && e.doctor_id === f.doctor_id, `doctor clash ${e.id}/${f.id}`).toBe(false);
              expect(sameRoom(e, f), `room clash ${e.id}/${f.id}`).toBe(false);
            }
          }
        } finally {
          await core.close();
          rmSync(dataDir, { recursive: true, force: true });
        }
      }),
      { numRuns: 60 },
    );
  });
});
