import ExcelJS from 'exceljs';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startTestServer, json, sampleFile, type TestServer } from '../helpers/server';
import type { Offering } from '../../core/offerings/schema';

let server: TestServer;
beforeEach(async () => {
  server = await startTestServer();
});
afterEach(async () => {
  await server.close();
});

type Result = { status: string; processed: number; skipped: number; warnings: string[] };
const upload = async (content: string | Uint8Array, filename = 'offerings.csv', fields?: Record<string, string>): Promise<Response> =>
  server.upload('/data/upload/offerings', filename, content, fields);
const offerings = async (): Promise<Offering[]> => json<Offering[]>(await server.api('/data/offerings'));
const strip = (o: Offering): Omit<Offering, 'id' | 'created_at'> => {
  const { id: _id, created_at: _created, ...rest } = o;
  return rest;
};

async function xlsx(rows: unknown[][], sheets: Record<string, unknown[][]> = {}): Promise<Uint8Array> {
  const workbook = new ExcelJS.Workbook();
  const all = { Sheet1: rows, ...sheets };
  for (const [name, data] of Object.entries(all)) {
    const sheet = workbook.addWorksheet(name);
    for (const row of data) sheet.addRow(row);
  }
  return new Uint8Array(await workbook.xlsx.writeBuffer());
}

