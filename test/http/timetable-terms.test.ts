import ExcelJS from 'exceljs';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startTestServer, json, type TestServer } from '../helpers/server';
import { saveRun } from '../helpers/runs';
import type { ScheduleEntry } from '../../core/timetable/schema';
import type { Doctor } from '../../core/faculty/schema';
import type { PartOfTerm } from '../../core/domain/parts';

/**
 * The timetable as a real department keeps it (issue 11): one per term, sections with several
 * meetings and instructors, parts of term, joint sections and two campuses. Each kind of
 * legitimate co-existence is accepted next to a true clash of the same shape, which is refused.
 */
let server: TestServer;
let haddad: Doctor;
let nassar: Doctor;
const FALL_2025 = { year: 2025, semester: 'Fall' };
const SUMMER_2018 = { year: 2018, semester: 'Summer' };

async function addDoctor(name: string): Promise<Doctor> {
  const response = await server.api('/scheduler/doctors', { method: 'POST', json: { name } });
  expect(response.status, await response.clone().text()).toBe(200);
  return json<Doctor>(response);
}

beforeEach(async () => {
  server = await startTestServer();
  haddad = await addDoctor('Dr. Haddad');
  nassar = await addDoctor('Dr. Nassar');
  await setSettings({ current_term: FALL_2025 });
});
afterEach(async () => {
  await server.close();
});

const meeting = (overrides: Record<string, unknown> = {}): Record<string, unknown> => ({
  course_code: 'CSC374',
  section_name: '1',
  doctor_id: haddad.id,
  day: 'MW',
  start_time: '09:00',
  duration_mins: 60,
  room: 'Room 204',
  ...overrides,
});
/** The earlier instructor fields of an entry as read, to send back beside an edited `doctors`. */
const pickInstructorAliases = (e: ScheduleEntry) => ({ doctor_id: e.doctor_id, doctor_ids: e.doctor_ids, doctor_roles: e.doctor_roles });
const post = (body: Record<string, unknown>): Promise<Response> => server.api('/scheduler/', { method: 'POST', json: body });
const accepted = async (body: Record<string, unknown>): Promise<ScheduleEntry> => {
  const response = await post(body);
  expect(response.status, await response.clone().text()).toBe(200);
  return json<ScheduleEntry>(response);
};
const refused = async (body: Record<string, unknown>, status = 400): Promise<string> => {
  const response = await post(body);
  expect(response.status, await response.clone().text()).toBe(status);
  return (await json<{ detail: string }>(response)).detail;
};
async function setSettings(body: Record<string, unknown>): Promise<void> {
  const response = await server.api('/scheduler/settings', { method: 'PATCH', json: body });
  expect(response.status, await response.clone().text()).toBe(200);
}
const list = async (query = ''): Promise<ScheduleEntry[]> => json<ScheduleEntry[]>(await server.api(`/scheduler/${query}`));

