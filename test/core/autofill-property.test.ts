import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createCore } from '../../core/index';
import { isCoreError } from '../../core/domain/errors';
import { saveRun } from '../helpers/runs';

const COURSES = ['CSC201', 'CSC202', 'CSC310', 'MTH101', 'STA201'];
const minutes = (t: string): number => Number(t.slice(0, 2)) * 60 + Number(t.slice(3));

const doctorArb = fc.record({
  allowed: fc.subarray(COURSES, { minLength: 1 }),
  days: fc.constantFrom(null, 'MWF', 'TR', 'MTWRF', 'MW'),
  hours: fc.constantFrom(null, '08:00-14:00', '09:30-17:00', '11:00-19:00'),
});
const instance = fc.record({
  doctors: fc.array(doctorArb, { minLength: 1, maxLength: 5 }),
  rooms: fc.array(fc.record({ capacity: fc.integer({ min: 10, max: 80 }), campus: fc.constantFrom(null, 'Beirut', 'Byblos') }), { minLength: 1, maxLength: 5 }),
  demand: fc.array(fc.record({ code: fc.constantFrom(...COURSES), enrollment: fc.integer({ min: 5, max: 150 }), sections: fc.integer({ min: 1, max: 4 }) }), {
    minLength: 1,
    maxLength: 5,
  }),
  existing: fc.array(
    fc.record({
      doctor: fc.nat(),
      room: fc.nat(),
      day: fc.constantFrom('MWF', 'TR', 'M', 'R'),
      start: fc.constantFrom('08:00', '09:00', '09:30', '11:00', '14:00'),
    }),
    { maxLength: 6 },
  ),
  max: fc.integer({ min: 1, max: 4 }),
});

describe('auto-fill invariant', () => {
  it('never places a section that breaks a hard rule, including against existing entries', async () => {
    await fc.assert(
      fc.asyncProperty(instance, async (inst) => {
        const dataDir = mkdtempSync(join(tmpdir(), 'termwise-autofill-prop-'));
        const core = await createCore({ dataDir });
        try {
          // The run plans Fall 2025 (saveRun), where its draft goes: the existing meetings are that term's.
          await core.run('schedule-settings-update', { current_term: { year: 2025, semester: 'Fall' } });
          const doctors = [];
          for (const [i, d] of inst.doctors.entries())
            doctors.push({
              ...(await core.run('doctors-create', { name: `Dr. ${i}`, allowed_courses: d.allowed, available_days: d.days, available_time: d.hours })),
              spec: d,
            });
          for (const [i, r] of inst.rooms.entries()) await core.run('rooms-create', { name: `Room ${i}`, capacity: r.capacity, campus: r.campus });
          for (const [i, e] of inst.existing.entries()) {
            try {
              await core.run('schedule-create', {
                course_code: 'PHY101',
                section_name: String(i),
                doctor_id: doctors[e.doctor % doctors.length]?.id ?? 0,
                day: e.day,
                start_time: e.start,
                duration_mins: 60,
                room: `Room ${e.room % inst.rooms.length}`,
              });
            } catch (error) {
              if (!isCoreError(error)) throw error;
            }
          }
          const unique = [...new Map(inst.demand.map((d) => [d.code, d])).values()];
          const runId = await saveRun(core.context.db, 'Beirut', unique);
          const result = await core.run('schedule-autofill', { run_id: runId, dry_run: false, max_sections_per_doctor: inst.max });
          if (result.source !== 'run') throw new Error('auto-fill from a run answers a run draft');
          expect(result.score.hard_violations).toBe(0);
          const all = await core.run('schedule-list', {});
          const rooms = await core.run('rooms-list', {});
          for (const e of result.placed) {
            const d = doctors.find((x) => x.id === e.doctor_id);
            expect(d?.spec.allowed).toContain(e.course_code);
            if (d?.spec.days) expect([...e.day].every((l) => d.spec.days?.includes(l))).toBe(true);
            if (d?.spec.hours) {
              const [from, to] = d.spec.hours.split('-').map(minutes);
              expect(minutes(e.start_time) >= (from ?? 0) && minutes(e.start_time) + e.duration_mins <= (to ?? 0)).toBe(true);
            }
            const room = rooms.find((r) => r.name === e.room);
            const demand = unique.find((u) => u.code === e.course_code);
            expect(room?.campus === null || room?.campus === 'Beirut').toBe(true);
            expect(room?.capacity ?? 0).toBeGreaterThanOrEqual(Math.ceil((demand?.enrollment ?? 0) / (demand?.sections ?? 1)));
          }
          for (const a of all)
            for (const b of all) {
              if (a.id >= b.id) continue;
              const overlap =
                [...a.day].some((l) => b.day.includes(l)) &&
                minutes(a.start_time) < minutes(b.start_time) + b.duration_mins &&
                minutes(b.start_time) < minutes(a.start_time) + a.duration_mins;
              if (!overlap) continue;
              expect(a.doctor_id !== null && a.doctor_id === b.doctor_id, `doctor clash ${a.id}/${b.id}`).toBe(false);
              expect(a.room.toLowerCase() !== 'tbd' && a.room.toLowerCase() === b.room.toLowerCase(), `room clash ${a.id}/${b.id}`).toBe(false);
            }
          const newLoad = new Map<number, number>();
          for (const e of result.placed) newLoad.set(e.doctor_id ?? 0, (newLoad.get(e.doctor_id ?? 0) ?? 0) + 1);
          // New sections go only to instructors under the limit, and never take them over it.
          for (const [id, added] of newLoad) {
            const before = all.filter((x) => x.doctor_id === id).length - added;
            expect(before).toBeLessThan(inst.max);
            expect(before + added).toBeLessThanOrEqual(inst.max);
          }
        } finally {
          await core.close();
          rmSync(dataDir, { recursive: true, force: true });
        }
      }),
      { numRuns: 40 },
    );
  });
});
