import { readFileSync } from 'node:fs';
import Papa from 'papaparse';
import ExcelJS from 'exceljs';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { json, startTestServer, type TestServer } from '../helpers/server';
import { DEPARTMENT_HEADER } from '../../core/domain/session-wire';
import { realDataFile, summerParts } from '../helpers/real-data';
import type { ScheduleEntry } from '../../core/timetable/schema';
import type { TimetableImportResult } from '../../core/timetable-import/service';
import { failThirdMeeting } from '../helpers/failures';

let server: TestServer;
beforeEach(async () => {
  server = await startTestServer();
});
afterEach(async () => {
  await server.close();
});

const importFile = async (filename: string, content: string | Uint8Array, fields: Record<string, string> = {}): Promise<Response> =>
  server.upload('/scheduler/import', filename, content, fields);
async function importOk(filename: string, content: string | Uint8Array, fields: Record<string, string> = {}): Promise<TimetableImportResult> {
  const response = await importFile(filename, content, fields);
  const body = await response.text();
  expect(response.status, body).toBe(200);
  return JSON.parse(body) as TimetableImportResult;
}
const entriesOf = async (year: number, semester: string): Promise<ScheduleEntry[]> =>
  json<ScheduleEntry[]>(await server.api(`/scheduler/?year=${year}&semester=${semester}`));
const countOf = async (path: string): Promise<number> => (await json<unknown[]>(await server.api(path))).length;

/** What a stored timetable holds, independent of ids: compared across a round trip. */
const shape = (entries: readonly ScheduleEntry[]): string[] =>
  entries
    .map((e) =>
      [
        e.course_code,
        e.section_name,
        e.day,
        e.start_time,
        e.duration_mins,
        e.room,
        e.doctors.map((d) => `${d.name}:${d.role}`).join('+'),
        e.part_of_term,
        e.joint_group ?? '',
        e.campus,
      ].join('|'),
    )
    .sort();

