import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { json, startTestServer, type TestServer } from '../helpers/server';

/**
 * What one department may not change of what it shares with others: a shared instructor's hours, a
 * room of the campus pool, a room another department owns. Each is refused in words, the rest of
 * the upload stored. Through REST, as a department's scheduler (a personal token) sends them. The
 * departments and their schedulers are made once for the file; each test names rooms of its own.
 */
let server: TestServer;
const tokens: Record<string, string> = {};
const ids: Record<string, number> = {};

async function scheduler(login: string, department: number): Promise<string> {
  const password = `${login} long password`;
  expect((await server.api('/people', { method: 'POST', json: { login, name: login, role: 'scheduler', department_id: department, password } })).status).toBe(
    200,
  );
  const answer = await fetch(`${server.url}/session/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ login, password, label: 'uploads' }),
  });
  return (await json<{ token: string }>(answer)).token;
}

/** The rooms a department books (the pool's and its own), as the registrar reads them acting in it. */
const roomsOf = async (code: string): Promise<{ name: string; capacity: number | null; campus: string | null; department_id: number | null }[]> =>
  json(await server.api('/scheduler/rooms', { headers: { 'x-termwise-department': code } }));

const uploadAs = (who: string, path: string, name: string, content: string): Promise<Response> => {
  const form = new FormData();
  form.append('file', new Blob([content]), name);
  return fetch(`${server.url}${path}`, { method: 'POST', body: form, headers: { authorization: `Bearer ${tokens[who] ?? ''}` } });
};

beforeAll(async () => {
  server = await startTestServer();
  for (const code of ['SHA', 'SHB'])
    ids[code] = (await json<{ id: number }>(await server.api('/departments', { method: 'POST', json: { code, name: code } }))).id;
  tokens.a = await scheduler('sched-a', ids.SHA ?? 0);
  tokens.b = await scheduler('sched-b', ids.SHB ?? 0);
}, 60_000);

afterAll(async () => {
  await server.close();
});

describe('what a department shares', () => {
  it("keeps a shared instructor's hours when another department's upload gives others", async () => {
    expect(
      (await uploadAs('a', '/data/upload/doctors', 'doctors.csv', 'name,allowed_courses,days,start,end\nDr. Shared,CSC201,MTWRF,08:00,18:00\n')).status,
    ).toBe(200);
    const fromB = await uploadAs(
      'b',
      '/data/upload/doctors',
      'doctors.csv',
      'name,allowed_courses,days,start,end\nDr. Shared,PHY101,F,08:00,09:00\nDr. Own,PHY101,F,08:00,09:00\n',
    );
    expect(fromB.status).toBe(200);
    expect((await json<{ warnings: string[] }>(fromB)).warnings).toEqual([
      expect.stringMatching(/Dr\. Shared also teaches in another department: their hours are kept/),
    ]);
    const seen = await fetch(`${server.url}/scheduler/doctors`, { headers: { authorization: `Bearer ${tokens.b ?? ''}` } });
    const doctors = await json<{ name: string; available_days: string | null; available_time: string | null }[]>(seen);
    expect(doctors.find((d) => d.name === 'Dr. Shared')).toMatchObject({ available_days: 'MTWRF', available_time: '08:00-18:00' });
    expect(doctors.find((d) => d.name === 'Dr. Own')).toMatchObject({ available_days: 'F', available_time: '08:00-09:00' });
  });

  it("never lets a department's rooms upload change a pool room or another department's room, and stores the rest", async () => {
    expect((await server.api('/scheduler/rooms', { method: 'POST', json: { name: 'Pool Hall', capacity: 120, campus: 'Beirut' } })).status).toBe(200);
    expect((await uploadAs('a', '/data/upload/rooms', 'rooms.csv', 'name,capacity\nA Lab,30\n')).status).toBe(200);
    const fromB = await uploadAs('b', '/data/upload/rooms', 'rooms.csv', 'name,capacity,campus\nPool Hall,2,Byblos\nA Lab,3\nB Studio,25\n');
    expect(fromB.status).toBe(200);
    const warnings = (await json<{ warnings: string[] }>(fromB)).warnings;
    expect(warnings).toEqual([
      expect.stringMatching(/Room Pool Hall is a room of the campus pool: only the registrar changes it/),
      expect.stringMatching(/Room A Lab belongs to another department/),
    ]);
    expect((await roomsOf('SHB')).find((r) => r.name === 'Pool Hall')).toMatchObject({ capacity: 120, campus: 'Beirut', department_id: null });
    expect((await roomsOf('SHA')).find((r) => r.name === 'A Lab')).toMatchObject({ capacity: 30, department_id: ids.SHA });
    expect((await roomsOf('SHB')).find((r) => r.name === 'B Studio')).toMatchObject({ capacity: 25, department_id: ids.SHB });
  });

  it('refuses, in an import, a room another department owns, and gives the department the rooms its import creates', async () => {
    expect((await uploadAs('a', '/data/upload/rooms', 'rooms.csv', 'name,capacity\nA Import Lab,30\n')).status).toBe(200);
    const listing = ['Course,Section,Days,Start Time,End Time,Room', 'PHY101,1,MW,09:00,09:50,A Import Lab', 'PHY102,1,TR,09:00,09:50,B New Room'].join('\n');
    const form = new FormData();
    form.append('dry_run', 'false');
    form.append('year', '2027');
    form.append('semester', 'Spring');
    form.append('file', new Blob([listing]), 'listing.csv');
    const answer = await fetch(`${server.url}/scheduler/import`, { method: 'POST', body: form, headers: { authorization: `Bearer ${tokens.b ?? ''}` } });
    expect(answer.status, await answer.clone().text()).toBe(200);
    const result = await json<{ meetings: number; conflicts: { course_code: string; detail: string }[] }>(answer);
    expect(result.meetings).toBe(1);
    expect(result.conflicts).toEqual([
      expect.objectContaining({ course_code: 'PHY101', detail: expect.stringMatching(/Room A Import Lab belongs to another department/) as string }),
    ]);
    expect((await roomsOf('SHB')).find((r) => r.name === 'B New Room')?.department_id).toBe(ids.SHB);
  });

  it("lets a scheduler change their department's rooms only, and the registrar move a room between the pool and a department", async () => {
    const as = (who: string, path: string, init: { method: string; json: unknown }): Promise<Response> =>
      fetch(`${server.url}${path}`, {
        method: init.method,
        headers: { authorization: `Bearer ${tokens[who] ?? ''}`, 'content-type': 'application/json' },
        body: JSON.stringify(init.json),
      });
    const pool = await json<{ id: number }>(await server.api('/scheduler/rooms', { method: 'POST', json: { name: 'Edit Pool 1', capacity: 80 } }));
    const own = await json<{ id: number }>(await as('a', '/scheduler/rooms', { method: 'POST', json: { name: 'Edit Own A', capacity: 20 } }));
    // A's scheduler changes A's room; not the pool's, not into the pool, and B's scheduler cannot even find it.
    expect((await as('a', `/scheduler/rooms/${own.id}`, { method: 'PATCH', json: { capacity: 24 } })).status).toBe(200);
    const poolRefused = await as('a', `/scheduler/rooms/${pool.id}`, { method: 'PATCH', json: { capacity: 2 } });
    expect(poolRefused.status).toBe(403);
    expect((await json<{ detail: string }>(poolRefused)).detail).toMatch(/campus pool: only the registrar/);
    expect((await as('a', `/scheduler/rooms/${own.id}`, { method: 'PATCH', json: { department_id: null } })).status).toBe(403);
    expect((await as('b', `/scheduler/rooms/${own.id}`, { method: 'PATCH', json: { capacity: 1 } })).status).toBe(404);
    expect((await roomsOf('SHA')).find((r) => r.name === 'Edit Own A')?.capacity).toBe(24);
    expect((await roomsOf('SHA')).find((r) => r.name === 'Edit Pool 1')?.capacity).toBe(80);

    // The registrar moves the pool room to B while nobody else books it; not while A has a meeting in it.
    const booked = await as('a', '/scheduler/', {
      method: 'POST',
      json: { year: 2033, semester: 'Fall', course_code: 'SHA101', section_name: '1', day: 'M', start_time: '09:00', duration_mins: 50, room: 'Edit Pool 1' },
    });
    expect(booked.status, await booked.clone().text()).toBe(200);
    const refused = await server.api(`/scheduler/rooms/${pool.id}`, { method: 'PATCH', json: { department_id: ids.SHB } });
    expect(refused.status).toBe(400);
    expect((await json<{ detail: string }>(refused)).detail).toMatch(/1 meeting\(s\) of other departments/);
    expect((await roomsOf('SHB')).find((r) => r.name === 'Edit Pool 1')?.department_id).toBeNull();
    expect((await server.api(`/scheduler/rooms/${pool.id}`, { method: 'PATCH', json: { department_id: ids.SHA, campus: null } })).status).toBe(200);
    expect((await roomsOf('SHA')).find((r) => r.name === 'Edit Pool 1')?.department_id).toBe(ids.SHA);
    expect((await roomsOf('SHB')).find((r) => r.name === 'Edit Pool 1')).toBeUndefined();
  });
});