describe('terms', () => {
  it('puts entries without a term in the current term, lists and exports one term at a time', async () => {
    const fall = await accepted(meeting());
    expect(fall).toMatchObject({ year: 2025, semester: 'Fall', part_of_term: '1', joint_group: null, campus: 'Beirut' });
    // The same slot in another term is no clash.
    const spring = await accepted(meeting({ year: 2026, semester: 'Spring' }));
    expect(spring).toMatchObject({ year: 2026, semester: 'Spring' });
    expect((await list()).map((e) => e.id)).toEqual([fall.id]);
    expect((await list('?year=2026&semester=spring')).map((e) => e.id)).toEqual([spring.id]);
    expect((await server.api('/scheduler/?year=2026')).status).toBe(422);

    await setSettings({ current_term: { year: 2026, semester: 'Spring' } });
    expect((await list()).map((e) => e.id)).toEqual([spring.id]);
    const terms = await json<{ current: unknown; terms: { year: number; semester: string; entries: number }[] }>(await server.api('/scheduler/terms'));
    expect(terms).toEqual({
      current: { year: 2026, semester: 'Spring' },
      terms: [
        { year: 2026, semester: 'Spring', entries: 1 },
        { year: 2025, semester: 'Fall', entries: 1 },
      ],
    });

    const response = await server.api('/scheduler/export?year=2025&semester=Fall&details=true');
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(await response.arrayBuffer());
    const sheet = workbook.getWorksheet('Final Schedule');
    expect((sheet?.getRow(1).values as unknown[]).slice(1)).toEqual([
      'Days Pattern',
      'Course Code',
      'Section Name',
      'Instructor',
      'Start Time',
      'End Time',
      'Room',
      'Term',
      'Part of Term',
      'Joint Group',
      'Campus',
      'Course Name',
    ]);
    expect(sheet?.rowCount).toBe(2);
    expect((sheet?.getRow(2).values as unknown[]).slice(1)).toEqual([
      'MW',
      'CSC374',
      '1',
      'Dr. Haddad',
      '09:00',
      '10:00',
      'Room 204',
      'Fall 2025',
      '1',
      '',
      'Beirut',
      '',
    ]);
  });

  it('defaults the current term to the term after the offering history until one is chosen', async () => {
    const fresh = await startTestServer();
    try {
      await fresh.upload('/data/upload/offerings', 'o.csv', 'course_code,year,semester,total_enrolled\nCSC201,2024,Spring,30\n');
      const settings = await json<{ current_term: unknown; current_term_chosen: boolean; travel_minutes: number }>(await fresh.api('/scheduler/settings'));
      expect(settings).toEqual({ current_term: { year: 2024, semester: 'Fall' }, current_term_chosen: false, travel_minutes: 60 });
      const response = await fresh.api('/scheduler/', {
        method: 'POST',
        json: { course_code: 'CSC201', section_name: '1', day: 'TR', start_time: '11:00', duration_mins: 90 },
      });
      expect(await json<ScheduleEntry>(response)).toMatchObject({ year: 2024, semester: 'Fall' });
      // Writing into the default term keeps it: newer history no longer moves the view.
      await fresh.upload('/data/upload/offerings', 'o.csv', 'course_code,year,semester,total_enrolled\nCSC201,2024,Fall,30\n');
      expect(await json<{ current_term: unknown; current_term_chosen: boolean }>(await fresh.api('/scheduler/settings'))).toMatchObject({
        current_term: { year: 2024, semester: 'Fall' },
        current_term_chosen: true,
      });
    } finally {
      await fresh.close();
    }
  });

  it('rolls a timetable forward, conflict-checked, saying what it could not copy and why', async () => {
    await accepted(meeting());
    await accepted(meeting({ course_code: 'CSC375', doctor_ids: [haddad.id, nassar.id], day: 'TR', room: 'Lab 1' }));
    // Spring already has Lab 1 taken on TR 09:00.
    await accepted(meeting({ year: 2026, semester: 'Spring', course_code: 'PHY101', doctor_id: 0, day: 'TR', room: 'Lab 1' }));
    const response = await server.api('/scheduler/terms/copy', { method: 'POST', json: { from: FALL_2025, to: { year: 2026, semester: 'Spring' } } });
    expect(response.status, await response.clone().text()).toBe(200);
    const result = await json<{ copied: ScheduleEntry[]; not_copied: { course_code: string; reason: string }[] }>(response);
    expect(result.copied.map((e) => [e.course_code, e.year, e.semester, e.room])).toEqual([['CSC374', 2026, 'Spring', 'Room 204']]);
    expect(result.not_copied).toEqual([
      {
        entry_id: expect.any(Number) as number,
        course_code: 'CSC375',
        section_name: '1',
        reason: expect.stringContaining('Room Lab 1 is already booked by PHY101 section 1') as string,
      },
    ]);

    const withoutRooms = await json<{ copied: ScheduleEntry[] }>(
      await server.api('/scheduler/terms/copy', {
        method: 'POST',
        json: { from: FALL_2025, to: { year: 2026, semester: 'Fall' }, keep_instructors: false, keep_rooms: false },
      }),
    );
    expect(withoutRooms.copied.map((e) => [e.course_code, e.room, e.doctor_ids])).toEqual([
      ['CSC374', 'TBD', []],
      ['CSC375', 'TBD', []],
    ]);
    const onto = await server.api('/scheduler/terms/copy', { method: 'POST', json: { from: FALL_2025, to: FALL_2025 } });
    expect(onto.status).toBe(400);
  });
});

