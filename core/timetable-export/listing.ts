import Papa from 'papaparse';
import { formatHHMM, parseHHMM } from '../domain/time';
import { TBD_ROOM } from '../domain/meetings';
import type { PartOfTerm } from '../domain/parts';
import type { ScheduleEntry } from '../timetable';

/** The CSV export's columns: spellings the timetable import reads, so an export re-imports to the same timetable. */
export const LISTING_HEADERS = [
  'Year',
  'Term',
  'Course',
  'Section',
  'Part of Term',
  'Start Date',
  'End Date',
  'Days of Week',
  'Start Time',
  'End Time',
  'Location',
  'Instructors',
  'Instructor Roles',
  'Joint Group',
  'Campus',
] as const;

const bySection = new Intl.Collator('en', { numeric: true, sensitivity: 'base' });

/** A term's timetable as a registrar-style listing: one row per meeting, times as booked (24-hour). */
export function exportListingCsv(entries: readonly ScheduleEntry[], parts: ReadonlyMap<string, PartOfTerm>): Uint8Array {
  const sorted = [...entries].sort(
    (a, b) => bySection.compare(a.course_code, b.course_code) || bySection.compare(a.section_name, b.section_name) || a.id - b.id,
  );
  const data = sorted.map((e) => {
    const start = parseHHMM(e.start_time) ?? 0;
    const part = parts.get(e.part_of_term);
    return [
      e.year,
      e.semester,
      e.course_code,
      e.section_name,
      e.part_of_term,
      part?.start_date ?? '',
      part?.end_date ?? '',
      e.day,
      formatHHMM(start),
      formatHHMM(start + e.duration_mins),
      e.room === TBD_ROOM ? '' : e.room,
      e.doctors.map((d) => d.name).join('; '),
      e.doctors.map((d) => d.role).join('; '),
      e.joint_group ?? '',
      e.campus,
    ];
  });
  // Cells a spreadsheet would run as formulas (=, +, -, @ …) are written as text; the import reads them back.
  const text = Papa.unparse({ fields: [...LISTING_HEADERS], data }, { escapeFormulae: true });
  return new TextEncoder().encode(`\uFEFF${text}\n`);
}
