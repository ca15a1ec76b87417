import ExcelJS from 'exceljs';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startTestServer, json, type TestServer } from '../helpers/server';
import type { ScheduleEntry } from '../../core/timetable/schema';
import type { Doctor } from '../../core/faculty/schema';

let server: TestServer;
let rana: Doctor;
let karim: Doctor;

async function addDoctor(body: Record<string, unknown>): Promise<Doctor> {
  const response = await server.api('/scheduler/doctors', { method: 'POST', json: body });
  expect(response.status, await response.clone().text()).toBe(200);
  return json<Doctor>(response);
}

beforeEach(async () => {
  server = await startTestServer();
  await server.upload(
    '/data/upload/courses',
    'c.json',
    JSON.stringify([
      { code: 'CSC310', name: 'Algorithms' },
      { code: 'MTH201', name: 'Linear Algebra' },
      { code: 'CSC463/BIF463', name: 'Genomics' },
    ]),
  );
  rana = await addDoctor({ name: 'Dr. Rana Haddad', allowed_courses: '["CSC310","CSC463/BIF463"]', available_days: 'MWF', available_time: '08:00-14:00' });
  karim = await addDoctor({ name: 'Dr. Karim Nassar', allowed_courses: ['MTH201'] });
});
afterEach(async () => {
  await server.close();
});

const entry = (overrides: Record<string, unknown> = {}): Record<string, unknown> => ({
  course_code: 'CSC310',
  section_name: '1',
  doctor_id: rana.id,
  day: 'MW',
  start_time: '09:00',
  duration_mins: 60,
  room: 'Room 204',
  ...overrides,
});
const post = (body: Record<string, unknown>): Promise<Response> => server.api('/scheduler/', { method: 'POST', json: body });
const patch = (id: number, body: Record<string, unknown>): Promise<Response> => server.api(`/scheduler/${id}`, { method: 'PATCH', json: body });
const created = async (body: Record<string, unknown>): Promise<ScheduleEntry> => {
  const response = await post(body);
  expect(response.status, await response.clone().text()).toBe(200);
  return json<ScheduleEntry>(response);
};
const detail = async (response: Response): Promise<string> => (await json<{ detail: string }>(response)).detail;