describe('sections with several meetings', () => {
  it('accepts a lecture and its lab with one instructor; refuses a duplicate; notes an overlapping second meeting as meeting in different weeks', async () => {
    const lecture = await accepted(meeting({ day: 'MWF', room: 'Room 204' }));
    await accepted(meeting({ day: 'R', start_time: '09:00', duration_mins: 120, room: 'Lab 1' }));
    expect(await refused(meeting({ day: 'MWF', room: 'Room 204' }))).toMatch(
      /^CSC374 section 1 already has this meeting \(MWF 09:00-10:00 in Room 204, entry \d+\)/,
    );
    // Two different meetings of one section at overlapping times: the section meeting in different weeks, noted on both.
    const other = await accepted(meeting({ day: 'F', start_time: '09:30', room: 'Lab 2' }));
    expect(other.warnings).toContain('CSC374 section 1 also meets on Friday 09:00-10:00 in room Room 204: read as meeting in different weeks');
    const listed = await json<ScheduleEntry[]>(await server.api('/scheduler/'));
    expect(listed.find((e) => e.id === lecture.id)?.warnings).toContain(
      'CSC374 section 1 also meets on Friday 09:30-10:30 in room Lab 2: read as meeting in different weeks',
    );
    expect(listed.find((e) => e.room === 'Lab 1')?.warnings.filter((w) => w.includes('different weeks'))).toEqual([]);
    // Another section of the same instructor at that time is a real double booking.
    expect(await refused(meeting({ section_name: '2', day: 'F', room: 'Lab 2' }))).toContain(
      'Dr. Haddad already teaches CSC374 section 1 on Friday 09:00-10:00',
    );
  });
});

