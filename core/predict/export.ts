import { excel } from '../excel';
import Papa from 'papaparse';
import type { FileResult } from '../domain/file-result';
import { CONTENT_TYPES } from '../util/content-types';
import type { PredictionRun } from './schema';
import { xmlSafe } from '../domain/bounds';

const COLUMNS = [
  'Rank',
  'Course Code',
  'Course Name',
  'Types',
  'Offer',
  // The model's confidence that the course should be offered, out of 100 (the JSON's `confidence` is the same, out of 1).
  'Offer Score (0–100)',
  'Predicted Enrollment',
  'Projected Sections',
  // latent_demand and bottleneck_score, in words: who is ready to take it, and how much of the plan waits on it.
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
] as const;

/** Text from the data (names, codes, reasons) without characters a spreadsheet's XML cannot hold. */
function rows(run: PredictionRun): (string | number)[][] {
  return run.entries.map((e, i) => [
    i + 1,
    xmlSafe(e.course_code),
    xmlSafe(e.course_name),
    xmlSafe(e.types.join(', ')),
    e.offer ? 'yes' : 'no',
    e.offer_score,
    e.predicted_enrollment,
    e.projected_sections,
    e.latent_demand,
    e.bottleneck_score,
    xmlSafe(e.reasons.join('; ')),
    e.enrollment_low ?? '',
    e.enrollment_high ?? '',
    e.section_size,
    e.staff_decision ?? '',
    e.staff_sections ?? '',
    xmlSafe(e.staff_reason ?? ''),
    e.planned_offer ? 'yes' : 'no',
    e.planned_sections,
  ]);
}

function baseName(run: PredictionRun): string {
  return `termwise_run_${run.id}_${run.target_campus}_${run.target_semester}_${run.target_year}`.replace(/[^A-Za-z0-9_-]/g, '_');
}

/** A saved run as a spreadsheet or CSV, in ranked order. */
export async function exportRun(run: PredictionRun, format: 'xlsx' | 'csv'): Promise<FileResult> {
  if (format === 'csv') {
    // Cells that a spreadsheet would run as formulas (=, +, -, @ …) are written as text.
    const text = Papa.unparse({ fields: [...COLUMNS], data: rows(run) }, { escapeFormulae: true });
    return { filename: `${baseName(run)}.csv`, contentType: CONTENT_TYPES.csv, content: new TextEncoder().encode(`\uFEFF${text}\n`) };
  }
  const workbook = new (await excel()).Workbook();
  workbook.creator = 'Termwise';
  const sheet = workbook.addWorksheet('Recommendations', { views: [{ state: 'frozen', ySplit: 1 }] });
  sheet.addRow([...COLUMNS]);
  sheet.getRow(1).font = { bold: true };
  for (const row of rows(run)) sheet.addRow(row);
  [6, 14, 36, 20, 7, 11, 12, 12, 22, 22, 90, 12, 12, 10, 10, 10, 40, 10, 10].forEach((width, i) => (sheet.getColumn(i + 1).width = width));
  sheet.autoFilter = { from: { row: 1, column: 1 }, to: { row: run.entries.length + 1, column: COLUMNS.length } };
  if (run.term_notes.length > 0 || run.caveats.length > 0) {
    const notes = workbook.addWorksheet('Notes');
    for (const [title, lines] of [
      ['What staff recorded of the term', run.term_notes],
      ['What this run could not take into account', run.caveats],
    ] as const) {
      if (lines.length === 0) continue;
      notes.addRow([title]).font = { bold: true };
      for (const line of lines) notes.addRow([xmlSafe(line)]);
      notes.addRow([]);
    }
    notes.getColumn(1).width = 140;
  }
  return { filename: `${baseName(run)}.xlsx`, contentType: CONTENT_TYPES.xlsx, content: new Uint8Array(await workbook.xlsx.writeBuffer()) };
}
