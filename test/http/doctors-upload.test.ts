import ExcelJS from 'exceljs';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startTestServer, json, sampleFile, type TestServer } from '../helpers/server';
import type { Doctor } from '../../core/faculty/schema';

let server: TestServer;
beforeEach(async () => {
  server = await startTestServer();
});
afterEach(async () => {
  await server.close();
});

const upload = (content: string | Uint8Array, filename: string): Promise<Response> => server.upload('/data/upload/doctors', filename, content);
const doctors = async (): Promise<Doctor[]> => json<Doctor[]>(await server.api('/scheduler/doctors'));

describe('POST /data/upload/doctors', () => {
  it('reads a JSON array with the upload names days/start/end', async () => {
    const response = await upload(
      JSON.stringify([{ name: 'Dr. Rana Haddad', allowed_courses: 'csc310, CSC 311', days: 'MWF', start: '8:00', end: '14:00' }]),
      'doctors.json',
    );
    expect(await json(response)).toEqual({ status: 'success', processed: 1, skipped: 0, warnings: [] });
    expect(await doctors()).toEqual([
      {
        id: expect.any(Number) as number,
        name: 'Dr. Rana Haddad',
        allowed_courses: '["CSC310","CSC311"]',
        available_days: 'MWF',
        available_time: '08:00-14:00',
      },
    ]);
  });

  it('reads {"doctors": [...]}, {"faculty": [...]} and an object keyed by name', async () => {
    await upload(JSON.stringify({ doctors: [{ name: 'A One', allowed_courses: ['MTH101'] }] }), 'a.json');
    await upload(
      JSON.stringify({ faculty: [{ doctor_name: 'B Two', allowed_courses: '["STA201"]', available_days: 'TR', available_time: '09:30-17:00' }] }),
      'b.json',
    );
    await upload(JSON.stringify({ 'C Three': { allowed_courses: ['BIF201'], days: 'Mon, Wed', start: '1:00 PM', end: '5pm' } }), 'c.json');
    expect((await doctors()).map((d) => [d.name, d.allowed_courses, d.available_days, d.available_time])).toEqual([
      ['A One', '["MTH101"]', null, null],
      ['B Two', '["STA201"]', 'TR', '09:30-17:00'],
      ['C Three', '["BIF201"]', 'MW', '13:00-17:00'],
    ]);
  });

  it('reads CSV with name aliases and upserts by name, ignoring case and spaces', async () => {
    await upload('professor,allowed_courses,days,start,end\nDr. Maya Khoury,"CSC201, CSC202",TR,09:00,12:00\n', 'doctors.csv');
    await upload('doctor_name,allowed_courses\n  dr. maya   KHOURY ,CSC310\n', 'again.csv');
    expect(await doctors()).toEqual([
      { id: expect.any(Number) as number, name: 'dr. maya KHOURY', allowed_courses: '["CSC310"]', available_days: null, available_time: null },
    ]);
  });

  it('reads XLSX with Excel times', async () => {
    const workbook = new ExcelJS.Workbook();
    const sheet = workbook.addWorksheet('Faculty');
    sheet.addRow(['Faculty list 2024']);
    sheet.addRow(['Name', 'Allowed Courses', 'Days', 'Start', 'End']);
    sheet.addRow(['Dr. Fadi Rizk', 'MTH201, MTH202', 'MTWR', 8 / 24, 16.5 / 24]);
    const file = new Uint8Array(await workbook.xlsx.writeBuffer());
    expect(await json(await upload(file, 'faculty.xlsx'))).toMatchObject({ status: 'success', processed: 1 });
    expect(await doctors()).toMatchObject([
      { name: 'Dr. Fadi Rizk', allowed_courses: '["MTH201","MTH202"]', available_days: 'MTWR', available_time: '08:00-16:30' },
    ]);
  });

  it('keeps a record with a course code it cannot read (warned), and leaves out one whose hours it cannot read, saying why', async () => {
    const result = await json<{ status: string; processed: number; skipped: number; warnings: string[] }>(
      await upload('name,allowed_courses,days,start,end\nDr. X,"CSC201, banana",MW,09:00,12:00\nDr. Y,CSC201,XYZ,10:00,09:00\n,CSC201,,,\n', 'd.csv'),
    );
    expect(result).toMatchObject({ status: 'success', processed: 1, skipped: 2 });
    expect(result.warnings).toEqual([
      expect.stringMatching(/Dr\. X.*"banana" is not a course code/),
      expect.stringMatching(/^Row 3: Dr\. Y: days "XYZ" are not day letters.*; availability ends \(09:00\) before it starts \(10:00\); fix the hours/),
      expect.stringMatching(/^Row 4: no name/),
    ]);
    expect(await doctors()).toMatchObject([{ name: 'Dr. X', allowed_courses: '["CSC201"]', available_days: 'MW', available_time: '09:00-12:00' }]);
  });

  it('answers success even for an empty list, and 400 for unreadable files', async () => {
    expect(await json(await upload('[]', 'd.json'))).toMatchObject({ status: 'success', processed: 0 });
    const noName = await upload('teacher,courses\nX,CSC201\n', 'd.csv');
    expect(noName.status).toBe(400);
    expect((await json<{ detail: string }>(noName)).detail).toMatch(/required column name/);
    expect((await upload('{oops', 'd.json')).status).toBe(400);
    expect((await upload('name\nX', 'd.txt')).status).toBe(400);
  });

  it('loads the sample doctors', async () => {
    const result = await json<{ processed: number; skipped: number }>(await upload(sampleFile('doctors.csv'), 'doctors.csv'));
    expect(result).toMatchObject({ processed: 30, skipped: 0 });
    const list = await doctors();
    expect(list.every((d) => (JSON.parse(d.allowed_courses) as string[]).length >= 3)).toBe(true);
  });
});