describe('several instructors', () => {
  it('checks every instructor of a team-taught section and names the busy one', async () => {
    await accepted(meeting({ course_code: 'PHY211', doctor_id: nassar.id, room: 'Hall A' }));
    const detail = await refused(meeting({ doctor_ids: [haddad.id, nassar.id] }));
    expect(detail).toBe('Dr. Nassar already teaches PHY211 section 1 on Monday and Wednesday 09:00-10:00');
    const team = await accepted(meeting({ doctor_ids: [haddad.id, nassar.id], start_time: '11:00' }));
    expect(team).toMatchObject({
      doctor_id: haddad.id,
      doctor: { id: haddad.id, name: 'Dr. Haddad' },
      doctor_ids: [haddad.id, nassar.id],
      doctors: [{ name: 'Dr. Haddad' }, { name: 'Dr. Nassar' }],
    });
    // The contract's doctor_id alone replaces the first instructor and keeps the others.
    const third = await addDoctor('Dr. Aoun');
    const patched = await json<ScheduleEntry>(await server.api(`/scheduler/${team.id}`, { method: 'PATCH', json: { doctor_id: third.id } }));
    expect(patched.doctor_ids).toEqual([third.id, nassar.id]);
    const cleared = await json<ScheduleEntry>(await server.api(`/scheduler/${team.id}`, { method: 'PATCH', json: { doctor_id: 0 } }));
    expect(cleared).toMatchObject({ doctor_id: null, doctor: null, doctor_ids: [], doctors: [] });
    expect(await refused(meeting({ doctor_id: nassar.id, doctor_ids: [haddad.id] }), 422)).toContain('doctor_id');
    const { doctor_id: _lead, ...withoutLead } = meeting({ section_name: '9', doctor_ids: [nassar.id, haddad.id], start_time: '15:00' });
    expect(await accepted(withoutLead)).toMatchObject({ doctor_id: nassar.id, doctor_ids: [nassar.id, haddad.id] });
    expect(await refused(meeting({ doctor_ids: [haddad.id, haddad.id] }), 422)).toContain('lists the same doctor twice');
    expect(await refused(meeting({ doctor_ids: [haddad.id, 9999] }))).toContain('No doctor with id 9999');
  });

  it('takes and gives the instructors as one field, doctors, with the earlier fields read off it', async () => {
    const { doctor_id: _lead, ...base } = meeting();
    const team = await accepted({ ...base, doctors: [{ id: nassar.id, role: 'coordinates' }, { id: haddad.id }] });
    expect(team.doctors).toEqual([
      { id: nassar.id, name: 'Dr. Nassar', role: 'coordinates' },
      { id: haddad.id, name: 'Dr. Haddad', role: 'teaches' },
    ]);
    expect(team).toMatchObject({
      doctor_id: nassar.id,
      doctor: { id: nassar.id, name: 'Dr. Nassar' },
      doctor_ids: [nassar.id, haddad.id],
      doctor_roles: ['coordinates', 'teaches'],
    });
    // Only the one who teaches is checked: Dr. Nassar coordinates, so he may teach elsewhere meanwhile.
    await accepted(meeting({ course_code: 'PHY211', doctor_id: nassar.id, room: 'Hall A' }));

    // An entry read can be sent back as it is (names ignored); a role left out keeps the one it had.
    const patch = (body: Record<string, unknown>) => server.api(`/scheduler/${team.id}`, { method: 'PATCH', json: body });
    const sentBack = await patch({ doctors: team.doctors });
    expect(sentBack.status, await sentBack.clone().text()).toBe(200);
    const swapped = await json<ScheduleEntry>(await patch({ doctors: [{ id: haddad.id }, { id: nassar.id }] }));
    expect(swapped.doctors.map((d) => [d.id, d.role])).toEqual([
      [haddad.id, 'teaches'],
      [nassar.id, 'coordinates'],
    ]);
    expect(swapped.doctor_ids).toEqual([haddad.id, nassar.id]);
    const unassigned = await json<ScheduleEntry>(await patch({ doctors: [] }));
    expect(unassigned).toMatchObject({ doctors: [], doctor_id: null, doctor: null, doctor_ids: [], doctor_roles: [] });

    // An entry read, edited and sent back carries both: the one edited wins.
    const third = await addDoctor('Dr. Aoun');
    const read = await json<ScheduleEntry>(await patch({ doctors: [{ id: haddad.id }, { id: nassar.id, role: 'coordinates' }] }));
    const byAlias = await json<ScheduleEntry>(await patch({ doctors: read.doctors, doctor_id: third.id }));
    expect(byAlias.doctors.map((d) => [d.id, d.role])).toEqual([
      [third.id, 'teaches'],
      [nassar.id, 'coordinates'],
    ]);
    const byDoctors = await json<ScheduleEntry>(await patch({ ...pickInstructorAliases(byAlias), doctors: [{ id: nassar.id }] }));
    expect(byDoctors.doctors.map((d) => [d.id, d.role])).toEqual([[nassar.id, 'coordinates']]);
    await patch({ doctors: [] });

    // An earlier field sent beside it must agree; what disagrees is refused by name and nothing changes.
    const disagree = await patch({ doctors: [{ id: haddad.id }], doctor_ids: [nassar.id] });
    expect(disagree.status).toBe(422);
    expect((await json<{ detail: string; fields: { field: string }[] }>(disagree)).fields.map((f) => f.field)).toEqual(['doctor_ids']);
    expect((await json<{ detail: string }>(await patch({ doctors: [{ id: haddad.id }], doctor_id: nassar.id }))).detail).toContain('doctor_id');
    expect((await patch({ doctors: [{ id: haddad.id, role: 'assists' }], doctor_roles: ['teaches'] })).status).toBe(422);
    expect((await patch({ doctors: [{ id: haddad.id }], doctor_id: haddad.id, doctor_ids: [haddad.id] })).status).toBe(200);
    expect(await refused(meeting({ section_name: '7', doctors: [{ id: haddad.id }, { id: haddad.id }] }), 422)).toContain('lists the same doctor twice');
    expect(await refused(meeting({ section_name: '7', doctor_id: undefined, doctors: [{ id: haddad.id, role: 'boss' }] }), 422)).toContain('must be a role');
  });
});

