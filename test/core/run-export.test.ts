import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import ExcelJS from 'exceljs';
import Papa from 'papaparse';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCore, type Core } from '../../core/index';
import type { PredictionRun } from '../../core/predict/schema';

let dir: string;
let core: Core;
let run: PredictionRun;
beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'termwise-export-'));
  core = await createCore({ dataDir: dir });
  await core.run('sample-load', {});
  // A course whose name a spreadsheet would run as a formula, as a hostile catalog could hold.
  await core.run('courses-upload', {
    file: {
      filename: 'c.json',
      content: new TextEncoder().encode(JSON.stringify([{ code: 'CSC999', name: '=HYPERLINK("http://x","click")', type: 'elective' }])),
    },
  });
  run = await core.run('predict-bulk', { run_name: 'Spring plan', target_year: 2025, target_semester: 'Spring', target_campus: 'Byblos' });
});
afterAll(async () => {
  await core.close();
  rmSync(dir, { recursive: true, force: true });
});

const HEADER = [
  'Rank',
  'Course Code',
  'Course Name',
  'Types',
  'Offer',
  'Offer Score (0–100)',
  'Predicted Enrollment',
  'Projected Sections',
  'Students Ready (passed its prerequisites in the last two terms, plus incoming)',
  'Courses That Require It (directly or through others)',
  'Reasons',
  'Enrollment Low (80 %)',
  'Enrollment High (80 %)',
  'Seats per Section',
  'Staff Decision',
  'Staff Sections',
  'Staff Reason',
  'Planned Offer',
  'Planned Sections',
];

describe('saved run export', () => {
  it('writes the run as CSV in ranked order, one row per course, formulas as text', async () => {
    const file = await core.run('predict-run-export', { run_id: run.id, format: 'csv' });
    expect(file.filename).toBe(`termwise_run_${run.id}_Byblos_Spring_2025.csv`);
    expect(file.contentType).toMatch(/^text\/csv/);
    const text = new TextDecoder('utf-8', { ignoreBOM: true }).decode(file.content);
    expect(text.startsWith('\uFEFF')).toBe(true);
    const rows = Papa.parse<string[]>(text.slice(1).trim()).data;
    expect(rows[0]).toEqual(HEADER);
    expect(rows).toHaveLength(run.entries.length + 1);
    run.entries.forEach((entry, i) => {
      const row = rows[i + 1] ?? [];
      expect(row.slice(0, 2)).toEqual([String(i + 1), entry.course_code]);
      expect(row[4]).toBe(entry.offer ? 'yes' : 'no');
      expect(Number(row[6])).toBe(entry.predicted_enrollment);
      expect(row.slice(11, 14).map(Number)).toEqual([entry.enrollment_low, entry.enrollment_high, entry.section_size]);
      // No staff decision yet: the plan is the model's.
      expect(row.slice(14)).toEqual(['', '', '', entry.offer ? 'yes' : 'no', String(entry.projected_sections)]);
    });
    const hostile = rows.find((row) => row[1] === 'CSC999');
    expect(hostile?.[2]).toBe(`'=HYPERLINK("http://x","click")`);
  });

  it('writes the run as a workbook with a frozen, filterable header', async () => {
    const file = await core.run('predict-run-export', { run_id: run.id, format: 'xlsx' });
    expect(file.filename).toBe(`termwise_run_${run.id}_Byblos_Spring_2025.xlsx`);
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(Buffer.from(file.content) as unknown as ArrayBuffer);
    const sheet = workbook.getWorksheet('Recommendations');
    expect(sheet).toBeDefined();
    if (!sheet) return;
    expect((sheet.getRow(1).values as unknown[]).slice(1)).toEqual(HEADER);
    expect(sheet.rowCount).toBe(run.entries.length + 1);
    expect(sheet.views[0]).toMatchObject({ state: 'frozen', ySplit: 1 });
    expect(sheet.autoFilter).toBeTruthy();
    const offered = run.entries.filter((e) => e.offer).length;
    let yes = 0;
    sheet.eachRow((row, n) => {
      if (n > 1 && row.getCell(5).value === 'yes') yes++;
    });
    expect(yes).toBe(offered);
    // Stored as text, never as a formula cell.
    const hostile = sheet.getRows(2, run.entries.length)?.find((row) => row.getCell(2).value === 'CSC999');
    expect(hostile?.getCell(3).value).toBe('=HYPERLINK("http://x","click")');
    expect(hostile?.getCell(3).formula).toBeUndefined();
  });

  it('refuses an unknown run or format', async () => {
    await expect(core.run('predict-run-export', { run_id: 999_999, format: 'csv' })).rejects.toMatchObject({ code: 'not_found' });
    await expect(core.run('predict-run-export', { run_id: run.id, format: 'pdf' as 'csv' })).rejects.toMatchObject({ code: 'validation' });
  });
});