describe('POST /data/upload/offerings (CSV)', () => {
  it('stores one record with every field of the contract', async () => {
    const response = await upload(
      'course_code,year,semester,campus,total_enrolled,passed_count,failed_count,is_offered\nCSC310,2023,Fall,Beirut,40,30,10,true\n',
    );
    expect(response.status).toBe(200);
    expect(await json(response)).toEqual({ status: 'success', processed: 1, skipped: 0, warnings: [], incomplete_terms: [] });
    const [record] = await offerings();
    expect(record).toEqual({
      id: expect.any(Number) as number,
      year: 2023,
      semester: 'Fall',
      campus: 'Beirut',
      course_code: 'CSC310',
      total_enrolled: 40,
      passed_count: 30,
      failed_count: 10,
      fail_ratio: 0.25,
      is_offered: true,
      created_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z$/) as string,
    });
  });

  it('matches columns ignoring case, spaces, underscores and a BOM, with aliases', async () => {
    const response = await upload(
      '\uFEFFSubject, Course Number ,YR,Term,CAMPUS,Total Enrolled,Failed_Count\ncsc,310,2022,sp,BYBLOS,20,4\nMTH,201,2022,FA,beirut,50,5\n',
    );
    expect(await json(response)).toMatchObject({ status: 'success', processed: 2 });
    expect((await offerings()).map(strip)).toEqual([
      {
        year: 2022,
        semester: 'Spring',
        campus: 'Byblos',
        course_code: 'CSC310',
        total_enrolled: 20,
        passed_count: 16,
        failed_count: 4,
        fail_ratio: 0.2,
        is_offered: true,
      },
      {
        year: 2022,
        semester: 'Fall',
        campus: 'Beirut',
        course_code: 'MTH201',
        total_enrolled: 50,
        passed_count: 45,
        failed_count: 5,
        fail_ratio: 0.1,
        is_offered: true,
      },
    ]);
  });

  it.each([
    ['course', 'course,year\nCSC 201,2020\n'],
    ['course code', 'Course Code,Year\ncsc201,2020\n'],
    ['crse with subj', 'subj,crse,year\nCSC,201,2020\n'],
    ['catalog number with prefix', 'prefix,catalog number,year\nCSC,201,2020\n'],
  ])('accepts the course column as %s', async (_label, csv) => {
    await upload(csv);
    expect((await offerings()).map((o) => o.course_code)).toEqual(['CSC201']);
  });

  it('applies defaults (Fall, Beirut) and the form fields that override them', async () => {
    await upload('course,year,total_enrolled\nCSC201,2020,30\n');
    await upload('course,year,total_enrolled\nCSC202,2020,30\n', 'b.csv', { semester: 'spring', campus: 'Byblos' });
    expect((await offerings()).map((o) => [o.course_code, o.semester, o.campus])).toEqual([
      ['CSC202', 'Spring', 'Byblos'],
      ['CSC201', 'Fall', 'Beirut'],
    ]);
    const bad = await upload('course,year\nCSC203,2020\n', 'c.csv', { campus: 'Tripoli' });
    expect(bad.status).toBe(422);
    expect((await json<{ detail: string }>(bad)).detail).toMatch(/campus/);
  });

  it('derives the missing count and defaults is_offered from the counts', async () => {
    await upload(
      [
        'course,year,semester,total_enrolled,passed_count,failed_count,is_offered',
        'CSC201,2020,Fall,,25,5,',
        'CSC202,2020,Fall,30,,6,',
        'CSC203,2020,Fall,30,20,,',
        'CSC204,2020,Fall,0,,,',
        'CSC205,2020,Fall,,,,',
        'CSC206,2020,Fall,12,,,no',
        'CSC207,2020,Fall,0,0,0,yes',
      ].join('\n'),
    );
    const byCode = Object.fromEntries((await offerings()).map((o) => [o.course_code, [o.total_enrolled, o.passed_count, o.failed_count, o.is_offered]]));
    expect(byCode).toEqual({
      CSC201: [30, 25, 5, true],
      CSC202: [30, 24, 6, true],
      CSC203: [30, 20, 10, true],
      CSC204: [0, 0, 0, false],
      CSC205: [0, 0, 0, true],
      CSC206: [12, 12, 0, false],
      CSC207: [0, 0, 0, true],
    });
    expect((await offerings()).find((o) => o.course_code === 'CSC204')?.fail_ratio).toBe(0);
  });

  it('sums section rows of one course and term, and re-uploading changes nothing', async () => {
    const csv =
      'course,year,semester,campus,section,total_enrolled,failed_count\nCSC201,2021,Fall,Beirut,1,40,4\nCSC201,2021,Fall,Beirut,2,35,7\nCSC201,2021,Spring,Beirut,1,38,2\n';
    expect(await json(await upload(csv))).toMatchObject({ processed: 2 });
    const first = await offerings();
    expect(first.find((o) => o.semester === 'Fall')).toMatchObject({ total_enrolled: 75, failed_count: 11, passed_count: 64 });
    await upload(csv);
    expect(await offerings()).toEqual(first);
  });

  it('keeps Summer rows and normalises semester and campus spellings', async () => {
    await upload('course,year,semester,campus\nCSC201,2021,Summer,Beirut campus\nCSC202,2021,SU,jbeil\nCSC203,2021,Fall 2021,BYB\n');
    expect((await offerings()).map((o) => [o.course_code, o.semester, o.campus])).toEqual([
      ['CSC201', 'Summer', 'Beirut'],
      ['CSC202', 'Summer', 'Byblos'],
      ['CSC203', 'Fall', 'Byblos'],
    ]);
  });

  it('reads the year from a term column when there is no year column ("Fall 2024", "2024-sp", Banner codes), and previews such a file as complete', async () => {
    const csv = 'Course,Term,Enrolled\nCSC201,Fall 2024,30\nCSC202,2025-sp,25\nCSC203,202430,12\nCSC204,Fall,9\n';
    const preview = await json<{ missing: string[] }>(await server.upload('/data/preview', 'report.csv', csv, { kind: 'offerings' }));
    expect(preview.missing).toEqual([]);
    const result = await json<Result>(await upload(csv));
    expect(result).toMatchObject({ status: 'success', processed: 3, skipped: 1 });
    expect(result.warnings).toEqual([expect.stringMatching(/^Row 5: no year \(the term "Fall" names none\)/)]);
    expect((await offerings()).map((o) => [o.course_code, o.year, o.semester]).sort()).toEqual([
      ['CSC201', 2024, 'Fall'],
      ['CSC202', 2025, 'Spring'],
      ['CSC203', 2024, 'Summer'],
    ]);
    // Without a year or a term column the file is refused, naming both ways to give the year.
    const refused = await upload('Course,Enrolled\nCSC201,30\n');
    expect(refused.status).toBe(400);
    expect((await json<{ detail: string }>(refused)).detail).toContain('year (or "yr", or a term column such as "Fall 2024")');
  });

  it('skips unusable rows and names row and reason', async () => {
    const response = await upload(
      'course,year,semester,campus,total_enrolled,passed_count,failed_count\nCSC201,20x1,Fall,Beirut,1,1,0\n???,2021,Fall,Beirut,1,1,0\nCSC202,2021,Winter,Beirut,1,1,0\nCSC203,2021,Fall,Tripoli,1,1,0\nCSC204,2021,Fall,Beirut,-3,,\nCSC205,2021,Fall,Beirut,10,8,5\nCSC206,2021,Fall,Beirut,10,8,2\n',
    );
    const result = await json<Result>(response);
    expect(result).toMatchObject({ status: 'success', processed: 1, skipped: 6 });
    expect(result.warnings).toEqual([
      expect.stringMatching(/^Row 2: year "20x1"/),
      expect.stringMatching(/^Row 3: "\?\?\?" is not a course code/),
      expect.stringMatching(/^Row 4: semester "Winter"/),
      expect.stringMatching(/^Row 5: campus "Tripoli"/),
      expect.stringMatching(/^Row 6: total count is not a whole number/),
      expect.stringMatching(/^Row 7: passed \(8\) plus failed \(5\) exceeds total enrolled \(10\)/),
    ]);
  });

  it('caps warnings at 50', async () => {
    const rows = Array.from({ length: 120 }, (_, i) => `x${i},2021`).join('\n');
    const result = await json<Result>(await upload(`course,year\n${rows}\nCSC201,2021\n`));
    expect(result).toMatchObject({ status: 'success', processed: 1, skipped: 120 });
    expect(result.warnings).toHaveLength(50);
    expect(result.warnings[49]).toMatch(/and 71 more/);
  });

  it('refuses (400) a file whose every row is skipped, naming the reason, and writes nothing', async () => {
    const one = await upload('course,year\nnope,2021\n');
    expect(one.status).toBe(400);
    expect((await json<{ detail: string }>(one)).detail).toBe(
      'Nothing was imported: its one row was skipped for the same reason (row 2: "nope" is not a course code)',
    );
    // Every row without a year anywhere: one reason, named once with the first row.
    const noYear = await upload('course,year\nCSC201,\nCSC202,\nCSC203,soon\nCSC204,later\n');
    expect(noYear.status).toBe(400);
    const words = (await json<{ detail: string }>(noYear)).detail;
    expect(words).toMatch(/^Nothing was imported: all 4 rows were skipped \(2 × row 2: no year; 2 × row 4: year "soon" is not a year\)$/);
    const sameReason = await upload('course,year\nCSC201,\nCSC202,\n');
    expect((await json<{ detail: string }>(sameReason)).detail).toBe('Nothing was imported: all 2 rows were skipped for the same reason (row 2: no year)');
    expect(await offerings()).toEqual([]);
  });

  it('refuses a file without the year or course column, naming the column', async () => {
    const noYear = await upload('course,total_enrolled\nCSC201,30\n');
    expect(noYear.status).toBe(400);
    expect((await json<{ detail: string }>(noYear)).detail).toMatch(/missing the required column year/);
    // A term column may carry the year; a row whose term names none is skipped with that reason.
    const termWithoutYear = await upload('course,semester\nCSC201,Fall\n');
    expect(termWithoutYear.status).toBe(400);
    expect((await json<{ detail: string }>(termWithoutYear)).detail).toContain('no year (the term "Fall" names none)');
    const noCourse = await upload('year,semester,prefix\n2020,Fall,CSC\n');
    expect(noCourse.status).toBe(400);
    expect((await json<{ detail: string }>(noCourse)).detail).toMatch(/course code/);
    const wrongType = await upload('{}', 'offerings.json');
    expect(wrongType.status).toBe(400);
    expect(await offerings()).toEqual([]);
  });

  it('imports the sample offerings CSV', async () => {
    const result = await json<Result>(await upload(sampleFile('offerings.csv')));
    expect(result).toMatchObject({ status: 'success', skipped: 0 });
    expect(result.processed).toBeGreaterThan(1500);
    expect(await offerings()).toHaveLength(result.processed);
  });
});