describe('parts of term', () => {
  const part = async (body: Record<string, unknown>): Promise<PartOfTerm[]> => {
    const response = await server.api('/scheduler/parts', { method: 'POST', json: { ...SUMMER_2018, ...body } });
    expect(response.status, await response.clone().text()).toBe(200);
    return json<PartOfTerm[]>(response);
  };

  it('lets meetings in parts with separate dates share a slot, and refuses overlapping parts', async () => {
    await part({ code: 'S1', name: 'First half', start_date: '2018-06-11', end_date: '2018-07-06' });
    await part({ code: 'S2', name: 'Second half', start_date: '2018-07-09', end_date: '2018-08-03' });
    const parts = await part({ code: 'S2A', name: 'Second half, first four weeks', start_date: '2018-07-02', end_date: '2018-07-27' });
    expect(parts.map((p) => p.code)).toEqual(['1', 'S1', 'S2A', 'S2']);
    await accepted(meeting({ ...SUMMER_2018, part_of_term: 'S1' }));
    await accepted(meeting({ ...SUMMER_2018, course_code: 'CSC375', part_of_term: 'S2' }));
    const clash = await refused(meeting({ ...SUMMER_2018, course_code: 'CSC376', part_of_term: 'S2A' }));
    expect(clash).toContain(
      'Room Room 204 is already booked by CSC374 section 1 on Monday and Wednesday 09:00-10:00 (part of term S1 (2018-06-11 to 2018-07-06) overlaps part of term S2A (2018-07-02 to 2018-07-27))',
    );
    expect(clash).toContain('Dr. Haddad already teaches CSC374 section 1');
    // The whole term overlaps every part.
    expect(await refused(meeting({ ...SUMMER_2018, course_code: 'CSC377' }))).toContain('Room Room 204 is already booked');

    const unknown = await refused(meeting({ ...SUMMER_2018, part_of_term: 'LF' }), 422);
    expect(unknown).toContain('"LF" is not a part of term of Summer 2018; known: 1, S1, S2A, S2');
    const listed = await json<PartOfTerm[]>(await server.api('/scheduler/parts?year=2018&semester=Summer'));
    expect(listed.find((p) => p.code === 'S1')).toEqual({ code: 'S1', name: 'First half', start_date: '2018-06-11', end_date: '2018-07-06' });
    expect(
      (
        await server.api('/scheduler/parts', {
          method: 'POST',
          json: { ...SUMMER_2018, code: 'X', name: 'x', start_date: '2018-02-30', end_date: '2018-03-01' },
        })
      ).status,
    ).toBe(422);
    expect(
      (
        await server.api('/scheduler/parts', {
          method: 'POST',
          json: { ...SUMMER_2018, code: 'X', name: 'x', start_date: '2018-03-02', end_date: '2018-03-01' },
        })
      ).status,
    ).toBe(422);
    expect((await server.api('/scheduler/parts/S1?year=2018&semester=Summer', { method: 'DELETE' })).status).toBe(400);
    expect((await server.api('/scheduler/parts/S2A?year=2018&semester=Summer', { method: 'DELETE' })).status).toBe(200);
  });
});

