import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { startTestServer, json, type TestServer } from '../helpers/server';
import { saveRun } from '../helpers/runs';
import { failThirdMeeting } from '../helpers/failures';
import type { ScheduleEntry } from '../../core/timetable/schema';
import type { Doctor } from '../../core/faculty/schema';

let server: TestServer;
beforeEach(async () => {
  server = await startTestServer();
});
afterEach(async () => {
  await server.close();
});

interface AutofillResponse {
  placed: ScheduleEntry[];
  unplaced: { course_code: string; section_name: string; reason: string }[];
  score: { hard_violations: number; soft: Record<string, number> };
  duration_ms: number;
}

const auto = async (body: Record<string, unknown>): Promise<Response> => server.api('/scheduler/auto', { method: 'POST', json: body });
const autoOk = async (body: Record<string, unknown>): Promise<AutofillResponse> => {
  const response = await auto(body);
  expect(response.status, await response.clone().text()).toBe(200);
  return json<AutofillResponse>(response);
};
const doctor = async (body: Record<string, unknown>): Promise<Doctor> => json<Doctor>(await server.api('/scheduler/doctors', { method: 'POST', json: body }));
const room = async (name: string, capacity: number, campus: string | null = null): Promise<void> => {
  const response = await server.api('/scheduler/rooms', { method: 'POST', json: { name, capacity, campus } });
  expect(response.status).toBe(200);
};
const minutes = (t: string): number => Number(t.slice(0, 2)) * 60 + Number(t.slice(3));

describe('rooms', () => {
  it('declares, uploads (upsert by name), lists undeclared rooms in use, and deletes', async () => {
    await room('Bassil 101', 40, 'Beirut');
    const upload = await server.upload('/data/upload/rooms', 'rooms.csv', 'room,seats,campus\nbassil 101,45,Beirut\nFrem 201,30,byblos\nHall,abc,\n');
    expect(await json(upload)).toMatchObject({
      status: 'success',
      processed: 2,
      skipped: 1,
      warnings: [expect.stringMatching(/Row 4: capacity "abc" of Hall/)],
    });
    await server.api('/scheduler/', {
      method: 'POST',
      json: { course_code: 'CSC201', section_name: '1', doctor_id: 0, day: 'MW', start_time: '09:00', duration_mins: 60, room: 'Annex 3' },
    });
    const rooms = await json<{ id: number | null; name: string; capacity: number | null; campus: string | null }[]>(await server.api('/scheduler/rooms'));
    expect(rooms).toEqual([
      // Every room here is the campus pool's (department_id null): any department books it.
      { id: null, name: 'Annex 3', capacity: null, campus: null, department_id: null },
      { id: expect.any(Number) as number, name: 'bassil 101', capacity: 45, campus: 'Beirut', department_id: null },
      { id: expect.any(Number) as number, name: 'Frem 201', capacity: 30, campus: 'Byblos', department_id: null },
    ]);
    expect((await server.api('/scheduler/rooms', { method: 'POST', json: { name: 'BASSIL 101', capacity: 10 } })).status).toBe(400);
    expect((await server.api('/scheduler/rooms', { method: 'POST', json: { name: 'X', capacity: 0 } })).status).toBe(422);
    const id = rooms[1]?.id ?? 0;
    expect(await json(await server.api(`/scheduler/rooms/${id}`, { method: 'DELETE' }))).toEqual({ status: 'deleted' });
    expect((await server.api(`/scheduler/rooms/${id}`, { method: 'DELETE' })).status).toBe(404);
    const json3 = await server.upload('/data/upload/rooms', 'rooms.json', JSON.stringify({ rooms: [{ name: 'Lab 1', seats: 20 }] }));
    expect(await json(json3)).toMatchObject({ processed: 1 });
  });
});