describe('schedule entries', () => {
  it('creates an entry and returns it with its doctor embedded', async () => {
    const response = await post(entry());
    expect(response.status).toBe(200);
    // Later fields (term, instructors, part of term, joint group, campus) are additive: the contract's fields keep their values.
    expect(await json(response)).toMatchObject({
      id: expect.any(Number) as number,
      course_code: 'CSC310',
      section_name: '1',
      doctor_id: rana.id,
      day: 'MW',
      start_time: '09:00',
      duration_mins: 60,
      room: 'Room 204',
      doctor: { id: rana.id, name: 'Dr. Rana Haddad' },
      warnings: [],
    });
    const list = await json<ScheduleEntry[]>(await server.api('/scheduler/'));
    expect(list).toHaveLength(1);
    expect(list[0]?.doctor).toEqual({ id: rana.id, name: 'Dr. Rana Haddad' });
  });

  it('stores doctor_id 0 as unassigned and a missing room as TBD', async () => {
    const e = await created({ course_code: 'csc 310', section_name: 2, doctor_id: 0, day: 'tr', start_time: '09:30', duration_mins: 90 });
    expect(e).toMatchObject({ course_code: 'CSC310', section_name: '2', doctor_id: null, doctor: null, day: 'TR', room: 'TBD' });
  });

  it.each([
    ['day', { day: 'MX' }],
    ['day', { day: 'MM' }],
    ['day', { day: '' }],
    ['start_time', { start_time: '25:00' }],
    ['start_time', { start_time: '9am' }],
    ['duration_mins', { duration_mins: 4 }],
    ['duration_mins', { duration_mins: 601 }],
    ['duration_mins', { duration_mins: 60.5 }],
    ['duration_mins', { start_time: '23:30', duration_mins: 60 }],
    ['course_code', { course_code: '' }],
    ['section_name', { section_name: '  ' }],
    ['day', { day: undefined }],
  ])('answers 422 naming %s for %j', async (field, overrides) => {
    const response = await post(entry(overrides));
    expect(response.status).toBe(422);
    const body = await json<{ detail: string; fields: { field: string }[] }>(response);
    expect(body.detail).toContain(field);
    expect(body.fields.map((f) => f.field)).toContain(field);
  });

  it('answers 400 naming an unknown doctor id', async () => {
    const response = await post(entry({ doctor_id: 999 }));
    expect(response.status).toBe(400);
    expect(await detail(response)).toMatch(/No doctor with id 999/);
  });

  it('refuses sessions outside the doctor availability, by day and by time', async () => {
    const tuesday = await post(entry({ day: 'T' }));
    expect(tuesday.status).toBe(400);
    expect(await detail(tuesday)).toBe('Dr. Rana Haddad is not available on Tuesday (available MWF 08:00-14:00)');
    const late = await post(entry({ start_time: '13:30', duration_mins: 60 }));
    expect(await detail(late)).toBe('Dr. Rana Haddad is not available at 13:30-14:30 (available MWF 08:00-14:00)');
    const early = await post(entry({ start_time: '07:30' }));
    expect(early.status).toBe(400);
    const edge = await post(entry({ start_time: '13:00', duration_mins: 60 }));
    expect(edge.status).toBe(200);
  });

  it('treats a doctor without declared availability as always available', async () => {
    expect((await post(entry({ course_code: 'MTH201', doctor_id: karim.id, day: 'SU', start_time: '21:00' }))).status).toBe(200);
  });

  it('refuses double-booking a doctor and names the clashing section', async () => {
    await created(entry());
    const clash = await post(entry({ course_code: 'CSC463/BIF463', section_name: '1', room: 'Room 300', day: 'MWF', start_time: '09:30' }));
    expect(clash.status).toBe(400);
    expect(await detail(clash)).toBe('Dr. Rana Haddad already teaches CSC310 section 1 on Monday and Wednesday 09:00-10:00');
  });

  it('refuses double-booking a room, comparing rooms trimmed and case-insensitively', async () => {
    await created(entry({ course_code: 'MTH201', section_name: '2', doctor_id: karim.id, day: 'W', start_time: '09:15', room: 'Room 204 0503' }));
    const clash = await post(entry({ room: '  room 204 0503 ' }));
    expect(clash.status).toBe(400);
    expect(await detail(clash)).toBe('Room room 204 0503 is already booked by MTH201 section 2 on Wednesday 09:15-10:15');
  });

  it('reports every conflict at once', async () => {
    await created(entry());
    await created(entry({ course_code: 'MTH201', section_name: '1', doctor_id: karim.id, room: 'Room 101', day: 'T', start_time: '10:00' }));
    const response = await post(entry({ section_name: '2', day: 'MTW', start_time: '09:30', room: 'Room 101' }));
    expect(response.status).toBe(400);
    const body = await json<{ detail: string; conflicts: string[] }>(response);
    expect(body.conflicts).toEqual([
      'Dr. Rana Haddad is not available on Tuesday (available MWF 08:00-14:00)',
      'Dr. Rana Haddad already teaches CSC310 section 1 on Monday and Wednesday 09:00-10:00',
      'Room Room 101 is already booked by MTH201 section 1 on Tuesday 10:00-11:00',
    ]);
    expect(body.detail).toBe(body.conflicts.join('; '));
  });

  it('allows back-to-back sessions and sessions on other days', async () => {
    await created(entry());
    expect((await post(entry({ section_name: '2', start_time: '10:00' }))).status).toBe(200);
    expect((await post(entry({ section_name: '3', start_time: '08:00' }))).status).toBe(200);
    expect((await post(entry({ section_name: '4', day: 'F', start_time: '09:00' }))).status).toBe(200);
  });

  it('skips doctor checks for unassigned entries and the room check for TBD', async () => {
    await created(entry({ room: 'TBD' }));
    expect((await post(entry({ section_name: '2', doctor_id: 0, day: 'TR' }))).status).toBe(200);
    expect((await post(entry({ section_name: '3', doctor_id: 0, room: 'TBD' }))).status).toBe(200);
    expect((await post(entry({ section_name: '4', doctor_id: karim.id, course_code: 'MTH201', room: 'tbd' }))).status).toBe(200);
  });

  it('warns, without refusing, when the doctor is not listed for the course or the course is unknown', async () => {
    const e = await created(entry({ course_code: 'MTH201' }));
    expect(e.warnings).toEqual(['Dr. Rana Haddad is not listed to teach MTH201']);
    const unknown = await created(entry({ course_code: 'PHY101', doctor_id: karim.id, day: 'TR' }));
    expect(unknown.warnings).toEqual(['PHY101 is not in the course catalog', 'Dr. Karim Nassar is not listed to teach PHY101']);
    const cross = await created(entry({ course_code: 'CSC463', section_name: '9', day: 'F' }));
    expect(cross.warnings).toEqual(['CSC463 is not in the course catalog']);
  });
});

