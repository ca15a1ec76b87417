import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { json, startTestServer, type TestServer } from '../helpers/server';
import type { ScheduleEntry } from '../../core/timetable/schema';

/**
 * A campus on one server: departments keep their own data, share the room pool and their
 * instructors' one calendar. Here as the registrar (the server's own token), who names the
 * department a request acts in with the X-Termwise-Department header or ?department=. Each test
 * starts a server of its own with the two departments.
 */
let server: TestServer;
let ece: number;
let phys: number;

const inDepartment = (department: number | string, path: string, init: RequestInit & { json?: unknown } = {}): Promise<Response> =>
  server.api(path, { ...init, headers: { ...(init.headers as Record<string, string> | undefined), 'x-termwise-department': String(department) } });

const upload = (department: number, path: string, filename: string, content: string): Promise<Response> => {
  const form = new FormData();
  form.append('file', new Blob([content]), filename);
  return inDepartment(department, path, { method: 'POST', body: form });
};

const book = (department: number, body: Record<string, unknown>): Promise<Response> =>
  inDepartment(department, '/scheduler/', {
    method: 'POST',
    json: { year: 2026, semester: 'Fall', day: 'MW', start_time: '10:00', duration_mins: 75, ...body },
  });

const detail = async (response: Response): Promise<string> => (await json<{ detail: string }>(response)).detail;

beforeEach(async () => {
  server = await startTestServer();
  ece = (await json<{ id: number }>(await server.api('/departments', { method: 'POST', json: { code: 'ECE', name: 'Electrical Engineering' } }))).id;
  phys = (await json<{ id: number }>(await server.api('/departments', { method: 'POST', json: { code: 'PHYS', name: 'Physics', campuses: ['Beirut'] } }))).id;
});

afterEach(async () => {
  await server.close();
});