describe('timetable import: reading a listing', () => {
  it('reads every alias group and time form, merges repeated rows, and stores nothing on a dry run', async () => {
    const csv = [
      'Course Code,Sec,Pattern,Begin,Duration,Location,Faculty,Session,Term,Type',
      'csc 310,A,MWF,09:00,50,Hall 1,Dr. Haddad and Dr. Aoun,1,Fall 2024,LEC',
      'CSC310,A,MWF,09:00,50,Hall 1,Dr. Haddad / Dr. Aoun,1,Fall 2024,LEC',
      'CSC310,A,R,14:00,110,Lab 2,Dr. Haddad,1,Fall 2024,LAB',
      'CSC320,1,TR,ARRANGED,,,,1,Fall 2024,IND',
      'CSC330,1,,10:00,60,Hall 1,,1,Fall 2024,LEC',
      'XYZ,1,M,10:00,60,Hall 1,,1,Fall 2024,LEC',
    ].join('\n');
    const preview = await importOk('listing.csv', csv);
    expect(preview).toMatchObject({
      status: 'preview',
      dry_run: true,
      processed: 6,
      meetings: 2,
      sections: 1,
      merged: 1,
      terms: [{ year: 2024, semester: 'Fall' }],
    });
    // The arranged row is a section without a time, kept with its course (not skipped).
    expect(preview.untimed).toBe(1);
    expect(preview.skipped).toEqual({ 'no meeting days': 1, 'no readable course code': 1 });
    expect(preview.skipped_rows.map((r) => r.row)).toEqual([6, 7]);
    expect(preview.created).toMatchObject({
      courses: ['CSC310', 'CSC320'],
      doctors: ['Dr. Haddad', 'Dr. Aoun'],
      rooms: ['Hall 1', 'Lab 2'],
      parts_of_term: [],
    });
    // A dry run stores nothing: no entry, no course, no doctor, no room.
    expect(await entriesOf(2024, 'Fall')).toEqual([]);
    expect(await countOf('/data/courses')).toBe(0);
    expect(await countOf('/scheduler/doctors')).toBe(0);

    const applied = await importOk('listing.csv', csv, { dry_run: 'false' });
    expect(applied).toMatchObject({ status: 'success', meetings: 2, merged: 1 });
    const stored = await entriesOf(2024, 'Fall');
    expect(stored.map((e) => [e.course_code, e.section_name, e.day, e.start_time, e.duration_mins, e.room, e.doctors.map((d) => d.name)])).toEqual([
      ['CSC310', 'A', 'MWF', '09:00', 50, 'Hall 1', ['Dr. Haddad', 'Dr. Aoun']],
      ['CSC310', 'A', 'R', '14:00', 110, 'Lab 2', ['Dr. Haddad']],
    ]);
  });

  it('reads subject + number, building + room, 12-hour times, end times, term codes and several sheets under title rows', async () => {
    const workbook = new ExcelJS.Workbook();
    const notes = workbook.addWorksheet('Notes');
    notes.addRow(['Prepared by the registrar']);
    const sheet = workbook.addWorksheet('Summer');
    sheet.addRow(['University timetable — Summer 2018']);
    sheet.addRow([]);
    sheet.addRow([
      'Subject',
      'Catalog Number',
      'Section',
      'Days of Week',
      'Start Time',
      'End Time',
      'Building',
      'Room',
      'Instructors',
      'Part of Term',
      'Year Term',
      'Start Date',
      'End Date',
    ]);
    sheet.addRow(['ECE', '110', 'AL1', 'TR', '01:00 PM', '02:50 PM', 'ECE Building', '1002', 'Smith, J;Lee, K', 'S2A', '201830', '2018-06-11', '2018-07-06']);
    sheet.addRow(['ECE', '110', 'AL2', 'TR', '01:00 PM', '02:50 PM', 'ECE Building', '1002', 'Chen, L', 'S2B', '201830', '2018-07-09', '2018-08-03']);
    const second = workbook.addWorksheet('More');
    second.addRow(['Subject', 'Number', 'Section', 'Days', 'Start Time', 'End Time', 'Building', 'Room', 'Instructors', 'Part of Term', 'Term']);
    second.addRow(['PHYS', '211', 'A', 'MWF', '12:00 PM', '12:50 PM', 'Loomis', '141', 'Ng, P', '1', '2018-su']);
    const content = new Uint8Array(await workbook.xlsx.writeBuffer());
    const result = await importOk('registrar.xlsx', content, { dry_run: 'false' });
    expect(result).toMatchObject({ status: 'success', meetings: 3, conflicts: [], terms: [{ year: 2018, semester: 'Summer' }] });
    expect(result.created.parts_of_term.sort()).toEqual(['S2A (Summer 2018)', 'S2B (Summer 2018)']);
    const stored = await entriesOf(2018, 'Summer');
    expect(stored.map((e) => [e.course_code, e.section_name, e.start_time, e.duration_mins, e.room, e.part_of_term])).toEqual([
      ['ECE110', 'AL1', '13:00', 110, 'ECE Building 1002', 'S2A'],
      ['ECE110', 'AL2', '13:00', 110, 'ECE Building 1002', 'S2B'],
      ['PHYS211', 'A', '12:00', 50, 'Loomis 141', '1'],
    ]);
    // The two halves of S2 got the file's dates, so one room at one time in both is no clash.
    const parts = await json<{ code: string; start_date: string | null }[]>(await server.api('/scheduler/parts?year=2018&semester=Summer'));
    expect(parts.find((p) => p.code === 'S2A')?.start_date).toBe('2018-06-11');
  });

  it('refuses files it cannot read as a timetable, naming the problem, and stores nothing', async () => {
    let response = await importFile('listing.txt', 'course,days\n');
    expect(response.status).toBe(400);
    expect((await json<{ detail: string }>(response)).detail).toMatch(/\.csv or \.xlsx/);
    response = await importFile('listing.csv', 'Course,Room,Instructor\nCSC310,Hall 1,Dr. A\n');
    expect(response.status).toBe(400);
    const detail = (await json<{ detail: string }>(response)).detail;
    expect(detail).toMatch(/no days .*no start time .*no end time or duration/);
    expect(detail).toMatch(/Columns found: Course, Room, Instructor/);
    response = await importFile('listing.csv', 'Course,Days,Start Time,Duration\nCSC310,MWF,09:00,50\n', { conflicts: 'maybe' });
    expect(response.status).toBe(422);
    response = await importFile('listing.csv', 'Course,Days,Start Time,Duration\nCSC310,MWF,09:00,50\n', { roles: '{"Dr. A": "boss"}' });
    expect(response.status).toBe(422);
    expect(await countOf('/data/courses')).toBe(0);
  });

  it('applies all or nothing', async () => {
    const csv = [
      'Course,Section,Days,Start Time,Duration,Room,Term',
      'CSC310,A,MWF,09:00,50,Hall 1,Fall 2024',
      'CSC311,A,MWF,10:00,50,Hall 1,Fall 2024',
      'CSC312,A,MWF,11:00,50,Hall 1,Fall 2024',
    ].join('\n');
    await failThirdMeeting(server.core.context.db, 'disk full');
    const logged = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const response = await importFile('listing.csv', csv, { dry_run: 'false' });
    expect(response.status).toBe(500);
    expect(logged).toHaveBeenCalledWith(expect.objectContaining({ message: 'disk full' }));
    logged.mockRestore();
    expect(await entriesOf(2024, 'Fall')).toEqual([]);
    expect(await countOf('/data/courses')).toBe(0);
    expect(await countOf('/scheduler/rooms')).toBe(0);
  });
});