describe('PATCH /scheduler/{id}', () => {
  it('changes any subset of fields and re-checks the effective values', async () => {
    const e = await created(entry());
    const moved = await patch(e.id, { start_time: '10:00', room: 'Room 300' });
    expect(moved.status).toBe(200);
    expect(await json(moved)).toMatchObject({ id: e.id, start_time: '10:00', room: 'Room 300', day: 'MW', doctor_id: rana.id });
    const outside = await patch(e.id, { day: 'TR' });
    expect(outside.status).toBe(400);
    expect(await detail(outside)).toBe('Dr. Rana Haddad is not available on Tuesday and Thursday (available MWF 08:00-14:00)');
    const unassigned = await json<ScheduleEntry>(await patch(e.id, { doctor_id: 0, day: 'TR' }));
    expect(unassigned).toMatchObject({ doctor_id: null, doctor: null, day: 'TR' });
    const renamed = await json<ScheduleEntry>(await patch(e.id, { course_code: 'mth 201', section_name: 'B' }));
    expect(renamed).toMatchObject({ course_code: 'MTH201', section_name: 'B' });
  });

  it('excludes the entry itself from the checks', async () => {
    const e = await created(entry());
    expect((await patch(e.id, { start_time: '09:30' })).status).toBe(200);
    expect((await patch(e.id, { duration_mins: 120 })).status).toBe(200);
  });

  it('refuses a patch that creates a doctor or room clash', async () => {
    const a = await created(entry());
    const b = await created(entry({ section_name: '2', doctor_id: karim.id, course_code: 'MTH201', room: 'Room 101' }));
    const room = await patch(b.id, { room: 'ROOM 204' });
    expect(room.status).toBe(400);
    expect(await detail(room)).toBe('Room ROOM 204 is already booked by CSC310 section 1 on Monday and Wednesday 09:00-10:00');
    const doctor = await patch(b.id, { doctor_id: rana.id });
    expect(await detail(doctor)).toBe('Dr. Rana Haddad already teaches CSC310 section 1 on Monday and Wednesday 09:00-10:00');
    const list = await json<ScheduleEntry[]>(await server.api('/scheduler/'));
    expect(list.find((x) => x.id === b.id)).toMatchObject({ room: 'Room 101', doctor_id: karim.id });
    expect(list.find((x) => x.id === a.id)).toMatchObject({ room: 'Room 204' });
  });

  it('validates patched fields and the resulting end time', async () => {
    const e = await created(entry());
    expect((await patch(e.id, { day: 'XYZ' })).status).toBe(422);
    expect((await patch(e.id, { duration_mins: 2 })).status).toBe(422);
    const late = await patch(e.id, { start_time: '23:30', doctor_id: 0 });
    expect(late.status).toBe(422);
    expect(await detail(late)).toMatch(/duration_mins\): the session must end by 24:00/);
    expect((await patch(e.id, { doctor_id: 12345 })).status).toBe(400);
  });

  it('answers 404 for an unknown entry', async () => {
    const response = await patch(9999, { room: 'X' });
    expect(response.status).toBe(404);
    expect(await detail(response)).toMatch(/9999/);
  });
});

describe('DELETE /scheduler/{id}', () => {
  it('deletes, then answers 404', async () => {
    const e = await created(entry());
    const response = await server.api(`/scheduler/${e.id}`, { method: 'DELETE' });
    expect(response.status).toBe(200);
    expect(await json(response)).toEqual({ status: 'deleted' });
    expect((await server.api(`/scheduler/${e.id}`, { method: 'DELETE' })).status).toBe(404);
    expect(await json(await server.api('/scheduler/'))).toEqual([]);
  });
});