describe('POST /data/upload/offerings (XLSX)', () => {
  it('normalises a report: header below titles, carried-down groups, totals skipped, every sheet', async () => {
    const file = await xlsx(
      [
        ['Enrollment report'],
        ['Printed 2024-01-10'],
        [],
        ['Year', 'Term', 'Campus', 'Subject', 'Crse', 'Section', 'Enrolled', 'Failed'],
        [2023, 'Fall', 'Beirut', 'CSC', '201', '1', 40, 4],
        [null, null, null, 'CSC', '201', '2', 30, 3],
        [null, 'Spring', null, 'MTH', '101', '1', 60, 12],
        ['', '', '', 'Subtotal', '', '', 130, 19],
        [],
        ['Grand Total', '', '', '', '', '', 130, 19],
      ],
      { Byblos: [['Byblos campus'], ['Year', 'Term', 'Campus', 'Course', 'Enrolled'], [2023, 'Fall', 'Byblos', 'STA 201', 22]] },
    );
    const result = await json<Result>(await upload(file, 'report.xlsx'));
    expect(result).toEqual({ status: 'success', processed: 3, skipped: 0, warnings: [], incomplete_terms: [] });
    expect((await offerings()).map((o) => [o.course_code, o.year, o.semester, o.campus, o.total_enrolled, o.failed_count])).toEqual([
      ['MTH101', 2023, 'Spring', 'Beirut', 60, 12],
      ['CSC201', 2023, 'Fall', 'Beirut', 70, 7],
      ['STA201', 2023, 'Fall', 'Byblos', 22, 0],
    ]);
  });

  it('falls back to a plain read of the first sheet when no report header is found', async () => {
    const file = await xlsx([
      ['YR', 'Unknown'],
      [2020, 'x'],
    ]);
    const response = await upload(file, 'plain.xlsx');
    expect(response.status).toBe(400);
    expect((await json<{ detail: string }>(response)).detail).toMatch(/course code/);
  });

  it('refuses a file that is not a workbook', async () => {
    const response = await upload('this is not a zip', 'broken.xlsx');
    expect(response.status).toBe(400);
    expect((await json<{ detail: string }>(response)).detail).toMatch(/not a readable Excel workbook/);
  });

  it('gives the same records from the report-style sample XLSX as from the sample CSV', async () => {
    const fromXlsx = await json<Result>(await upload(sampleFile('offerings.xlsx'), 'offerings.xlsx'));
    expect(fromXlsx).toMatchObject({ status: 'success', skipped: 0 });
    const xlsxRecords = (await offerings()).map(strip);
    const other = await startTestServer();
    try {
      await other.upload('/data/upload/offerings', 'offerings.csv', sampleFile('offerings.csv'));
      const csvRecords = (await json<Offering[]>(await other.api('/data/offerings'))).map(strip);
      expect(xlsxRecords).toEqual(csvRecords);
    } finally {
      await other.close();
    }
  });
});
