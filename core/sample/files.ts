import { excel } from '../excel';
import Papa from 'papaparse';
import { SAMPLE_CAMPUSES, type SampleData, type SampleSection } from './generate';

/** The sample data in the file formats schedulers upload. */
export function coursesJson(data: SampleData): string {
  return `${JSON.stringify({ courses: data.courses }, null, 2)}\n`;
}

export function offeringsCsv(data: SampleData): string {
  return `${Papa.unparse(
    data.offerings.map((o) => ({ ...o })),
    { columns: ['course_code', 'year', 'semester', 'campus', 'total_enrolled', 'passed_count', 'failed_count', 'is_offered'] },
  )}\n`;
}

export function doctorsCsv(data: SampleData): string {
  return `${Papa.unparse(data.doctors.map((d) => ({ name: d.name, allowed_courses: d.allowed_courses.join(', '), days: d.days, start: d.start, end: d.end })))}\n`;
}

export function roomsCsv(data: SampleData): string {
  return `${Papa.unparse(data.rooms.map((r) => ({ name: r.name, capacity: r.capacity, campus: r.campus })))}\n`;
}

const TERM_ORDER = { Spring: 0, Summer: 1, Fall: 2 } as const;

/**
 * An institutional report: one sheet per campus with title lines, a header row below them,
 * one row per section, grouping cells (year merged; term and campus left blank) carried down,
 * a subtotal after each term and a grand total at the end.
 */
export async function offeringsReportXlsx(sections: readonly SampleSection[]): Promise<Uint8Array> {
  const workbook = new (await excel()).Workbook();
  workbook.creator = 'Registrar — sample data';
  workbook.created = workbook.modified = new Date('2025-01-01T00:00:00Z');
  for (const campus of SAMPLE_CAMPUSES) {
    const rows = sections
      .filter((s) => s.campus === campus)
      .sort(
        (a, b) =>
          a.year - b.year ||
          TERM_ORDER[a.semester] - TERM_ORDER[b.semester] ||
          a.course_code.localeCompare(b.course_code) ||
          a.section.localeCompare(b.section),
      );
    const sheet = workbook.addWorksheet(`${campus} enrollment`);
    sheet.addRow(['Faculty of Arts and Sciences — Course Enrollment Report']);
    sheet.addRow([`Campus: ${campus}`]);
    sheet.addRow(['Source: Office of the Registrar. One row per section.']);
    sheet.addRow([]);
    sheet.addRow(['Academic Year', 'Term', 'Campus', 'Subject', 'Catalog Number', 'Section', 'Enrolled', 'Passed', 'Failed']);
    let groupKey = '';
    let groupStart = 0;
    let sub = { enrolled: 0, passed: 0, failed: 0 };
    const total = { enrolled: 0, passed: 0, failed: 0 };
    const closeGroup = (): void => {
      if (groupKey === '') return;
      const end = sheet.rowCount;
      if (end > groupStart) sheet.mergeCells(groupStart, 1, end, 1);
      sheet.addRow(['', '', '', 'Subtotal', '', '', sub.enrolled, sub.passed, sub.failed]);
      sub = { enrolled: 0, passed: 0, failed: 0 };
    };
    for (const s of rows) {
      const key = `${s.year}|${s.semester}`;
      const first = key !== groupKey;
      if (first) {
        closeGroup();
        groupKey = key;
      }
      // Cross-listed codes stay whole in the subject column; others split into subject and number.
      const m = s.course_code.includes('/') ? null : /^([A-Z]+)(.+)$/.exec(s.course_code);
      const subject = m?.[1] ?? s.course_code;
      const number = m?.[2] ?? '';
      const row = sheet.addRow([
        first ? s.year : null,
        first ? s.semester : null,
        first ? campus : null,
        subject,
        number,
        s.section,
        s.total_enrolled,
        s.passed_count,
        s.failed_count,
      ]);
      if (first) groupStart = row.number;
      for (const sum of [sub, total]) {
        sum.enrolled += s.total_enrolled;
        sum.passed += s.passed_count;
        sum.failed += s.failed_count;
      }
    }
    closeGroup();
    sheet.addRow([]);
    sheet.addRow(['Grand Total', '', '', '', '', '', total.enrolled, total.passed, total.failed]);
  }
  const buffer = await workbook.xlsx.writeBuffer();
  return new Uint8Array(buffer);
}