describe('timetable import: what a real timetable holds', () => {
  const header = 'Course,Section,Days,Start Time,End Time,Room,Instructors,Term';

  it('proposes joint groups for sections in one room, slot and instructor, and stores them as one group', async () => {
    const csv = [
      header,
      'CS374,AL1,MWF,09:00,09:50,Siebel 1404,Dr. Erickson,Fall 2024',
      'ECE374,AL1,MWF,09:00,09:50,Siebel 1404,Dr. Erickson,Fall 2024',
      'CS101,A,MWF,09:00,09:50,Siebel 1404,Dr. Other,Fall 2024',
    ].join('\n');
    const result = await importOk('listing.csv', csv, { dry_run: 'false' });
    expect(result.joint_groups).toEqual([{ label: 'CS374/ECE374 AL1', members: ['CS374 AL1', 'ECE374 AL1'], rule: 'same room, time and instructor' }]);
    expect(result.meetings).toBe(2);
    // The third section is a real clash on the room: refused with the message a POST would give.
    expect(result.conflicts.map((c) => [c.row, c.course_code, c.section_name])).toEqual([[4, 'CS101', 'A']]);
    expect(result.conflicts[0]?.detail).toMatch(/Room Siebel 1404 is already booked by CS374 section AL1/);
    const stored = await entriesOf(2024, 'Fall');
    expect(stored.map((e) => e.joint_group)).toEqual(['CS374/ECE374 AL1', 'CS374/ECE374 AL1']);
  });

  it('marks an instructor listed on parallel sections as coordinating them, and lets staff decide otherwise before applying', async () => {
    const csv = [
      header,
      'MATH221,A1,MWF,09:00,09:50,Room 1,"Lead, A;Taylor, B",Fall 2024',
      'MATH221,A2,MWF,09:00,09:50,Room 2,"Lead, A;Young, C",Fall 2024',
    ].join('\n');
    const preview = await importOk('listing.csv', csv);
    expect(preview.roles).toEqual([
      { instructor: 'Lead, A', role: 'coordinates', sections: ['MATH221 A1', 'MATH221 A2'], reason: 'listed on 2 sections that meet at the same time' },
    ]);
    expect(preview).toMatchObject({ meetings: 2, conflicts: [] });
    // Told that Lead teaches, the second section is a real double-booking.
    const decided = await importOk('listing.csv', csv, { roles: JSON.stringify({ 'Lead, A': 'teaches' }) });
    expect(decided.meetings).toBe(1);
    expect(decided.conflicts[0]?.detail).toMatch(/Lead, A already teaches MATH221 section A1/);
    await importOk('listing.csv', csv, { dry_run: 'false' });
    const stored = await entriesOf(2024, 'Fall');
    expect(stored.map((e) => e.doctors.map((d) => `${d.name}:${d.role}`))).toEqual([
      ['Lead, A:coordinates', 'Taylor, B:teaches'],
      ['Lead, A:coordinates', 'Young, C:teaches'],
    ]);
    expect(stored[0]?.doctor_roles).toEqual(['coordinates', 'teaches']);
    // Rolling the term forward keeps who coordinates: the copy clashes with nothing.
    const copied = await json<{ copied: ScheduleEntry[]; not_copied: unknown[] }>(
      await server.api('/scheduler/terms/copy', { method: 'POST', json: { from: { year: 2024, semester: 'Fall' }, to: { year: 2025, semester: 'Fall' } } }),
    );
    expect(copied.not_copied).toEqual([]);
    expect(copied.copied.map((e) => e.doctor_roles)).toEqual([
      ['coordinates', 'teaches'],
      ['coordinates', 'teaches'],
    ]);
    // A coordinator is not checked: a later write for them at that time is accepted.
    const lead = stored[0]?.doctor_ids[0];
    const created = await server.api('/scheduler/', {
      method: 'POST',
      json: {
        course_code: 'MATH999',
        section_name: '1',
        doctor_id: lead,
        day: 'M',
        start_time: '09:00',
        duration_mins: 50,
        room: 'Room 9',
        year: 2024,
        semester: 'Fall',
      },
    });
    expect(created.status).toBe(200);
  });

  it('flags real clashes on both entries when asked, until one of them is moved', async () => {
    const csv = [header, 'CSC310,A,MWF,09:00,09:50,Hall 1,Dr. A,Fall 2024', 'CSC320,A,MWF,09:30,10:20,Hall 1,Dr. B,Fall 2024'].join('\n');
    const result = await importOk('listing.csv', csv, { dry_run: 'false', conflicts: 'flag' });
    expect(result.meetings).toBe(2);
    expect(result.conflicts).toHaveLength(1);
    let stored = await entriesOf(2024, 'Fall');
    const [first, second] = stored;
    expect(second?.warnings).toContainEqual(expect.stringMatching(/^Imported with a clash: Room Hall 1 is already booked by CSC310 section A/));
    expect(first?.warnings).toContainEqual(expect.stringMatching(/^Clashes with CSC320 section A \(imported\): Room Hall 1/));
    const moved = await server.api(`/scheduler/${second?.id}`, { method: 'PATCH', json: { start_time: '11:00' } });
    expect(moved.status).toBe(200);
    stored = await entriesOf(2024, 'Fall');
    expect(stored.flatMap((e) => e.warnings).filter((w) => /clash/i.test(w))).toEqual([]);
  });

  it("exports one instructor's weekly timetable as iCalendar, bounded by the part-of-term dates", async () => {
    await server.api('/scheduler/parts', {
      method: 'POST',
      json: { year: 2024, semester: 'Fall', code: 'A', name: 'First half', start_date: '2024-09-02', end_date: '2024-10-18' },
    });
    const csv = [
      'Course,Section,Days,Start Time,End Time,Room,Instructors,Term,Part of Term',
      'CSC310,A,MWF,09:00,09:50,"Hall 1, West",Dr. A,Fall 2024,A',
      'CSC320,B,TR,13:00,14:15,,Dr. A;Dr. B,Fall 2024,1',
      'CSC330,C,TR,15:00,16:15,Hall 2,Dr. B,Fall 2024,1',
    ].join('\n');
    await importOk('listing.csv', csv, { dry_run: 'false' });
    const doctors = await json<{ id: number; name: string }[]>(await server.api('/scheduler/doctors'));
    const drA = doctors.find((d) => d.name === 'Dr. A');
    const response = await server.api(`/scheduler/export?format=ics&doctor_id=${drA?.id}&year=2024&semester=Fall`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^text\/calendar/);
    const text = await response.text();
    expect(text.match(/BEGIN:VEVENT/g)).toHaveLength(2);
    expect(text).toContain('DTSTART:20240902T090000');
    expect(text).toContain('RRULE:FREQ=WEEKLY;BYDAY=MO,WE,FR;UNTIL=20241018T235959');
    expect(text).toContain('LOCATION:Hall 1\\, West');
    expect(text).toContain('RRULE:FREQ=WEEKLY;BYDAY=TU,TH;UNTIL=20241231T235959');
    expect(text.split('\r\n').every((line) => new TextEncoder().encode(line).length <= 75)).toBe(true);
    const missing = await server.api('/scheduler/export?format=ics');
    expect(missing.status).toBe(422);
    expect((await server.api('/scheduler/export?format=ics&doctor_id=9999')).status).toBe(404);
  });
});