describe('concurrent bookings', () => {
  it('lets exactly one of 20 simultaneous bookings of one room and slot through', async () => {
    const responses = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        post({ course_code: 'MTH201', section_name: String(i + 1), doctor_id: 0, day: 'MWF', start_time: '11:00', duration_mins: 60, room: 'Hall A' }),
      ),
    );
    const statuses = responses.map((r) => r.status);
    expect(statuses.filter((s) => s === 200)).toHaveLength(1);
    expect(statuses.filter((s) => s === 400)).toHaveLength(19);
    expect(await json<ScheduleEntry[]>(await server.api('/scheduler/'))).toHaveLength(1);
  });
});

describe('GET /scheduler/export', () => {
  it('streams an XLSX named service_final_schedule.xlsx with the Final Schedule sheet', async () => {
    await created(entry({ course_code: 'MTH201', section_name: '10', doctor_id: karim.id, day: 'MWF', start_time: '08:00', duration_mins: 60, room: 'B 1' }));
    await created(entry({ course_code: 'MTH201', section_name: '2', doctor_id: 0, day: 'TR', start_time: '09:30', duration_mins: 90, room: 'TBD' }));
    await created(entry({ course_code: 'CSC310', section_name: '1', day: 'MW', start_time: '11:00', duration_mins: 60 }));
    await created(entry({ course_code: 'CSC310', section_name: '3', day: 'MWF', start_time: '12:00', duration_mins: 75, room: 'B 2' }));
    const response = await server.api('/scheduler/export');
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('application/vnd.openxmlformats-officedocument.spreadsheetml.sheet');
    expect(response.headers.get('content-disposition')).toBe('attachment; filename=service_final_schedule.xlsx');
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(await response.arrayBuffer());
    expect(workbook.worksheets.map((s) => s.name)).toEqual(['Final Schedule']);
    const sheet = workbook.getWorksheet('Final Schedule');
    const rows: unknown[][] = [];
    sheet?.eachRow((row) => rows.push((row.values as unknown[]).slice(1)));
    expect(rows).toEqual([
      ['Days Pattern', 'Course Code', 'Section Name', 'Instructor', 'Start Time', 'End Time', 'Room'],
      ['MW', 'CSC310', '1', 'Dr. Rana Haddad', '11:00', '12:00', 'Room 204'],
      ['MWF', 'CSC310', '3', 'Dr. Rana Haddad', '12:00', '13:15', 'B 2'],
      ['TR', 'MTH201', '2', '', '09:30', '10:45', 'TBD'],
      ['MWF', 'MTH201', '10', 'Dr. Karim Nassar', '08:00', '08:50', 'B 1'],
    ]);
    expect(sheet?.getRow(1).font?.bold).toBe(true);
    expect(sheet?.views[0]).toMatchObject({ state: 'frozen', ySplit: 1 });
    expect(sheet?.autoFilter).toBeTruthy();
  });
});

describe('doctors', () => {
  it('creates a doctor from the upload names days/start/end and refuses a duplicate name', async () => {
    const d = await addDoctor({ name: 'Dr. Maya Khoury', allowed_courses: 'CSC310, csc 201', days: 'TR', start: '09:30', end: '17:00' });
    expect(d).toEqual({
      id: expect.any(Number) as number,
      name: 'Dr. Maya Khoury',
      allowed_courses: '["CSC310","CSC201"]',
      available_days: 'TR',
      available_time: '09:30-17:00',
    });
    const dup = await server.api('/scheduler/doctors', { method: 'POST', json: { name: ' dr. maya khoury ' } });
    expect(dup.status).toBe(400);
    expect(await detail(dup)).toMatch(/already exists/);
    const list = await json<Doctor[]>(await server.api('/scheduler/doctors'));
    expect(list.map((x) => x.name)).toEqual(['Dr. Karim Nassar', 'Dr. Maya Khoury', 'Dr. Rana Haddad']);
  });

  it('answers 422 for an unreadable name, days or time range', async () => {
    for (const body of [
      { name: '' },
      { name: 'X', available_days: 'Funday' },
      { name: 'Y', available_time: '14:00-08:00' },
      { name: 'Z', allowed_courses: 42 },
    ]) {
      const response = await server.api('/scheduler/doctors', { method: 'POST', json: body });
      expect(response.status, JSON.stringify(body)).toBe(422);
    }
  });
});
