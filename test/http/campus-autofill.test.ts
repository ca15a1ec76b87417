import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { json, startTestServer, type TestServer } from '../helpers/server';
import type { ScheduleEntry } from '../../core/timetable/schema';
import type { TermChange } from '../../core/domain/meeting-changes';

/**
 * The registrar's auto-fill of the whole campus (POST /scheduler/auto/campus): every named
 * department's meetings in one search over the shared rooms and instructors; each department reads
 * its own part of the draft; the registrar applies it, all or nothing, recorded in each department's
 * history. Through REST, as the registrar and each department's scheduler use it, on both stores.
 */

const TERM = { year: 2031, semester: 'Fall' } as const;
const CODES = ['CA1', 'CA2', 'CA3'] as const;
type Code = (typeof CODES)[number];

let server: TestServer;
const ids: Record<string, number> = {};
const tokens: Record<string, string> = {};

interface CampusAnswer {
  draft_id: string | null;
  departments: { code: string; placed: number; unplaced: number; moved: number; locked: number; summary: string }[];
  moved: { id: number; department: string; course_code: string; section_name: string; day: string; start_time: string; room: string }[];
  unplaced: { id: number; department: string; reason: string }[];
  hard_violations: number;
  stored: number;
}

const as = (code: Code | 'registrar', path: string, init: { method?: string; json?: unknown; department?: Code } = {}): Promise<Response> => {
  const headers: Record<string, string> = {};
  if (init.json !== undefined) headers['content-type'] = 'application/json';
  if (code !== 'registrar')
    return fetch(`${server.url}${path}`, {
      method: init.method ?? 'GET',
      headers: { ...headers, authorization: `Bearer ${tokens[code] ?? ''}` },
      body: JSON.stringify(init.json),
    });
  if (init.department !== undefined) headers['x-termwise-department'] = init.department;
  return server.api(path, { method: init.method ?? 'GET', headers, ...(init.json === undefined ? {} : { body: JSON.stringify(init.json) }) });
};