describe('timetable import: sections listed apart that meet together (rows from the 2017 summer timetable)', () => {
  /** A registrar listing in the real files' own columns, plus the notes column their full export has. */
  const HEADER = 'Year,Term,Subject,Number,CRN,Section,Part of Term,Type,Start Time,End Time,Days of Week,Room,Building,Instructors,Section Info';
  const listing = (...rows: string[]): string => [HEADER, ...rows].join('\n');
  const conflictsOf = (result: TimetableImportResult): string[] => result.conflicts.map((c) => `${c.course_code} ${c.section_name}`);

  it('puts cross-listed online sections of one instructor at one time into one group; two real rooms stay a clash', async () => {
    const online = await importOk(
      'online.csv',
      listing(
        '2017,Summer,CHLH,336,36416,B,S2,Online,06:30 PM,09:15 PM,T,,,"Rayburn, A",',
        '2017,Summer,CPSC,336,36314,B,S2,Online,06:30 PM,09:15 PM,T,,,"Rayburn, A",',
      ),
    );
    expect(online.joint_groups).toEqual([
      { label: 'CHLH336/CPSC336 B', members: ['CHLH336 B', 'CPSC336 B'], rule: 'same instructor and time, no room for one of them' },
    ]);
    expect(online).toMatchObject({ meetings: 2, conflicts: [] });
    // The same two sections in two real rooms: one person cannot be in both.
    const rooms = await importOk(
      'rooms.csv',
      listing(
        '2017,Summer,CHLH,336,36416,B,S2,Lecture,06:30 PM,09:15 PM,T,101,Huff Hall,"Rayburn, A",',
        '2017,Summer,CPSC,336,36314,B,S2,Lecture,06:30 PM,09:15 PM,T,102,Turner Hall,"Rayburn, A",',
      ),
    );
    expect(rooms.joint_groups).toEqual([]);
    expect(conflictsOf(rooms)).toEqual(['CPSC336 B']);
    expect(rooms.conflicts[0]?.detail).toMatch(/^Rayburn, A already teaches CHLH336 section B on Tuesday 18:30-21:15/);
    expect(rooms.conflicts[0]?.with).toEqual([{ row: 2, entry_id: null, course_code: 'CHLH336', section_name: 'B' }]);
  });

  it('reads "Same as …" notes: cross-listed sections meet together even in the two rooms the file gives; without the note they clash', async () => {
    const row = (note: string): string[] => [
      `2017,Summer,MATH,463,30462,AL1,S2,Lecture,01:00 PM,02:50 PM,MWF,1002,Lincoln Hall,"Stepanov, A","${note}"`,
      '2017,Summer,STAT,400,30460,AL1,S2,Lecture,01:00 PM,02:50 PM,MWF,1000,Lincoln Hall,"Stepanov, A",',
    ];
    const noted = await importOk('noted.csv', listing(...row('Same as STAT 400. See STAT 400.')));
    expect(noted.joint_groups).toEqual([{ label: 'MATH463/STAT400 AL1', members: ['MATH463 AL1', 'STAT400 AL1'], rule: 'cross-listed in the file' }]);
    expect(noted.conflicts).toEqual([]);
    const threeWays = await importOk(
      'three.csv',
      listing(
        '2017,Summer,AFRO,201,1,A,1,Lecture,10:00 AM,10:50 AM,MWF,12,Gregory Hall,"Lee, K","Same as LLS 201, and PS 201."',
        '2017,Summer,LLS,201,2,A,1,Lecture,10:00 AM,10:50 AM,MWF,13,Gregory Hall,"Lee, K",',
        '2017,Summer,PS,201,3,A,1,Lecture,10:00 AM,10:50 AM,MWF,14,Gregory Hall,"Lee, K",',
      ),
    );
    expect(threeWays.joint_groups.map((g) => g.members)).toEqual([['AFRO201 A', 'LLS201 A', 'PS201 A']]);
    const plain = await importOk('plain.csv', listing(...row('')));
    expect(plain.joint_groups).toEqual([]);
    expect(conflictsOf(plain)).toEqual(['STAT400 AL1']);
  });

  it('groups a stacked pair in one room with one team of instructors; another course in that room at that time still clashes', async () => {
    const stacked = await importOk(
      'stacked.csv',
      listing(
        '2017,Summer,CHBE,471,37926,A,S2,Lecture,10:30 AM,11:45 AM,MTWR,140,Burrill Hall,"Kong, H;Kraft, M",',
        '2017,Summer,CHBE,594,39333,MLK,S2,Lecture,10:30 AM,11:45 AM,MTWR,140,Burrill Hall,"Kong, H;Kraft, M",',
        '2017,Summer,CHEM,102,40000,B,S2,Lecture,10:30 AM,11:45 AM,MTWR,140,Burrill Hall,"Other, P",',
      ),
    );
    expect(stacked.joint_groups).toEqual([{ label: 'CHBE471/CHBE594 A/MLK', members: ['CHBE471 A', 'CHBE594 MLK'], rule: 'same room, time and instructor' }]);
    expect(conflictsOf(stacked)).toEqual(['CHEM102 B']);
    expect(stacked.conflicts[0]?.detail).toMatch(/^Room Burrill Hall 140 is already booked by CHBE471 section A/);
    expect(stacked.conflicts[0]?.with.map((w) => w.row)).toEqual([2, 3]);
  });

  it('merges a section listed again on a superset of its days into one meeting, and lists the merge; an overlapping second time is the section in different weeks', async () => {
    const repeated = await importOk(
      'repeated.csv',
      listing(
        '2017,Summer,ECON,102,29914,S1,S1,Lecture-Discussion,09:00 AM,11:50 AM,MTWR,215,David Kinley Hall,"Jogani, C",',
        '2017,Summer,ECON,102,29914,S1,S1,Lecture-Discussion,09:00 AM,11:50 AM,MTWRF,215,David Kinley Hall,"Jogani, C",',
        '2017,Summer,ECON,102,29914,S1,S1,Discussion,10:00 AM,11:00 AM,F,216,David Kinley Hall,"Jogani, C",',
      ),
      { dry_run: 'false' },
    );
    expect(repeated).toMatchObject({ merged: 1, merged_rows: [{ row: 3, into: 2, course_code: 'ECON102', section_name: 'S1', days: 'MTWR + MTWRF' }] });
    expect(conflictsOf(repeated)).toEqual([]);
    expect(repeated.notes).toContain(
      'One section lists rows at overlapping times (ECON102 section S1): read as meeting in different weeks, a note on their meetings and not a clash',
    );
    const stored = await entriesOf(2017, 'Summer');
    expect(stored.map((e) => [e.day, e.start_time])).toEqual([
      ['MTWRF', '09:00'],
      ['F', '10:00'],
    ]);
    expect(stored[1]?.warnings).toEqual([
      'ECON102 section S1 also meets on Friday 09:00-11:50 (both in part of term S1) in room David Kinley Hall 215: read as meeting in different weeks',
    ]);
  });

  it('says, when a write clashes with a section it meets with, how to record that they meet together', async () => {
    const post = (course_code: string): Promise<Response> =>
      server.api('/scheduler/', {
        method: 'POST',
        json: {
          course_code,
          section_name: 'A',
          day: 'MWF',
          start_time: '10:00',
          duration_mins: 50,
          room: 'Hall 1',
          doctor_id: null,
          year: 2030,
          semester: 'Fall',
        },
      });
    expect((await post('CSC374')).status).toBe(200);
    const refused = await post('CSC574');
    expect(refused.status).toBe(400);
    expect((await json<{ detail: string }>(refused)).detail).toMatch(
      /If CSC574 section A and CSC374 section A meet together by design \(cross-listed or stacked\), give both the same joint group$/,
    );
  });
});