describe('changes that move stored meetings in time', () => {
  it('refuses new dates for a part of term that would put two of its meetings in one room at once, naming them, and changes nothing', async () => {
    await server.api('/scheduler/parts', {
      method: 'POST',
      json: { ...SUMMER_2018, code: 'S1', name: 'First half', start_date: '2018-06-11', end_date: '2018-07-06' },
    });
    await server.api('/scheduler/parts', {
      method: 'POST',
      json: { ...SUMMER_2018, code: 'S2', name: 'Second half', start_date: '2018-07-09', end_date: '2018-08-03' },
    });
    await accepted(meeting({ ...SUMMER_2018, part_of_term: 'S1' }));
    await accepted(meeting({ ...SUMMER_2018, course_code: 'CSC375', doctor_id: 0, part_of_term: 'S2' }));
    const moved = await server.api('/scheduler/parts', {
      method: 'POST',
      json: { ...SUMMER_2018, code: 'S2', name: 'Second half', start_date: '2018-06-25', end_date: '2018-08-03' },
    });
    expect(moved.status).toBe(400);
    expect((await json<{ detail: string }>(moved)).detail).toMatch(
      /^Setting part of term S2 \(2018-06-25 to 2018-08-03\) of Summer 2018 would break the timetable's rules, so nothing was changed: Room Room 204 is already booked by CSC374 section 1/,
    );
    const parts = await json<PartOfTerm[]>(await server.api('/scheduler/parts?year=2018&semester=Summer'));
    expect(parts.find((p) => p.code === 'S2')?.start_date).toBe('2018-07-09');
    // Dates that keep the halves apart are fine, and so is a new name.
    expect(
      (
        await server.api('/scheduler/parts', {
          method: 'POST',
          json: { ...SUMMER_2018, code: 'S2', name: 'Summer II', start_date: '2018-07-10', end_date: '2018-08-04' },
        })
      ).status,
    ).toBe(200);
  });

  it("says on every read when a meeting falls outside its instructor's new availability", async () => {
    const availability = (warnings: readonly string[]): string[] => warnings.filter((w) => /not available/.test(w));
    const entry = await accepted(meeting({ day: 'MWF' }));
    expect(availability(entry.warnings)).toEqual([]);
    const upload = await server.upload('/data/upload/doctors', 'doctors.csv', 'name,available_days,available_time\nDr. Haddad,MTWR,08:00-17:00\n');
    expect(upload.status).toBe(200);
    const [stored] = await list();
    expect(availability(stored?.warnings ?? [])).toEqual(['Dr. Haddad is not available on Friday (available MTWR 08:00-17:00), but teaches this meeting']);
    // Moved into the hours, the warning goes.
    const patched = await json<ScheduleEntry>(await server.api(`/scheduler/${entry.id}`, { method: 'PATCH', json: { day: 'MW' } }));
    expect(availability(patched.warnings)).toEqual([]);
  });
});

describe('joint sections', () => {
  it('lets members of a joint group share room, instructor and time; anything else in that room still clashes', async () => {
    const graduate = await accepted(meeting({ course_code: 'CSC574', joint_group: 'CSC374+574' }));
    const undergraduate = await accepted(meeting({ joint_group: 'CSC374+574' }));
    expect(await refused(meeting({ course_code: 'BIF300', doctor_id: nassar.id }))).toContain('Room Room 204 is already booked by CSC374 section 1');
    expect(await refused(meeting({ course_code: 'BIF300', doctor_id: nassar.id, joint_group: 'another' }))).toContain('Room Room 204 is already booked');
    // Every member is listed: the registrar needs every code.
    expect((await list()).map((e) => [e.course_code, e.joint_group])).toEqual([
      ['CSC374', 'CSC374+574'],
      ['CSC574', 'CSC374+574'],
    ]);
    expect([graduate.id, undergraduate.id].every(Number.isInteger)).toBe(true);
  });

  it("warns, without refusing, when the room cannot seat the group's expected students", async () => {
    await saveRun(server.core.context.db, 'Beirut', [
      { code: 'CSC374', enrollment: 60, sections: 2 },
      { code: 'CSC574', enrollment: 12, sections: 1 },
    ]);
    await server.api('/scheduler/rooms', { method: 'POST', json: { name: 'Room 204', capacity: 40, campus: 'Beirut' } });
    await accepted(meeting({ course_code: 'CSC574', joint_group: 'G' }));
    const member = await accepted(meeting({ joint_group: 'G' }));
    expect(member.warnings).toContain('Room Room 204 seats 40, fewer than the 42 students expected in joint group G (CSC374 section 1, CSC574 section 1)');
    expect((await list()).every((e) => e.warnings.some((w) => w.includes('fewer than the 42 students')))).toBe(true);
  });
});