async function scheduler(code: Code): Promise<string> {
  const login = `campus-${code.toLowerCase()}`;
  const password = `${login} long password`;
  const made = await server.api('/people', { method: 'POST', json: { login, name: login, role: 'scheduler', department_id: ids[code], password } });
  expect(made.status, await made.clone().text()).toBe(200);
  const answer = await fetch(`${server.url}/session/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ login, password, label: 'campus' }),
  });
  return (await json<{ token: string }>(answer)).token;
}

async function doctors(code: Code, rows: string[]): Promise<Map<string, number>> {
  const form = new FormData();
  form.append('file', new Blob([['name,allowed_courses,days,start,end', ...rows].join('\n')]), 'doctors.csv');
  const upload = await server.api('/data/upload/doctors', { method: 'POST', body: form, headers: { 'x-termwise-department': code } });
  expect(upload.status, await upload.clone().text()).toBe(200);
  const listed = await json<{ id: number; name: string }[]>(await as('registrar', '/scheduler/doctors', { department: code }));
  return new Map(listed.map((d) => [d.name, d.id]));
}

async function meeting(code: Code, body: Record<string, unknown>): Promise<ScheduleEntry> {
  const made = await as('registrar', '/scheduler/', { method: 'POST', department: code, json: { ...TERM, duration_mins: 50, ...body } });
  expect(made.status, await made.clone().text()).toBe(200);
  return json<ScheduleEntry>(made);
}

const entries = async (code: Code): Promise<ScheduleEntry[]> =>
  json<ScheduleEntry[]>(await as('registrar', `/scheduler/?year=${TERM.year}&semester=${TERM.semester}`, { department: code }));
const campus = async (body: Record<string, unknown>): Promise<Response> =>
  as('registrar', '/scheduler/auto/campus', { method: 'POST', json: { ...TERM, seed: 1, time_budget_ms: 10_000, ...body } });
const place = (e: Pick<ScheduleEntry, 'day' | 'start_time' | 'duration_mins' | 'room'>): string => `${e.day} ${e.start_time} ${e.duration_mins} ${e.room}`;
const minutes = (t: string): number => Number(t.slice(0, 2)) * 60 + Number(t.slice(3));
const overlap = (a: ScheduleEntry, b: ScheduleEntry): boolean =>
  [...a.day].some((d) => b.day.includes(d)) &&
  minutes(a.start_time) < minutes(b.start_time) + b.duration_mins &&
  minutes(b.start_time) < minutes(a.start_time) + a.duration_mins;

let shared: Map<string, number>;
let locked: ScheduleEntry;
let notNamed: ScheduleEntry;

beforeAll(async () => {
  server = await startTestServer();
  for (const code of CODES) {
    ids[code] = (await json<{ id: number }>(await server.api('/departments', { method: 'POST', json: { code, name: `Department ${code}` } }))).id;
    tokens[code] = await scheduler(code);
  }
  // One pool room, wanted by every department; a shared instructor free three hours on two days.
  expect((await server.api('/scheduler/rooms', { method: 'POST', json: { name: 'Campus Hall', capacity: 40 } })).status).toBe(200);
  expect((await server.api('/scheduler/rooms', { method: 'POST', json: { name: 'Second Hall', capacity: 40 } })).status).toBe(200);
  shared = await doctors('CA1', ['Dr. Shared,AAA101,MW,09:00,12:00', 'Dr. One,AAA102,MW,09:00,12:00', 'Dr. Two,AAA103,MTWR,08:00,17:00']);
  const inCa2 = await doctors('CA2', ['Dr. Shared,BBB201,MW,09:00,12:00', 'Dr. Three,BBB202,MTWR,08:00,17:00']);
  expect(inCa2.get('Dr. Shared')).toBe(shared.get('Dr. Shared'));
  await meeting('CA1', { course_code: 'AAA101', section_name: '1', doctor_id: shared.get('Dr. Shared'), day: 'MW', start_time: '09:00', room: 'Campus Hall' });
  locked = await meeting('CA1', {
    course_code: 'AAA102',
    section_name: '1',
    doctor_id: shared.get('Dr. One'),
    day: 'MW',
    start_time: '10:00',
    room: 'Campus Hall',
  });
  expect((await as('registrar', `/scheduler/${locked.id}`, { method: 'PATCH', department: 'CA1', json: { locked: true } })).status).toBe(200);
  // Two sections of one course at one hour: a rebuild sets them apart.
  await meeting('CA1', { course_code: 'AAA103', section_name: '1', doctor_id: shared.get('Dr. Two'), day: 'TR', start_time: '09:00', room: 'Campus Hall' });
  await meeting('CA1', { course_code: 'AAA103', section_name: '2', doctor_id: shared.get('Dr. Two'), day: 'TR', start_time: '10:00', room: 'Campus Hall' });
  await meeting('CA2', { course_code: 'BBB201', section_name: '1', doctor_id: inCa2.get('Dr. Shared'), day: 'MW', start_time: '11:00', room: 'Campus Hall' });
  await meeting('CA2', { course_code: 'BBB202', section_name: '1', doctor_id: inCa2.get('Dr. Three'), day: 'TR', start_time: '11:00', room: 'Campus Hall' });
  await meeting('CA2', { course_code: 'BBB202', section_name: '2', doctor_id: inCa2.get('Dr. Three'), day: 'TR', start_time: '12:00', room: 'Campus Hall' });
  notNamed = await meeting('CA3', { course_code: 'CCC301', section_name: '1', day: 'TR', start_time: '13:00', room: 'Campus Hall' });
}, 60_000);

afterAll(async () => {
  await server.close();
});

describe('POST /scheduler/auto/campus', () => {
  it("is the registrar's: a scheduler gets 403, an unknown department is refused in words", async () => {
    const refused = await as('CA1', '/scheduler/auto/campus', { method: 'POST', json: { ...TERM } });
    expect(refused.status).toBe(403);
    const unknown = await campus({ departments: ['CA1', 'NOPE'] });
    expect(unknown.status).toBe(422);
    expect((await json<{ detail: string }>(unknown)).detail).toMatch(/"NOPE" is not a department/);
  });

  it('rebuilds the named departments in one search: every meeting placed, no clash in the shared room or for the shared instructor; locked meetings and departments not named stay', async () => {
    const before = new Map([...(await entries('CA1')), ...(await entries('CA2')), ...(await entries('CA3'))].map((e) => [e.id, e]));
    const revisionOf = async (code: 'CA1' | 'CA2'): Promise<number> =>
      (await json<{ revision: number }>(await as(code, `/scheduler/revision?year=${TERM.year}&semester=${TERM.semester}`))).revision;
    const revisions = { CA1: await revisionOf('CA1'), CA2: await revisionOf('CA2') };
    const response = await campus({ rebuild: true, departments: ['CA1', 'CA2'], dry_run: false });
    expect(response.status, await response.clone().text()).toBe(200);
    const answer = await json<CampusAnswer>(response);
    expect(answer.draft_id).toBeNull();
    expect(answer.unplaced).toEqual([]);
    expect(answer.departments.map((d) => d.code)).toEqual(['CA1', 'CA2']);
    expect(answer.departments.find((d) => d.code === 'CA1')).toMatchObject({ placed: 4, unplaced: 0, locked: 1 });
    expect(answer.moved.every((m) => m.id !== locked.id && m.id !== notNamed.id)).toBe(true);
    const after = [...(await entries('CA1')), ...(await entries('CA2')), ...(await entries('CA3'))];
    expect(after).toHaveLength(before.size);
    // No two meetings in one room at once, nor of one instructor, across departments.
    for (const [x, a] of after.entries())
      for (const b of after.slice(x + 1)) {
        if (!overlap(a, b)) continue;
        expect(a.room === b.room, `${a.course_code} and ${b.course_code} in ${a.room}`).toBe(false);
        expect(
          a.doctor_ids.some((id) => b.doctor_ids.includes(id)),
          `${a.course_code} and ${b.course_code} share an instructor`,
        ).toBe(false);
      }
    const now = new Map(after.map((e) => [e.id, e]));
    expect(place(now.get(locked.id) as ScheduleEntry)).toBe(place(before.get(locked.id) as ScheduleEntry));
    expect(place(now.get(notNamed.id) as ScheduleEntry)).toBe(place(before.get(notNamed.id) as ScheduleEntry));
    // The shared instructor keeps their hours in both departments.
    for (const e of after.filter((m) => m.doctor_ids.includes(shared.get('Dr. Shared') ?? 0))) {
      expect(e.day).toBe('MW');
      expect(minutes(e.start_time)).toBeGreaterThanOrEqual(9 * 60);
      expect(minutes(e.start_time) + e.duration_mins).toBeLessThanOrEqual(12 * 60);
    }
    // Each department's part is one batch of its own history, named as the registrar's campus auto-fill.
    for (const code of ['CA1', 'CA2'] as const) {
      const history = await json<{ changes: TermChange[] }>(
        await as(code, `/scheduler/history?year=${TERM.year}&semester=${TERM.semester}&since_revision=${revisions[code]}`),
      );
      const mine = history.changes.filter((c) => c.operation === 'campus-autofill');
      const moved = answer.moved.filter((m) => m.department === code).length;
      expect(mine).toHaveLength(moved);
      expect(new Set(mine.map((c) => c.batch)).size).toBe(moved > 0 ? 1 : 0);
      for (const c of mine) expect(c.summary).toMatch(/by the registrar's campus auto-fill$/);
    }
    expect(answer.moved.length).toBeGreaterThan(0);
  });

  it('lets each department read only its own part of a draft; the registrar applies it whole or by department, all or nothing, once', async () => {
    const response = await campus({ rebuild: true, seed: 7 });
    expect(response.status, await response.clone().text()).toBe(200);
    const draft = await json<CampusAnswer>(response);
    expect(draft.draft_id).toEqual(expect.any(String));
    const id = draft.draft_id as string;
    const ca1Moves = draft.moved.filter((m) => m.department === 'CA1');
    expect(ca1Moves.length + draft.moved.filter((m) => m.department === 'CA2').length).toBeGreaterThan(0);

    // A department's scheduler sees its part only; a department with no meeting moved still has its (empty) part.
    const part = await json<{ source: string; result: CampusAnswer }>(await as('CA1', `/scheduler/auto/drafts/${id}`));
    expect(part.source).toBe('campus');
    expect(part.result.departments.map((d) => d.code)).toEqual(['CA1']);
    expect(part.result.moved.every((m) => m.department === 'CA1')).toBe(true);
    expect(part.result.moved).toHaveLength(ca1Moves.length);
    const full = await json<{ result: CampusAnswer }>(await as('registrar', `/scheduler/auto/drafts/${id}`));
    expect(full.result.departments.map((d) => d.code)).toEqual(['CA1', 'CA2', 'CA3']);
    // Only the registrar applies or stops it.
    expect((await as('CA1', `/scheduler/auto/${id}/apply`, { method: 'POST', json: {} })).status).toBe(403);
    expect((await as('CA1', `/scheduler/auto/drafts/${id}/cancel`, { method: 'POST' })).status).toBe(403);

    // The timetable changed since: nothing is stored, in any department.
    const stored = new Map([...(await entries('CA1')), ...(await entries('CA2'))].map((e) => [e.id, place(e)]));
    const ca3 = (await entries('CA3'))[0] as ScheduleEntry;
    expect((await as('registrar', `/scheduler/${ca3.id}`, { method: 'PATCH', department: 'CA3', json: { start_time: '14:00' } })).status).toBe(200);
    const stale = await as('registrar', `/scheduler/auto/${id}/apply`, { method: 'POST', json: {} });
    expect(stale.status, await stale.clone().text()).toBe(400);
    expect((await json<{ detail: string }>(stale)).detail).toMatch(/campus timetable has changed since this draft was made/);
    for (const e of [...(await entries('CA1')), ...(await entries('CA2'))]) expect(place(e)).toBe(stored.get(e.id));

    // A draft of one department, applied for it: only its meetings move, each as the draft said.
    const fresh = await json<CampusAnswer>(await campus({ rebuild: true, seed: 7, departments: ['CA2'] }));
    const freshId = fresh.draft_id as string;
    const onlyCa2 = await as('registrar', `/scheduler/auto/${freshId}/apply`, { method: 'POST', json: { departments: ['CA2'] } });
    expect(onlyCa2.status, await onlyCa2.clone().text()).toBe(200);
    for (const e of await entries('CA1')) expect(place(e)).toBe(stored.get(e.id));
    const ca2 = new Map((await entries('CA2')).map((e) => [e.id, e]));
    for (const m of fresh.moved) expect(`${ca2.get(m.id)?.day} ${ca2.get(m.id)?.start_time} ${ca2.get(m.id)?.room}`).toBe(`${m.day} ${m.start_time} ${m.room}`);
    // A department with no part in the draft cannot be chosen.
    const whole = await json<CampusAnswer>(await campus({ rebuild: true, seed: 3 }));
    const noPart = await as('registrar', `/scheduler/auto/${whole.draft_id ?? ''}/apply`, { method: 'POST', json: { departments: ['main'] } });
    expect(noPart.status).toBe(422);
    // The whole draft: every department's meetings as the draft said.
    expect((await as('registrar', `/scheduler/auto/${whole.draft_id ?? ''}/apply`, { method: 'POST', json: {} })).status).toBe(200);
    const all = new Map([...(await entries('CA1')), ...(await entries('CA2')), ...(await entries('CA3'))].map((e) => [e.id, e]));
    for (const m of whole.moved) expect(`${all.get(m.id)?.day} ${all.get(m.id)?.start_time} ${all.get(m.id)?.room}`).toBe(`${m.day} ${m.start_time} ${m.room}`);
    const again = await as('registrar', `/scheduler/auto/${freshId}/apply`, { method: 'POST', json: {} });
    expect(again.status).toBe(400);
    expect((await json<{ detail: string }>(again)).detail).toMatch(/applied already/);
  });

  it('leaves a meeting that finds no place and clashes where it is without a time, with its reason, and stores no clash', async () => {
    await doctors('CA3', ['Dr. Busy,CCC401,MW,09:00,10:30']);
    const listing = [
      'Course,Section,Days,Start Time,End Time,Room,Instructor',
      'CCC401,1,MW,09:00,09:50,Busy Room A,Dr. Busy',
      'CCC402,1,MW,09:30,10:20,Busy Room B,Dr. Busy',
    ];
    const form = new FormData();
    for (const [k, v] of Object.entries({ dry_run: 'false', conflicts: 'flag', year: String(TERM.year), semester: TERM.semester })) form.append(k, v);
    form.append('file', new Blob([listing.join('\n')]), 'busy.csv');
    const imported = await server.api('/scheduler/import', { method: 'POST', body: form, headers: { 'x-termwise-department': 'CA3' } });
    expect(imported.status, await imported.clone().text()).toBe(200);
    const clashing = (await entries('CA3')).filter((e) => e.course_code.startsWith('CCC40'));
    expect(clashing, await imported.clone().text()).toHaveLength(2);

    const response = await campus({ departments: ['CA3'], rebuild: true, dry_run: false });
    expect(response.status, await response.clone().text()).toBe(200);
    const answer = await json<CampusAnswer>(response);
    expect(answer.unplaced).toEqual([
      expect.objectContaining({ department: 'CA3', reason: expect.stringMatching(/it is left without a time: Dr\. Busy/) as string }),
    ]);
    expect(answer.departments[0]?.summary).toMatch(/^CA3: .*1 meeting left without a time/);
    const left = (await entries('CA3')).filter((e) => e.course_code.startsWith('CCC40'));
    expect(left).toHaveLength(1);
    const untimed = await json<{ course_code: string }[]>(await as('CA3', `/scheduler/unscheduled?year=${TERM.year}&semester=${TERM.semester}`));
    expect(untimed.map((u) => u.course_code)).toEqual([answer.unplaced[0]?.id === clashing[0]?.id ? 'CCC401' : 'CCC402']);
    const history = await json<{ changes: TermChange[] }>(await as('CA3', `/scheduler/history?year=${TERM.year}&semester=${TERM.semester}`));
    expect(history.changes.find((c) => c.operation === 'campus-autofill' && c.after?.day === '')?.summary).toMatch(/^took the time from CCC40[12]/);
  });

  it('drafts the campus in the background: followed, listed for each department with its own part, then applied; refused to a scheduler', async () => {
    expect((await as('CA1', '/scheduler/auto/campus/drafts', { method: 'POST', json: { ...TERM } })).status).toBe(403);
    const unknown = await as('registrar', '/scheduler/auto/campus/drafts', { method: 'POST', json: { ...TERM, departments: ['NOPE'] } });
    expect(unknown.status).toBe(422);
    const started = await as('registrar', '/scheduler/auto/campus/drafts', {
      method: 'POST',
      json: { ...TERM, rebuild: true, seed: 5, time_budget_ms: 10_000 },
    });
    expect(started.status, await started.clone().text()).toBe(200);
    const { draft_id: id, status } = await json<{ draft_id: string; status: string }>(started);
    expect(status).toBe('running');
    let state: { status: string; progress: { classes: number }; result: CampusAnswer | null };
    for (;;) {
      state = await json(await as('registrar', `/scheduler/auto/drafts/${id}`));
      if (state.status !== 'running') break;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    expect(state.status).toBe('done');
    expect(state.progress.classes).toBeGreaterThan(0);
    expect(state.result?.departments.map((d) => d.code)).toEqual(['CA1', 'CA2', 'CA3']);
    // A department reads its part of it, and it is listed for the department with its part only.
    const listed = await json<{ draft_id: string; departments: { code: string }[] }[]>(
      await as('CA2', `/scheduler/auto/campus/drafts?year=${TERM.year}&semester=${TERM.semester}`),
    );
    expect(listed.find((d) => d.draft_id === id)?.departments.map((d) => d.code)).toEqual(['CA2']);
    const applied = await as('registrar', `/scheduler/auto/${id}/apply`, { method: 'POST', json: {} });
    expect(applied.status, await applied.clone().text()).toBe(200);
    const all = new Map([...(await entries('CA1')), ...(await entries('CA2')), ...(await entries('CA3'))].map((e) => [e.id, e]));
    for (const m of state.result?.moved ?? []) expect(`${all.get(m.id)?.day} ${all.get(m.id)?.start_time}`).toBe(`${m.day} ${m.start_time}`);
    const after = await json<{ draft_id: string; applied: boolean }[]>(
      await as('CA2', `/scheduler/auto/campus/drafts?year=${TERM.year}&semester=${TERM.semester}`),
    );
    expect(after.find((d) => d.draft_id === id)?.applied).toBe(true);
  });

  it('races an apply against a booking in the same term: one waits for the other, and the campus never holds a clash (10 rounds)', async () => {
    const ca3 = (await entries('CA3')).find((e) => e.course_code === 'CCC301') as ScheduleEntry;
    const outcomes = { applied: 0, refused: 0 };
    for (let round = 0; round < 10; round++) {
      const draft = await json<CampusAnswer>(await campus({ rebuild: true, seed: 11 + round }));
      const start = `${String(8 + (round % 8)).padStart(2, '0')}:00`;
      const [applied, booked] = await Promise.all([
        as('registrar', `/scheduler/auto/${draft.draft_id ?? ''}/apply`, { method: 'POST', json: {} }),
        as('registrar', `/scheduler/${ca3.id}`, { method: 'PATCH', department: 'CA3', json: { day: 'TR', start_time: start, room: 'Campus Hall' } }),
      ]);
      expect([200, 400], await applied.clone().text()).toContain(applied.status);
      expect([200, 400], await booked.clone().text()).toContain(booked.status);
      if (applied.status === 200) outcomes.applied++;
      else outcomes.refused++;
      const all = [...(await entries('CA1')), ...(await entries('CA2')), ...(await entries('CA3'))];
      for (const [x, a] of all.entries())
        for (const b of all.slice(x + 1))
          if (overlap(a, b)) {
            expect(a.room === b.room && a.room !== 'TBD', `round ${round}: ${a.course_code} and ${b.course_code} in ${a.room}`).toBe(false);
            expect(
              a.doctor_ids.some((id) => b.doctor_ids.includes(id)),
              `round ${round}: ${a.course_code} and ${b.course_code} share an instructor`,
            ).toBe(false);
          }
    }
    console.log(`Campus draft applied ${outcomes.applied} of 10 rounds, refused as stale the others`);
  });

  it("hides a draft from a department with no part in it, and a department's draft from the campus view of others", async () => {
    const named = await json<CampusAnswer>(await campus({ departments: ['CA1'] }));
    const id = named.draft_id as string;
    expect((await as('CA2', `/scheduler/auto/drafts/${id}`)).status).toBe(404);
    expect((await as('CA1', `/scheduler/auto/drafts/${id}`)).status).toBe(200);
  });
});
