import { termLabel } from '../domain/terms';
import type ExcelJS from 'exceljs';
import { excel } from '../excel';
import { formatHHMM, parseHHMM } from '../domain/time';
import type { ScheduleEntry } from '../timetable';
import { xmlSafe } from '../domain/bounds';

export const EXPORT_FILENAME = 'service_final_schedule.xlsx';
export const EXPORT_SHEET = 'Final Schedule';
export const EXPORT_HEADERS = ['Days Pattern', 'Course Code', 'Section Name', 'Instructor', 'Start Time', 'End Time', 'Room'] as const;

/**
 * Class time as printed on the schedule: a 60-minute MWF slot is a 50-minute class and a
 * 90-minute TR slot a 75-minute class (the rest is passing time); anything else as booked.
 */
export function effectiveDuration(day: string, durationMins: number): number {
  if (day === 'MWF' && durationMins === 60) return 50;
  if (day === 'TR' && durationMins === 90) return 75;
  return durationMins;
}

const bySection = new Intl.Collator('en', { numeric: true, sensitivity: 'base' });

/** With `details`, the sheet adds what a term's timetable holds beyond the contract's seven columns. */
export const DETAILS_HEADERS = [...EXPORT_HEADERS, 'Term', 'Part of Term', 'Joint Group', 'Campus', 'Course Name'] as const;
const WIDTHS = [14, 16, 14, 28, 11, 11, 16, 13, 12, 16, 12, 36];

function addSheet(workbook: ExcelJS.Workbook, name: string, headers: readonly string[], rows: readonly (string | number)[][]): void {
  const sheet = workbook.addWorksheet(name, { views: [{ state: 'frozen', ySplit: 1 }] });
  sheet.addRow([...headers]);
  sheet.getRow(1).font = { bold: true };
  for (const row of rows) sheet.addRow(row.slice(0, headers.length));
  headers.forEach((_, i) => (sheet.getColumn(i + 1).width = WIDTHS[i] ?? 12));
  // Times stay text ("09:00"), never a spreadsheet's fraction of a day.
  for (const column of ['E', 'F']) sheet.getColumn(column).numFmt = '@';
  sheet.autoFilter = { from: { row: 1, column: 1 }, to: { row: Math.max(1, rows.length + 1), column: headers.length } };
}

/**
 * The timetable as the registrar receives it: the contract's "Final Schedule" sheet, seven columns,
 * one row per meeting (each member of a joint group has its own row; a team-taught section lists
 * every instructor, the first one first). `details` adds term, part of term, joint group, campus and
 * the course's name (from `courseNames`, the catalog's).
 */
export async function exportScheduleXlsx(
  entries: readonly ScheduleEntry[],
  details = false,
  courseNames: ReadonlyMap<string, string> = new Map(),
): Promise<Uint8Array> {
  const workbook = new (await excel()).Workbook();
  workbook.creator = 'Termwise';
  const sorted = [...entries].sort(
    (a, b) => bySection.compare(a.course_code, b.course_code) || bySection.compare(a.section_name, b.section_name) || a.id - b.id,
  );
  const rows = sorted.map((entry) => {
    const start = parseHHMM(entry.start_time) ?? 0;
    return [
      entry.day,
      xmlSafe(entry.course_code),
      xmlSafe(entry.section_name),
      xmlSafe(entry.doctors.map((d) => d.name).join('; ')),
      formatHHMM(start),
      formatHHMM(start + effectiveDuration(entry.day, entry.duration_mins)),
      xmlSafe(entry.room),
      termLabel(entry),
      xmlSafe(entry.part_of_term),
      xmlSafe(entry.joint_group ?? ''),
      xmlSafe(entry.campus),
      xmlSafe(courseNames.get(entry.course_code) ?? ''),
    ];
  });
  addSheet(workbook, EXPORT_SHEET, details ? DETAILS_HEADERS : EXPORT_HEADERS, rows);
  return new Uint8Array(await workbook.xlsx.writeBuffer());
}