const REAL_2017 = realDataFile('uiuc-timetable/2017-su.csv');
const REAL_2018 = realDataFile('uiuc-timetable/2018-su.csv');

/**
 * An independent reading of two rows of a registrar's file: do they need the same person or the same
 * room at the same time on a date both take place? One person teaching several listings of one class
 * at once (same times and days, with no second room) is one class, not a clash.
 */
function realClash(a: Record<string, string>, b: Record<string, string>, year: number): boolean {
  const dates = (r: Record<string, string>): [string, string] => {
    const part = summerParts(year).find((p) => p.code === r['Part of Term']);
    return part ? [part.start_date, part.end_date] : [`${year}-05-15`, `${year}-08-04`];
  };
  const [aFrom, aTo] = dates(a);
  const [bFrom, bTo] = dates(b);
  const [aStart, aEnd, bStart, bEnd] = [clock(a['Start Time'] ?? ''), clock(a['End Time'] ?? ''), clock(b['Start Time'] ?? ''), clock(b['End Time'] ?? '')];
  const shareDay = [...(a['Days of Week'] ?? '')].some((d) => (b['Days of Week'] ?? '').includes(d));
  if (!shareDay || !(aStart < bEnd && bStart < aEnd) || !(aFrom <= bTo && bFrom <= aTo)) return false;
  const room = (r: Record<string, string>): string => [r.Building, r.Room].filter(Boolean).join(' ');
  const people = (r: Record<string, string>): string[] =>
    (r.Instructors ?? '')
      .split(';')
      .map((n) => n.trim())
      .filter(Boolean);
  const sharedPerson = people(a).some((p) => people(b).includes(p));
  const sameRoom = room(a) !== '' && room(a) === room(b);
  const oneClass =
    aStart === bStart &&
    aEnd === bEnd &&
    sharedPerson &&
    (room(a) === '' || room(b) === '' || sameRoom) &&
    (a.Subject !== b.Subject || a.Number !== b.Number || a.Section !== b.Section);
  return (sameRoom || sharedPerson) && !oneClass;
}

