import ExcelJS from 'exceljs';
import { formatHHMM, parseHHMM } from '../domain/time';
import type { ScheduleEntry } from './schema';
import { xmlSafe } from '../domain/bounds';

export const EXPORT_FILENAME = 'service_final_schedule.xlsx';
export const EXPORT_SHEET = 'Final Schedule';
export const EXPORT_HEADERS = ['Days Pattern', 'Course Code', 'Section Name', 'Instructor', 'Start Time', 'End Time', 'Room'] as const;
export const XLSX_CONTENT_TYPE = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

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

export async function exportScheduleXlsx(entries: readonly ScheduleEntry[]): Promise<Uint8Array> {
  const workbook = new ExcelJS.Workbook();
  workbook.creator = 'Termwise';
  const sheet = workbook.addWorksheet(EXPORT_SHEET, { views: [{ state: 'frozen', ySplit: 1 }] });
  sheet.columns = [
    { header: EXPORT_HEADERS[0], key: 'day', width: 14 },
    { header: EXPORT_HEADERS[1], key: 'course', width: 16 },
    { header: EXPORT_HEADERS[2], key: 'section', width: 14 },
    { header: EXPORT_HEADERS[3], key: 'instructor', width: 28 },
    { header: EXPORT_HEADERS[4], key: 'start', width: 11 },
    { header: EXPORT_HEADERS[5], key: 'end', width: 11 },
    { header: EXPORT_HEADERS[6], key: 'room', width: 16 },
  ];
  sheet.getRow(1).font = { bold: true };
  const sorted = [...entries].sort((a, b) => bySection.compare(a.course_code, b.course_code) || bySection.compare(a.section_name, b.section_name));
  for (const entry of sorted) {
    const start = parseHHMM(entry.start_time) ?? 0;
    sheet.addRow({
      day: entry.day,
      course: xmlSafe(entry.course_code),
      section: xmlSafe(entry.section_name),
      instructor: xmlSafe(entry.doctor?.name ?? ''),
      start: formatHHMM(start),
      end: formatHHMM(start + effectiveDuration(entry.day, entry.duration_mins)),
      room: xmlSafe(entry.room),
    });
  }
  for (const column of ['E', 'F']) sheet.getColumn(column).numFmt = '@';
  sheet.autoFilter = { from: { row: 1, column: 1 }, to: { row: Math.max(1, sorted.length + 1), column: EXPORT_HEADERS.length } };
  return new Uint8Array((await workbook.xlsx.writeBuffer()));
}