describe('POST /scheduler/auto', () => {
  // The runs here plan Fall 2025 (saveRun), which a run's draft goes into: the meetings made by hand are that term's too.
  beforeEach(async () => {
    expect((await server.api('/scheduler/settings', { method: 'PATCH', json: { current_term: { year: 2025, semester: 'Fall' } } })).status).toBe(200);
  });
  it('drafts every section with an allowed, available instructor in a free room that fits, storing nothing on a dry run', async () => {
    const rana = await doctor({ name: 'Dr. Rana Haddad', allowed_courses: ['CSC310', 'CSC320'], available_days: 'MWF', available_time: '08:00-14:00' });
    const karim = await doctor({ name: 'Dr. Karim Nassar', allowed_courses: ['CSC310', 'MTH201'], available_days: 'TR', available_time: '09:30-17:00' });
    await room('B1', 30, 'Beirut');
    await room('B2', 60, 'Beirut');
    await room('Y1', 200, 'Byblos');
    // An existing section 1 of CSC310: the plan's other two are named 2 and 3, and must avoid it.
    await server.api('/scheduler/', {
      method: 'POST',
      json: { course_code: 'CSC310', section_name: '1', doctor_id: rana.id, day: 'MWF', start_time: '08:00', duration_mins: 60, room: 'B1' },
    });
    const runId = await saveRun(server.core.context.db, 'Beirut', [
      { code: 'CSC310', enrollment: 100, sections: 3 },
      { code: 'CSC320', enrollment: 25, sections: 1 },
      { code: 'MTH201', enrollment: 50, sections: 1 },
      { code: 'STA201', enrollment: 10, sections: 0, offer: false },
    ]);
    const result = await autoOk({ run_id: runId });
    expect(result.unplaced).toEqual([]);
    expect(result.score.hard_violations).toBe(0);
    expect(result.placed.map((e) => `${e.course_code} ${e.section_name}`).sort()).toEqual(['CSC310 2', 'CSC310 3', 'CSC320 1', 'MTH201 1']);
    const sizes: Record<string, number> = { CSC310: 34, CSC320: 25, MTH201: 50 };
    for (const e of result.placed) {
      expect(['B1', 'B2']).toContain(e.room);
      expect(e.room === 'B1' ? 30 : 60).toBeGreaterThanOrEqual(sizes[e.course_code] ?? 0);
      if (e.doctor_id === rana.id) {
        expect(e.day).toBe('MWF');
        expect(minutes(e.start_time)).toBeGreaterThanOrEqual(8 * 60);
        expect(minutes(e.start_time) + e.duration_mins).toBeLessThanOrEqual(14 * 60);
      } else expect(e.doctor_id).toBe(karim.id);
      if (e.course_code === 'CSC320') expect(e.doctor_id).toBe(rana.id);
      if (e.course_code === 'MTH201') expect(e.doctor_id).toBe(karim.id);
    }
    expect(result.score.soft).toMatchObject({ total: expect.any(Number) as number, load_balance: expect.any(Number) as number });
    expect(await json<ScheduleEntry[]>(await server.api('/scheduler/'))).toHaveLength(1);
    // Deterministic for the same input.
    const again = await autoOk({ run_id: runId });
    expect(again.placed).toEqual(result.placed);
  });

  it('stores the draft in one transaction when dry_run is false', async () => {
    await doctor({ name: 'Dr. A', allowed_courses: ['CSC201', 'CSC202'] });
    await room('R', 40);
    const runId = await saveRun(server.core.context.db, 'Byblos', [
      { code: 'CSC201', enrollment: 70, sections: 2 },
      { code: 'CSC202', enrollment: 30, sections: 1 },
    ]);
    const result = await autoOk({ run_id: runId, dry_run: false });
    expect(result.placed).toHaveLength(3);
    expect(result.placed.every((e) => typeof e.id === 'number')).toBe(true);
    const stored = await json<ScheduleEntry[]>(await server.api('/scheduler/'));
    expect(stored.map((e) => e.id).sort()).toEqual(result.placed.map((e) => e.id).sort());
    // Asked again, the plan is complete: nothing more is drafted.
    const next = await autoOk({ run_id: runId, dry_run: true, max_sections_per_doctor: 10 });
    expect(next.placed).toEqual([]);
  });

  it('keeps a dry run as a draft to apply in part by its id, and refuses it in words once the timetable has changed', async () => {
    await doctor({ name: 'Dr. A', allowed_courses: ['CSC201', 'CSC202'] });
    await doctor({ name: 'Dr. B', allowed_courses: ['CSC201', 'CSC202'] });
    await room('R1', 40);
    await room('R2', 40);
    const runId = await saveRun(server.core.context.db, 'Beirut', [
      { code: 'CSC201', enrollment: 90, sections: 3 },
      { code: 'CSC202', enrollment: 30, sections: 1 },
    ]);
    const draft = await json<Omit<AutofillResponse, 'placed'> & { draft_id: string; placed: (ScheduleEntry & { draft_section: number })[] }>(
      await auto({ run_id: runId }),
    );
    expect(draft.placed).toHaveLength(4);
    expect(await json<ScheduleEntry[]>(await server.api('/scheduler/'))).toEqual([]);
    // Staff keep two of the four sections.
    const kept = draft.placed.filter((p) => p.course_code === 'CSC201').slice(0, 2);
    const applied = await server.api(`/scheduler/auto/${draft.draft_id}/apply`, { method: 'POST', json: { sections: kept.map((p) => p.draft_section) } });
    expect(applied.status, await applied.clone().text()).toBe(200);
    expect(await json(applied)).toMatchObject({ applied: 2 });
    const stored = await json<ScheduleEntry[]>(await server.api('/scheduler/'));
    const where = (e: Pick<ScheduleEntry, 'course_code' | 'section_name' | 'day' | 'start_time' | 'room'>): string =>
      `${e.course_code} ${e.section_name} ${e.day} ${e.start_time} ${e.room}`;
    expect(stored.map(where).sort()).toEqual(kept.map(where).sort());
    // Applied once only.
    expect((await server.api(`/scheduler/auto/${draft.draft_id}/apply`, { method: 'POST', json: {} })).status).toBe(400);
    // A draft made before another write is refused whole, in words.
    const next = await json<{ draft_id: string }>(await auto({ run_id: runId }));
    await server.api('/scheduler/', {
      method: 'POST',
      json: { course_code: 'MTH101', section_name: '1', doctor_id: 0, day: 'S', start_time: '08:00', duration_mins: 60, room: 'Annex' },
    });
    const stale = await server.api(`/scheduler/auto/${next.draft_id}/apply`, { method: 'POST', json: {} });
    expect(stale.status, await stale.clone().text()).toBe(400);
    expect((await json<{ detail: string }>(stale)).detail).toMatch(/^The timetable has changed since this draft was made/);
    expect(await json<ScheduleEntry[]>(await server.api('/scheduler/'))).toHaveLength(3);
  });

  it('applies all or nothing', async () => {
    await doctor({ name: 'Dr. A', allowed_courses: ['CSC201'] });
    await room('R', 40);
    const runId = await saveRun(server.core.context.db, 'Beirut', [{ code: 'CSC201', enrollment: 120, sections: 3 }]);
    await failThirdMeeting(server.core.context.db, 'disk full');
    // The server logs a fault of its own; keep the expected one out of the test output, and check it was logged.
    const logged = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const response = await auto({ run_id: runId, dry_run: false });
    expect(response.status).toBe(500);
    expect(logged).toHaveBeenCalledWith(expect.objectContaining({ message: 'disk full' }));
    logged.mockRestore();
    expect(await json<ScheduleEntry[]>(await server.api('/scheduler/'))).toEqual([]);
  });

  it('says why sections cannot be placed', async () => {
    const haddad = await doctor({ name: 'Dr. Haddad', allowed_courses: ['CSC310', 'CSC311'], available_days: 'S', available_time: '20:00-21:00' });
    await doctor({ name: 'Dr. Nassar', allowed_courses: ['CSC320'] });
    await doctor({ name: 'Dr. Aoun', allowed_courses: ['CSC320', 'MTH101'] });
    await room('Small', 40, 'Beirut');
    await room('Byblos Hall', 300, 'Byblos');
    expect(haddad.id).toBeGreaterThan(0);
    const runId = await saveRun(server.core.context.db, 'Beirut', [
      { code: 'BIF524', enrollment: 20, sections: 1 },
      { code: 'MTH101', enrollment: 80, sections: 1 },
      { code: 'CSC310', enrollment: 20, sections: 1 },
      { code: 'CSC320', enrollment: 120, sections: 4 },
    ]);
    const result = await autoOk({ run_id: runId, max_sections_per_doctor: 1 });
    const reasons = Object.fromEntries(result.unplaced.map((u) => [`${u.course_code} ${u.section_name}`, u.reason]));
    expect(reasons['BIF524 1']).toBe('No instructor is allowed to teach BIF524');
    expect(reasons['MTH101 1']).toBe('No room at Beirut seats 80 students (the largest holds 40)');
    expect(reasons['CSC310 1']).toBe('Dr. Haddad, the only allowed instructor, is not available at any standard time');
    expect(result.placed.filter((e) => e.course_code === 'CSC320')).toHaveLength(2);
    expect(
      Object.entries(reasons)
        .filter(([k]) => k.startsWith('CSC320'))
        .map(([, v]) => v),
    ).toEqual([
      'Dr. Aoun and Dr. Nassar, the only allowed instructors, are fully booked (at most 1 section each)',
      'Dr. Aoun and Dr. Nassar, the only allowed instructors, are fully booked (at most 1 section each)',
    ]);
    expect(result.score.hard_violations).toBe(0);
  });

  it("chooses the instructors: an even load, the days an instructor already teaches, and the department's own weights", async () => {
    const a = await doctor({ name: 'Dr. A', allowed_courses: ['CSC201', 'CSC202'] });
    const b = await doctor({ name: 'Dr. B', allowed_courses: ['CSC201', 'CSC202'] });
    await room('R1', 40);
    await room('R2', 40);
    // Dr. A teaches on Tuesdays and Thursdays already.
    const existing = await server.api('/scheduler/', {
      method: 'POST',
      json: { course_code: 'CSC999', section_name: '1', doctor_id: a.id, day: 'TR', start_time: '08:00', duration_mins: 75, room: 'R1' },
    });
    expect(existing.status).toBe(200);
    const runId = await saveRun(server.core.context.db, 'Beirut', [{ code: 'CSC201', enrollment: 90, sections: 3 }]);
    const result = await autoOk({ run_id: runId });
    expect(result.unplaced).toEqual([]);
    const by = (id: number): ScheduleEntry[] => result.placed.filter((e) => e.doctor_id === id);
    // Three new sections over loads of 1 and 0: Dr. A one more (2² + 2² beats 1² + 3² and 3² + 1²)...
    expect(by(a.id)).toHaveLength(1);
    expect(by(b.id)).toHaveLength(2);
    // ...on the days Dr. A teaches already.
    expect(by(a.id)[0]?.day).toBe('TR');
    expect(result.score.soft.load_balance).toBe(8);
    // A department that cares for few teaching days above an even load says so in its profile.
    const weights = { teachingDays: 50, loadBalance: 0 };
    const saved = await server.api('/settings/profile', { method: 'PATCH', json: { autofill_weights: weights } });
    expect(saved.status, await saved.clone().text()).toBe(200);
    expect(await json(saved)).toMatchObject({ autofill_weights: weights });
    const theirs = await autoOk({ run_id: runId });
    expect(theirs.placed.map((e) => [e.doctor_id, e.day])).toEqual([
      [a.id, 'TR'],
      [a.id, 'TR'],
      [a.id, 'TR'],
    ]);
    const bad = await server.api('/settings/profile', { method: 'PATCH', json: { autofill_weights: { teachingDays: -1 } } });
    expect(bad.status).toBe(422);
    expect((await server.api('/settings/profile', { method: 'PATCH', json: { autofill_weights: { noSuchGoal: 1 } } })).status).toBe(422);
  });

  it('uses a custom slot grid', async () => {
    await doctor({ name: 'Dr. A', allowed_courses: ['CSC201'] });
    await room('R', 40);
    const runId = await saveRun(server.core.context.db, 'Beirut', [{ code: 'CSC201', enrollment: 30, sections: 1 }]);
    const result = await autoOk({ run_id: runId, slots: [{ day: 'S', start_time: '10:00', duration_mins: 120 }] });
    expect(result.placed).toMatchObject([{ day: 'S', start_time: '10:00', duration_mins: 120 }]);
  });

  it('keeps the courses one cohort takes together apart, around what the timetable already holds (curriculum conflicts: 0)', async () => {
    const plan = 'Computer Science — Year 2, Fall';
    const catalog = ['CSC243', 'CSC245', 'CSC250', 'CSC260'].map((code) => ({ code, name: code, type: 'core', study_plan: plan }));
    expect((await server.upload('/data/upload/courses', 'courses.json', JSON.stringify(catalog))).status).toBe(200);
    for (let i = 0; i < 4; i++) await doctor({ name: `Dr. ${i}`, allowed_courses: ['CSC243', 'CSC245', 'CSC250'] });
    for (let i = 0; i < 4; i++) await room(`Hall ${i}`, 40);
    const existing = await server.api('/scheduler/', {
      method: 'POST',
      json: {
        year: 2025,
        semester: 'Fall',
        course_code: 'CSC260',
        section_name: '1',
        doctor_id: 0,
        day: 'TR',
        start_time: '11:00',
        duration_mins: 75,
        room: 'Annex',
      },
    });
    expect(existing.status).toBe(200);
    const runId = await saveRun(
      server.core.context.db,
      'Beirut',
      ['CSC243', 'CSC245', 'CSC250'].map((code) => ({ code, enrollment: 30, sections: 1 })),
    );
    const slots = [
      { day: 'MWF', start_time: '09:00', duration_mins: 50 },
      { day: 'MWF', start_time: '09:30', duration_mins: 50 },
      { day: 'TR', start_time: '11:00', duration_mins: 75 },
      { day: 'TR', start_time: '09:00', duration_mins: 75 },
      { day: 'MWF', start_time: '13:00', duration_mins: 50 },
    ];
    const result = await autoOk({ run_id: runId, slots, year: 2025, semester: 'Fall', dry_run: false });
    expect(result.placed).toHaveLength(3);
    expect(result.score.soft).toMatchObject({ curriculum_clashes: 0, core_clashes: 0 });
    const meetings = [...result.placed, { day: 'TR', start_time: '11:00', duration_mins: 75 }];
    for (const [i, a] of meetings.entries())
      for (const b of meetings.slice(i + 1)) {
        const sharedDay = [...a.day].some((d) => b.day.includes(d));
        const overlap = minutes(a.start_time) < minutes(b.start_time) + b.duration_mins && minutes(b.start_time) < minutes(a.start_time) + a.duration_mins;
        expect(sharedDay && overlap, `${JSON.stringify(a)} overlaps ${JSON.stringify(b)}`).toBe(false);
      }
    const metrics = await json<{ curriculum_conflicts: number }>(await server.api('/dashboard/metrics'));
    expect(metrics.curriculum_conflicts).toBe(0);
  });

  it('validates its input', async () => {
    expect((await auto({})).status).toBe(422);
    expect((await auto({ run_id: 99 })).status).toBe(404);
    expect((await auto({ run_id: 1, slots: [{ day: 'X', start_time: '10:00', duration_mins: 60 }] })).status).toBe(422);
    expect((await auto({ run_id: 1, max_sections_per_doctor: 0 })).status).toBe(422);
    expect((await auto({ run_id: 1, dry_run: 'no' })).status).toBe(422);
  });
});