/** A stored meeting as a registrar's row reads (the teaching instructors only: the others' time is not checked). */
function rowOf(e: ScheduleEntry): Record<string, string> {
  const twelve = (minutes: number): string => {
    const hour = Math.floor(minutes / 60);
    return `${String(hour % 12 === 0 ? 12 : hour % 12).padStart(2, '0')}:${String(minutes % 60).padStart(2, '0')} ${hour < 12 ? 'AM' : 'PM'}`;
  };
  const start = Number(e.start_time.slice(0, 2)) * 60 + Number(e.start_time.slice(3));
  return {
    Subject: e.course_code,
    Number: '',
    Section: e.section_name,
    'Part of Term': e.part_of_term,
    'Start Time': twelve(start),
    'End Time': twelve(start + e.duration_mins),
    'Days of Week': e.day,
    Building: '',
    Room: e.room === 'TBD' ? '' : e.room,
    Instructors: e.doctors
      .filter((d) => d.role === 'teaches')
      .map((d) => d.name)
      .join(';'),
  };
}

interface FileMeeting {
  days: string;
  start: number;
  end: number;
}
const clock = (text: string): number => {
  const m = /^(\d{2}):(\d{2}) (AM|PM)$/.exec(text);
  if (!m) return NaN;
  return ((Number(m[1]) % 12) + (m[3] === 'PM' ? 12 : 0)) * 60 + Number(m[2]);
};