describe('departments', () => {
  it('are listed, each with its code, name and campuses; a code is unique and a campus must be the server’s', async () => {
    const list = await json<{ id: number; code: string; name: string; campuses: string[] | null }[]>(await server.api('/departments'));
    expect(list.map((d) => d.code)).toEqual(
      ['main', 'ECE', 'PHYS']
        .filter((c) => list.some((d) => d.code === c))
        .sort((a, b) => list.findIndex((d) => d.code === a) - list.findIndex((d) => d.code === b)),
    );
    expect(list.find((d) => d.id === phys)).toMatchObject({ code: 'PHYS', name: 'Physics', campuses: ['Beirut'] });
    expect((await server.api('/departments', { method: 'POST', json: { code: 'ece', name: 'Again' } })).status).toBe(400);
    const badCampus = await server.api('/departments', { method: 'POST', json: { code: 'MATH', name: 'Mathematics', campuses: ['Tripoli'] } });
    expect(badCampus.status).toBe(422);
    // A department plans for its campuses only.
    expect(await json(await inDepartment(phys, '/campuses'))).toEqual(['Beirut']);
    expect(await json(await inDepartment(ece, '/campuses'))).toEqual(['Beirut', 'Byblos']);
    expect((await inDepartment('NOPE', '/campuses')).status).toBe(404);
  });

  it('keep their own catalog, history and timetable: nothing of one shows in another', async () => {
    expect((await upload(ece, '/data/upload/courses', 'c.json', JSON.stringify([{ code: 'ECE210', name: 'Circuits', type: 'core' }]))).status).toBe(200);
    expect((await upload(phys, '/data/upload/courses', 'c.json', JSON.stringify([{ code: 'PHYS211', name: 'Mechanics', type: 'core' }]))).status).toBe(200);
    const offerings = ['course_code,year,semester,campus,total_enrolled,passed_count,failed_count,is_offered', 'ECE210,2025,Fall,Beirut,80,70,10,true'].join(
      '\n',
    );
    expect((await upload(ece, '/data/upload/offerings', 'o.csv', offerings)).status).toBe(200);
    expect((await json<{ code: string }[]>(await inDepartment(ece, '/data/courses'))).map((c) => c.code)).toEqual(['ECE210']);
    expect((await json<{ code: string }[]>(await inDepartment(phys, '/data/courses'))).map((c) => c.code)).toEqual(['PHYS211']);
    expect(await json(await inDepartment(phys, '/data/offerings'))).toEqual([]);
    expect(await json<unknown[]>(await inDepartment(ece, '/data/offerings'))).toHaveLength(1);
    // The same query parameter names the department too.
    expect((await json<{ code: string }[]>(await server.api(`/data/courses?department=${phys}`))).map((c) => c.code)).toEqual(['PHYS211']);
    // The first department (a laptop's) is the default, and holds none of theirs.
    expect(await json(await server.api('/data/courses'))).toEqual([]);
  });

  it('share an instructor who teaches for both: one calendar, a meeting in one blocks them in the other', async () => {
    expect((await upload(ece, '/data/upload/doctors', 'd.csv', 'name,allowed_courses\nDr. Shared,ECE210\n')).status).toBe(200);
    expect((await upload(phys, '/data/upload/doctors', 'd.csv', 'name,allowed_courses\nDr. Shared,PHYS211\n')).status).toBe(200);
    const inEce = await json<{ id: number; allowed_courses: string }[]>(await inDepartment(ece, '/scheduler/doctors'));
    const inPhys = await json<{ id: number; allowed_courses: string }[]>(await inDepartment(phys, '/scheduler/doctors'));
    expect(inEce).toHaveLength(1);
    expect(inPhys[0]?.id).toBe(inEce[0]?.id);
    // Each department lists the courses they may teach there.
    expect(JSON.parse(inEce[0]?.allowed_courses ?? '[]')).toEqual(['ECE210']);
    expect(JSON.parse(inPhys[0]?.allowed_courses ?? '[]')).toEqual(['PHYS211']);
    const doctor = inEce[0]?.id as number;
    const first = await book(ece, { course_code: 'ECE210', section_name: 'A', doctor_id: doctor, room: 'ECE 101' });
    expect(first.status, await first.clone().text()).toBe(200);
    const clash = await book(phys, { course_code: 'PHYS211', section_name: '1', doctor_id: doctor, room: 'PHYS 5' });
    expect(clash.status).toBe(400);
    // The registrar may read both departments: the refusal names the other department's section.
    expect(await detail(clash)).toMatch(/^Dr\. Shared already teaches ECE210 section A of Electrical Engineering on Monday and Wednesday 10:00-11:15/);
    // Physics' campus week shows the shared instructor taken then: named to the registrar, not to Physics' scheduler.
    const week = (answer: Response) => json<{ instructors: { doctor_id: number; day: string; start_time: string; end_time: string; label: string }[] }>(answer);
    expect((await week(await inDepartment(phys, '/scheduler/campus?year=2026&semester=Fall'))).instructors).toEqual([
      { doctor_id: doctor, day: 'MW', start_time: '10:00', end_time: '11:15', label: 'ECE210 A (Electrical Engineering)' },
    ]);
    const password = 'physics scheduler password';
    await server.api('/people', { method: 'POST', json: { login: 'phys-sched', name: 'Phys Sched', role: 'scheduler', department_id: phys, password } });
    const token = await json<{ token: string }>(
      await fetch(`${server.url}/session/token`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ login: 'phys-sched', password, label: 'week' }),
      }),
    );
    const theirs = await week(await fetch(`${server.url}/scheduler/campus?year=2026&semester=Fall`, { headers: { authorization: `Bearer ${token.token}` } }));
    expect(theirs.instructors).toEqual([{ doctor_id: doctor, day: 'MW', start_time: '10:00', end_time: '11:15', label: 'Teaches for another department' }]);
    // A department can assign only the instructors it lists.
    expect((await upload(ece, '/data/upload/doctors', 'd.csv', 'name,allowed_courses\nDr. Only Ece,ECE210\n')).status).toBe(200);
    const onlyEce = (await json<{ id: number; name: string }[]>(await inDepartment(ece, '/scheduler/doctors'))).find((d) => d.name === 'Dr. Only Ece')
      ?.id as number;
    const notListed = await book(phys, { course_code: 'PHYS211', section_name: '2', doctor_id: onlyEce, start_time: '15:00', room: 'PHYS 5' });
    expect(notListed.status).toBe(400);
    expect(await detail(notListed)).toMatch(/No doctor with id/);
  });

  it('share the room pool: a booking in one department blocks the room and slot in every other', async () => {
    expect((await server.api('/scheduler/rooms', { method: 'POST', json: { name: 'Pool Hall', capacity: 120, campus: 'Beirut' } })).status).toBe(200);
    const mine = await book(ece, { course_code: 'ECE210', section_name: 'B', start_time: '13:00', room: 'Pool Hall' });
    expect(mine.status, await mine.clone().text()).toBe(200);
    const theirs = await book(phys, { course_code: 'PHYS211', section_name: '3', start_time: '13:30', room: 'pool hall' });
    expect(theirs.status).toBe(400);
    expect(await detail(theirs)).toMatch(/^Room pool hall is already booked by ECE210 section B of Electrical Engineering on Monday and Wednesday 13:00-14:15/);
    // A section of the same name in another department is another section.
    const sameName = await book(phys, { course_code: 'ECE210', section_name: 'B', start_time: '13:00', room: 'PHYS 6' });
    expect(sameName.status, await sameName.clone().text()).toBe(200);
  });

  it('book one shared room at the same moment: exactly one wins, the other is refused in words', async () => {
    expect((await server.api('/scheduler/rooms', { method: 'POST', json: { name: 'Race Hall', capacity: 80, campus: 'Beirut' } })).status).toBe(200);
    for (let round = 0; round < 5; round += 1) {
      const start = `${String(8 + round).padStart(2, '0')}:00`;
      const [a, b] = await Promise.all([
        book(ece, {
          year: 2027,
          semester: 'Spring',
          course_code: 'ECE210',
          section_name: `R${round}`,
          day: 'F',
          start_time: start,
          duration_mins: 50,
          room: 'Race Hall',
        }),
        book(phys, {
          year: 2027,
          semester: 'Spring',
          course_code: 'PHYS211',
          section_name: `R${round}`,
          day: 'F',
          start_time: start,
          duration_mins: 50,
          room: 'Race Hall',
        }),
      ]);
      expect([a.status, b.status].sort()).toEqual([200, 400]);
      const loser = a.status === 400 ? a : b;
      expect(await detail(loser)).toMatch(/^Room Race Hall is already booked by (ECE210|PHYS211) section R\d of (Electrical Engineering|Physics) on Friday/);
    }
    const week = await json<{ bookings: { room: string; department: string }[] }>(
      await server.api('/scheduler/campus?year=2027&semester=Spring&room=Race%20Hall'),
    );
    expect(week.bookings).toHaveLength(5);
  });

  it('show the campus week of the shared rooms with every department’s meetings', async () => {
    for (const name of ['Pool Hall', 'Race Hall'])
      expect((await server.api('/scheduler/rooms', { method: 'POST', json: { name, capacity: 80, campus: 'Beirut' } })).status).toBe(200);
    expect((await book(ece, { course_code: 'ECE210', section_name: 'B', start_time: '13:00', room: 'Pool Hall' })).status).toBe(200);
    const week = await json<{
      term: { year: number };
      rooms: { name: string; department: string | null }[];
      bookings: { room: string; department: string | null; course_code: string | null; label: string; start_time: string; end_time: string }[];
    }>(await inDepartment(phys, '/scheduler/campus?year=2026&semester=Fall&room=Pool%20Hall'));
    expect(week.rooms.map((r) => r.name)).toEqual(['Pool Hall']);
    // The registrar reads every department: each meeting named with its department.
    expect(week.bookings).toEqual([
      expect.objectContaining({
        room: 'Pool Hall',
        department: 'ECE',
        course_code: 'ECE210',
        start_time: '13:00',
        end_time: '14:15',
        label: 'ECE210 B (Electrical Engineering)',
      }),
    ]);
    const all = await json<{ rooms: { name: string }[] }>(await server.api('/scheduler/campus?year=2026&semester=Fall'));
    expect(all.rooms.map((r) => r.name)).toEqual(expect.arrayContaining(['Pool Hall', 'Race Hall']));
    expect((await server.api('/scheduler/campus?year=2026&semester=Fall&room=Nowhere')).status).toBe(200);
  });

  it('keep a room that belongs to one department for it alone', async () => {
    const owned = await server.api('/scheduler/rooms', { method: 'POST', json: { name: 'ECE Lab', capacity: 24, campus: 'Beirut', department_id: ece } });
    expect(owned.status, await owned.clone().text()).toBe(200);
    expect(await json(owned)).toMatchObject({ name: 'ECE Lab', department_id: ece });
    expect((await json<{ name: string }[]>(await inDepartment(phys, '/scheduler/rooms'))).map((r) => r.name)).not.toContain('ECE Lab');
    expect((await json<{ name: string }[]>(await inDepartment(ece, '/scheduler/rooms'))).map((r) => r.name)).toContain('ECE Lab');
    const refused = await book(phys, { course_code: 'PHYS211', section_name: '4', start_time: '16:00', room: 'ECE Lab' });
    expect(refused.status).toBe(400);
    expect(await detail(refused)).toMatch(/^Room ECE Lab belongs to another department/);
    expect((await book(ece, { course_code: 'ECE210', section_name: 'C', start_time: '16:00', room: 'ECE Lab' })).status).toBe(200);
  });

  it('keep their timetables apart: each lists its own meetings, and a meeting of one is not found through another', async () => {
    for (const [section, start] of [
      ['A', '08:00'],
      ['B', '13:00'],
      ['C', '16:00'],
    ] as const)
      expect((await book(ece, { course_code: 'ECE210', section_name: section, start_time: start, room: `ECE ${section}` })).status).toBe(200);
    expect((await book(phys, { course_code: 'ECE210', section_name: 'B', start_time: '13:00', room: 'PHYS 6' })).status).toBe(200);
    const eceEntries = await json<ScheduleEntry[]>(await inDepartment(ece, '/scheduler/?year=2026&semester=Fall'));
    const physEntries = await json<ScheduleEntry[]>(await inDepartment(phys, '/scheduler/?year=2026&semester=Fall'));
    expect(eceEntries.map((e) => `${e.course_code} ${e.section_name}`).sort()).toEqual(['ECE210 A', 'ECE210 B', 'ECE210 C']);
    expect(physEntries.map((e) => `${e.course_code} ${e.section_name}`)).toEqual(['ECE210 B']);
    const eceId = eceEntries[0]?.id as number;
    expect((await inDepartment(phys, `/scheduler/${eceId}`, { method: 'PATCH', json: { start_time: '08:00' } })).status).toBe(404);
    expect((await inDepartment(phys, `/scheduler/${eceId}`, { method: 'DELETE' })).status).toBe(404);
    expect(await json<ScheduleEntry[]>(await inDepartment(ece, '/scheduler/?year=2026&semester=Fall'))).toHaveLength(3);
  });
});