describe('campuses and travel', () => {
  beforeEach(async () => {
    await server.api('/scheduler/rooms', { method: 'POST', json: { name: 'B-101', capacity: 40, campus: 'Beirut' } });
    await server.api('/scheduler/rooms', { method: 'POST', json: { name: 'J-201', capacity: 40, campus: 'Byblos' } });
  });

  it("takes the room's campus, and needs the travel time between campuses on a shared day", async () => {
    expect(await accepted(meeting({ room: 'B-101' }))).toMatchObject({ campus: 'Beirut' });
    const short = await refused(meeting({ course_code: 'CSC201', room: 'J-201', start_time: '10:30' }));
    expect(short).toBe(
      'Dr. Haddad teaches CSC374 section 1 at Beirut on Monday and Wednesday 09:00-10:00: 30 minutes to get to Byblos, less than the 60-minute travel time between Beirut and Byblos',
    );
    expect(await accepted(meeting({ course_code: 'CSC201', room: 'J-201', start_time: '11:00' }))).toMatchObject({ campus: 'Byblos' });
    // Other days, or the same campus, need no travel.
    await accepted(meeting({ course_code: 'CSC202', room: 'J-201', day: 'TR', start_time: '10:00' }));
    // A longer travel time would strand a stored meeting: refused, naming it, and nothing changes.
    const raised = await server.api('/scheduler/settings', { method: 'PATCH', json: { travel_minutes: 90 } });
    expect(raised.status).toBe(400);
    expect((await json<{ detail: string }>(raised)).detail).toMatch(
      /^Setting the travel time between campuses to 90 minutes would break the timetable's rules, so nothing was changed: Dr\. Haddad teaches CSC201 section 1 at Byblos on Monday and Wednesday 11:00-12:00: 60 minutes to get to Beirut/,
    );
    expect((await json<{ travel_minutes: number }>(await server.api('/scheduler/settings'))).travel_minutes).toBe(60);
    // Once that meeting moves to another day, the change goes through.
    const csc201 = (await json<ScheduleEntry[]>(await server.api('/scheduler/'))).find((e) => e.course_code === 'CSC201');
    expect((await server.api(`/scheduler/${csc201?.id}`, { method: 'PATCH', json: { day: 'F' } })).status).toBe(200);
    await setSettings({ travel_minutes: 90 });
    await accepted(meeting({ course_code: 'CSC203', room: 'TBD', campus: 'Byblos', start_time: '12:00', duration_mins: 30 }));
    expect(await refused(meeting({ course_code: 'CSC204', room: 'TBD', campus: 'Beirut', start_time: '13:30', duration_mins: 30 }))).toBe(
      'Dr. Haddad teaches CSC203 section 1 at Byblos on Monday and Wednesday 12:00-12:30: 60 minutes to get to Beirut, less than the 90-minute travel time between Byblos and Beirut',
    );
    expect(await refused(meeting({ course_code: 'CSC205', room: 'J-201', campus: 'Beirut', day: 'F' }))).toBe(
      'Room J-201 is at Byblos, not Beirut: leave campus out or pick a room at Beirut',
    );
    expect(await refused(meeting({ course_code: 'CSC205', room: 'TBD', campus: 'Tripoli', day: 'F' }), 422)).toContain(
      'Campus (campus): must be Beirut or Byblos',
    );
  });
});