describe.skipIf(REAL_2017 === null || REAL_2018 === null)('timetable import: the real registrar timetables', () => {
  it.each([
    ['2017-su', 1575, 473, 58, 445, []],
    // SOC199 AZ lists two rows at one time in two rooms: the section meeting in different weeks, stored with a note.
    ['2018-su', 1593, 492, 50, 469, ['SOC199 section AZ']],
  ])('imports %s: timed rows, joint groups, rows stored, and only real clashes listed', async (name, rows, timed, groups, stored, differentWeeks) => {
    const path = name === '2017-su' ? REAL_2017 : REAL_2018;
    const content = readFileSync(path as string);
    const result = await importOk(`${name}.csv`, content, { dry_run: 'false' });
    expect(result.processed).toBe(rows);
    const fileRows = Papa.parse<Record<string, string>>(content.toString('utf8'), { header: true, skipEmptyLines: true }).data;
    // Rows without a time are sections without a time: one per section that has no timed row (a section over 8 instructors aside).
    const isTimed = (r: Record<string, string>): boolean => (r['Start Time'] ?? '') !== '' && r['Start Time'] !== 'ARRANGED';
    const sectionOf = (r: Record<string, string>): string => `${r.Subject ?? ''}${r.Number ?? ''}|${r.Section || r.CRN || ''}`;
    const timedSections = new Set(fileRows.filter(isTimed).map(sectionOf));
    const untimedSections = new Set(
      fileRows
        .filter((r) => !isTimed(r))
        .map(sectionOf)
        .filter((k) => !timedSections.has(k)),
    );
    const overfull = result.skipped['more than 8 instructors for one meeting (a timetable entry holds at most 8)'] ?? 0;
    expect(Object.keys(result.skipped).filter((reason) => !reason.startsWith('more than 8 instructors'))).toEqual([]);
    expect(result.untimed + overfull).toBe(untimedSections.size);
    expect(result.untimed).toBeLessThanOrEqual(rows - timed);
    expect(result.merged).toBe(0);
    expect(result.joint_groups).toHaveLength(groups);
    expect(result.meetings).toBe(stored);
    expect(result.meetings + result.conflicts.length).toBe(timed);
    expect(result.notes.filter((n) => n.includes('different weeks'))).toEqual(
      differentWeeks.length === 0
        ? []
        : [
            `One section lists rows at overlapping times (${differentWeeks.join(', ')}): read as meeting in different weeks, a note on their meetings and not a clash`,
          ],
    );

    // Every listed conflict is a real clash by this test's own reading of the file and the stored timetable:
    // a stored meeting on a shared day at intersecting times, in the same room or with a teaching instructor in common.
    const entries = await entriesOf(Number(name.slice(0, 4)), 'Summer');
    for (const conflict of result.conflicts) {
      const row = fileRows[conflict.row - 2] as Record<string, string>;
      const meeting: FileMeeting = { days: row['Days of Week'] ?? '', start: clock(row['Start Time'] ?? ''), end: clock(row['End Time'] ?? '') };
      const room = [row.Building, row.Room].filter(Boolean).join(' ');
      const teachers = (row.Instructors ?? '')
        .split(';')
        .map((s) => s.trim())
        .filter(Boolean);
      const clashing = entries.filter((e) => {
        const start = Number(e.start_time.slice(0, 2)) * 60 + Number(e.start_time.slice(3));
        const together = [...e.day].some((d) => meeting.days.includes(d)) && start < meeting.end && meeting.start < start + e.duration_mins;
        const sameRoom = room !== '' && e.room.toLowerCase() === room.toLowerCase();
        const sharedTeacher = e.doctors.some((d) => d.role === 'teaches' && teachers.includes(d.name));
        return together && (sameRoom || sharedTeacher);
      });
      expect(clashing.length, `row ${conflict.row}: ${conflict.detail}`).toBeGreaterThan(0);
    }
  });

  it('stores at least 97 % of the timed meetings without conflict once the summer sessions have their dates, and at least 90 % of the conflicts it lists are real', async () => {
    for (const [name, path] of [
      ['2017-su', REAL_2017],
      ['2018-su', REAL_2018],
    ] as const) {
      const year = Number(name.slice(0, 4));
      for (const part of summerParts(year))
        expect((await server.api('/scheduler/parts', { method: 'POST', json: { year, semester: 'Summer', ...part } })).status).toBe(200);
      const content = readFileSync(path as string);
      const result = await importOk(`${name}.csv`, content);
      const timed = result.meetings + result.totals.conflicts;
      expect(result.meetings / timed, `${name}: ${result.meetings} of ${timed}`).toBeGreaterThanOrEqual(0.97);
      // This test's own reading of each listed conflict and the rows it names.
      const rows = Papa.parse<Record<string, string>>(content.toString('utf8'), { header: true, skipEmptyLines: true }).data;
      const real = result.conflicts.filter((c) =>
        c.with.some((w) => w.row !== null && realClash(rows[c.row - 2] as Record<string, string>, rows[w.row - 2] as Record<string, string>, year)),
      );
      expect(real.length, `${name}: ${real.length} of ${result.conflicts.length} listed conflicts real`).toBeGreaterThanOrEqual(
        Math.ceil(0.9 * result.conflicts.length),
      );
    }
  });

  it('imported department by department, stores no clash across departments and lists each meeting it leaves out', async () => {
    for (const [name, path] of [
      ['2017-su', REAL_2017],
      ['2018-su', REAL_2018],
    ] as const) {
      const year = Number(name.slice(0, 4));
      const content = readFileSync(path as string, 'utf8');
      const parsed = Papa.parse<Record<string, string>>(content, { header: true, skipEmptyLines: true });
      const isTimed = (r: Record<string, string>): boolean => (r['Start Time'] ?? '') !== '' && r['Start Time'] !== 'ARRANGED';
      const timedBySubject = new Map<string, number>();
      for (const r of parsed.data) if (isTimed(r)) timedBySubject.set(r.Subject ?? '', (timedBySubject.get(r.Subject ?? '') ?? 0) + 1);
      // Every subject with at least 12 timed rows a department of its own, the rest one more.
      const departmentOf = (r: Record<string, string>): string => ((timedBySubject.get(r.Subject ?? '') ?? 0) >= 12 ? (r.Subject ?? '') : 'OTHER');
      const departments = [...new Set(parsed.data.map(departmentOf))];
      const asDepartment = (code: string, path: string, init: RequestInit & { json?: unknown } = {}): Promise<Response> =>
        server.api(path, { ...init, headers: { [DEPARTMENT_HEADER]: code } });
      let refusedAcross = 0;
      for (const code of departments) {
        const made = await server.api('/departments', { method: 'POST', json: { code: `${code}${year % 100}`, name: `${code} ${year}` } });
        expect(made.status, await made.clone().text()).toBe(200);
        const department = `${code}${year % 100}`;
        for (const part of summerParts(year))
          expect((await asDepartment(department, '/scheduler/parts', { method: 'POST', json: { year, semester: 'Summer', ...part } })).status).toBe(200);
        const form = new FormData();
        form.append('dry_run', 'false');
        form.append(
          'file',
          new Blob([Papa.unparse({ fields: parsed.meta.fields ?? [], data: parsed.data.filter((r) => departmentOf(r) === code) })]),
          `${code}.csv`,
        );
        const imported = await asDepartment(department, '/scheduler/import', { method: 'POST', body: form });
        expect(imported.status, await imported.clone().text()).toBe(200);
        const result = await json<TimetableImportResult>(imported);
        refusedAcross += result.conflicts.filter((c) => c.with.some((w) => w.entry_id === null && w.row === null)).length;
      }
      // Every stored meeting, of every department, read back as a registrar's row.
      const stored: Record<string, string>[] = [];
      for (const code of departments)
        for (const e of await json<ScheduleEntry[]>(await asDepartment(`${code}${year % 100}`, `/scheduler/?year=${year}&semester=Summer`)))
          stored.push({ department: code, ...rowOf(e) });
      const across: string[] = [];
      for (let i = 0; i < stored.length; i++)
        for (let j = i + 1; j < stored.length; j++) {
          const [a, b] = [stored[i] as Record<string, string>, stored[j] as Record<string, string>];
          if (a.department !== b.department && realClash(a, b, year)) across.push(`${a.Subject ?? ''}${a.Number ?? ''} × ${b.Subject ?? ''}${b.Number ?? ''}`);
        }
      expect(across, `${name}: clashes stored across departments`).toEqual([]);
      // The imports listed the meetings they left out for another department's booking.
      expect(refusedAcross, name).toBeGreaterThan(0);
    }
  });

  it('round-trips: import, export as CSV, import into an empty term gives the same timetable', async () => {
    await importOk('2018-su.csv', readFileSync(REAL_2018 as string), { dry_run: 'false' });
    const original = await entriesOf(2018, 'Summer');
    const exported = await server.api('/scheduler/export?format=csv&year=2018&semester=Summer');
    expect(exported.status).toBe(200);
    expect(exported.headers.get('content-type')).toMatch(/^text\/csv/);
    const csv = new Uint8Array(await exported.arrayBuffer());
    const again = await importOk('export.csv', csv, { dry_run: 'false', year: '2030', semester: 'Fall' });
    expect(again.conflicts).toEqual([]);
    expect(again.created.courses).toEqual([]);
    expect(again.created.doctors).toEqual([]);
    expect(shape(await entriesOf(2030, 'Fall'))).toEqual(shape(original));
  });
});
