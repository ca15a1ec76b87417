import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { CoreContext } from '../context';
import { CoreError, invalid } from '../domain/errors';
import type { UploadedFile } from '../import/files';
import type { FileResult } from '../domain/file-result';
import { checkStoredModels } from '../predict';
import { echo, LIMITS } from '../domain/bounds';
import { MAX_DECIDED_SECTIONS } from '../domain/decisions';
import { CONTENT_TYPES } from '../util/content-types';
import {
  appliedMigrations,
  backupBytes,
  currentMigrations,
  firstNonListRow,
  firstRowBreaking,
  firstWrongStorage,
  openUntrusted,
  quickCheck,
  referenceSchema,
  replaceAllRows,
  schemaObjects,
  tableColumns,
  tableNames,
  type SchemaObject,
  type Migration,
} from './backup-repo';
import type { SqliteHandle } from '../db/sqlite-store';
import { refreshStatistics } from '../db/versions';
import { DATA_TABLES } from '../db/tables';
import { PLANNED_SEMESTERS, SEMESTERS, semestersInWords, YEARS } from '../domain/terms';

/** A consistent copy of the data, as a SQLite file whichever store holds it (restorable on either). */
export async function backupDatabase(ctx: CoreContext): Promise<FileResult> {
  const content = await backupBytes(ctx.store);
  const stamp = ctx.now().toISOString().slice(0, 10);
  return { filename: `termwise-backup-${stamp}.db`, contentType: CONTENT_TYPES.sqlite, content };
}

/** Columns that hold JSON-array text, checked in a backup before it replaces anything. */
const JSON_LIST_COLUMNS: readonly [table: string, column: string][] = [
  ['courses', 'prerequisites'],
  ['department_doctors', 'allowed_courses'],
  ['models', 'features'],
  ['prediction_entries', 'types'],
  ['prediction_entries', 'reasons'],
];

/** The storage classes SQLite may hold in a column of each declared type. */
const STORAGE_CLASSES: Record<string, readonly string[]> = {
  INTEGER: ['integer'],
  REAL: ['real', 'integer'],
  TEXT: ['text'],
  BLOB: ['blob'],
};

/** A storage class or declared type in words. */
const KIND_WORDS: Record<string, string> = { integer: 'a whole number', real: 'a number', text: 'text', blob: 'binary data' };

const YEAR = `BETWEEN ${YEARS.min} AND ${YEARS.max}`;
const A_YEAR = `a year (${YEARS.min}–${YEARS.max})`;
const inList = (values: readonly string[]): string => `IN (${values.map((v) => `'${v}'`).join(', ')})`;
const ENROLLMENT = `BETWEEN 0 AND ${LIMITS.maxEnrollment}`;
const SHARE = 'BETWEEN 0 AND 1';
const SEMESTER = inList(SEMESTERS);
/** A real date (or date-time): SQLite's own reading of it gives it back. */
const dateSql = (column: string): string => `date(${column}) = substr(${column}, 1, 10)`;

/**
 * What the code reads each value as, beyond its type: a backup whose value lies outside is
 * refused, so that no stored value Termwise cannot use ever reaches training, runs or screens.
 * Each rule is an SQL condition on the column's non-NULL values, and the words for a refusal.
 */
const VALUE_RULES: readonly [table: string, column: string, holds: string, words: string][] = [
  ['courses', 'course_level', 'course_level BETWEEN 0 AND 99', 'a course level (0–99)'],
  ['offerings', 'year', `year ${YEAR}`, A_YEAR],
  ['offerings', 'semester', `semester ${SEMESTER}`, semestersInWords(SEMESTERS)],
  ['offerings', 'total_enrolled', `total_enrolled <= ${LIMITS.maxEnrollment}`, `a count of students (at most ${LIMITS.maxEnrollment})`],
  ['offerings', 'passed_count', `passed_count <= ${LIMITS.maxEnrollment}`, `a count of students (at most ${LIMITS.maxEnrollment})`],
  ['offerings', 'failed_count', `failed_count <= ${LIMITS.maxEnrollment}`, `a count of students (at most ${LIMITS.maxEnrollment})`],
  ['offerings', 'is_offered', 'is_offered IN (0, 1)', '0 or 1'],
  ['offerings', 'created_at', dateSql('created_at'), 'a date'],
  ['doctors', 'available_days', "available_days NOT GLOB '*[^MTWRFSU]*' AND length(available_days) BETWEEN 1 AND 7", 'day letters (M T W R F S U)'],
  [
    'doctors',
    'available_time',
    "available_time GLOB '[0-2][0-9]:[0-5][0-9]-[0-2][0-9]:[0-5][0-9]' AND substr(available_time, 1, 5) < substr(available_time, 7, 5)",
    'a time range HH:MM-HH:MM',
  ],
  ['models', 'samples', 'samples >= 0', 'a count'],
  ['models', 'positives', 'positives >= 0', 'a count'],
  ['models', 'roc_auc', `roc_auc ${SHARE}`, 'a share (0–1)'],
  ['models', 'f1', `f1 ${SHARE}`, 'a share (0–1)'],
  ['models', 'threshold', `threshold ${SHARE}`, 'a share (0–1)'],
  ['models', 'duration_ms', 'duration_ms >= 0', 'a duration'],
  ['models', 'trained_at', dateSql('trained_at'), 'a date'],
  ['models', 'adjustments', "json_valid(adjustments) AND json_type(adjustments) = 'object'", 'a JSON object'],
  ['models', 'demand_features', "json_valid(demand_features) AND json_type(demand_features) = 'array'", 'a list'],
  ['prediction_runs', 'target_year', `target_year ${YEAR}`, A_YEAR],
  ['prediction_runs', 'created_at', dateSql('created_at'), 'a date'],
  ['prediction_runs', 'caveats', "json_valid(caveats) AND json_type(caveats) = 'array'", 'a list'],
  ['models', 'left_out_terms', "json_valid(left_out_terms) AND json_type(left_out_terms) = 'array'", 'a list'],
  ['prediction_runs', 'term_notes', "json_valid(term_notes) AND json_type(term_notes) = 'array'", 'a list'],
  ['term_notes', 'year', `year ${YEAR}`, A_YEAR],
  ['term_notes', 'semester', `semester ${inList(PLANNED_SEMESTERS)}`, semestersInWords(PLANNED_SEMESTERS)],
  ['term_notes', 'created_at', dateSql('created_at'), 'a date'],
  ['confirmed_terms', 'year', `year ${YEAR}`, A_YEAR],
  ['confirmed_terms', 'semester', `semester ${SEMESTER}`, semestersInWords(SEMESTERS)],
  ['confirmed_terms', 'confirmed_at', dateSql('confirmed_at'), 'a date'],
  ['prediction_runs', 'parameters', "json_valid(parameters) AND json_type(parameters) = 'object'", 'a JSON object'],
  ['prediction_entries', 'confidence', `confidence ${SHARE}`, 'a share (0–1)'],
  ['prediction_entries', 'offer_score', 'offer_score BETWEEN 0 AND 100', 'a score (0–100)'],
  ['prediction_entries', 'offer', 'offer IN (0, 1)', '0 or 1'],
  ['prediction_entries', 'predicted_enrollment', `predicted_enrollment ${ENROLLMENT}`, `a count of students (0–${LIMITS.maxEnrollment})`],
  ['prediction_entries', 'latent_demand', `latent_demand ${ENROLLMENT}`, `a count of students (0–${LIMITS.maxEnrollment})`],
  ['prediction_entries', 'bottleneck_score', 'bottleneck_score >= 0', 'a count'],
  ['prediction_entries', 'projected_sections', 'projected_sections BETWEEN 0 AND 1000', 'a number of sections (0–1,000)'],
  ['prediction_entries', 'enrollment_low', `enrollment_low ${ENROLLMENT}`, `a count of students (0–${LIMITS.maxEnrollment})`],
  ['prediction_entries', 'enrollment_high', `enrollment_high ${ENROLLMENT}`, `a count of students (0–${LIMITS.maxEnrollment})`],
  ['prediction_entries', 'section_size', `section_size BETWEEN 1 AND ${LIMITS.maxEnrollment}`, 'a number of seats'],
  ['prediction_entries', 'staff_decision', "staff_decision IN ('offer', 'skip')", 'offer or skip'],
  [
    'prediction_entries',
    'staff_sections',
    `staff_sections BETWEEN 1 AND ${MAX_DECIDED_SECTIONS}`,
    `a number of sections (1–${MAX_DECIDED_SECTIONS.toLocaleString('en-US')})`,
  ],
  ['prediction_entries', 'decided_at', dateSql('decided_at'), 'a date'],
  ['settings', 'value', 'json_valid(value)', 'JSON'],
  ['term_parts', 'year', `year ${YEAR}`, A_YEAR],
  ['term_parts', 'semester', `semester ${SEMESTER}`, semestersInWords(SEMESTERS)],
  ['term_parts', 'start_date', dateSql('start_date') + ' AND length(start_date) = 10', 'a date YYYY-MM-DD'],
  ['term_parts', 'end_date', dateSql('end_date') + ' AND length(end_date) = 10', 'a date YYYY-MM-DD'],
  ['schedule_entries', 'year', `year ${YEAR}`, A_YEAR],
  ['schedule_entries', 'semester', `semester ${SEMESTER}`, semestersInWords(SEMESTERS)],
  ['schedule_entries', 'day', "day NOT GLOB '*[^MTWRFSU]*' AND length(day) BETWEEN 1 AND 7", 'day letters (M T W R F S U)'],
  [
    'schedule_entries',
    'start_time',
    "start_time GLOB '[0-2][0-9]:[0-5][0-9]' AND start_min = CAST(substr(start_time, 1, 2) AS INTEGER) * 60 + CAST(substr(start_time, 4, 2) AS INTEGER)",
    'a time HH:MM matching start_min',
  ],
  ['schedule_entries', 'start_min', 'start_min BETWEEN 0 AND 1439', 'minutes after midnight'],
  ['schedule_entries', 'created_at', dateSql('created_at'), 'a date'],
  ['schedule_entry_doctors', 'position', 'position BETWEEN 0 AND 7', 'a position (0–7)'],
  ['rooms', 'capacity', `capacity BETWEEN 1 AND ${LIMITS.maxEnrollment}`, 'a number of seats'],
];

function schemaKey(objects: readonly SchemaObject[]): string {
  return JSON.stringify(objects.map((o) => [o.type, o.name, o.tbl_name, o.sql]));
}

/** Opens the uploaded file read-only and checks it is a backup of this very schema, with sound contents. */
async function inspectBackup(path: string, filename: string): Promise<void> {
  const name = `"${echo(filename)}"`;
  let probe: SqliteHandle;
  try {
    probe = openUntrusted(path);
  } catch {
    throw invalid(`${name} is not a Termwise database backup`);
  }
  try {
    let theirs: SchemaObject[];
    let migrations: Migration[];
    try {
      theirs = schemaObjects(probe);
      migrations = appliedMigrations(probe);
    } catch {
      throw invalid(`${name} is not a Termwise database backup`);
    }
    const ours = (await referenceSchema()).schema;
    const ourMigrations = currentMigrations();
    if (JSON.stringify(migrations) !== JSON.stringify(ourMigrations)) {
      throw invalid(`${name} was made by a different version of Termwise (schema ${migrations.length} vs ${ourMigrations.length}); it cannot be restored here`);
    }
    const extra = theirs.filter((o) => o.type === 'view' || o.type === 'trigger');
    if (extra.length > 0) throw invalid(`${name} is not a plain Termwise backup: it contains a ${extra[0]?.type} ("${echo(extra[0]?.name ?? '', 60)}")`);
    if (schemaKey(theirs) !== schemaKey(ours))
      throw invalid(`${name} does not have Termwise's tables exactly (a table or column is missing, added or changed); it cannot be restored`);
    const check = quickCheck(probe);
    if (check !== 'ok') throw invalid(`${name} is damaged (${echo(check, 100)})`);
    for (const [table, column] of JSON_LIST_COLUMNS) {
      const bad = firstNonListRow(probe, table, column);
      if (bad !== undefined) throw invalid(`${name} has unreadable data: ${table}.${column} of row ${bad} is not a list`);
    }
    checkStoredValues(probe, name);
  } finally {
    probe.close();
  }
  const damaged = await checkStoredModels(path, filename);
  if (damaged.length > 0)
    throw invalid(
      `${name} has a damaged trained model (${damaged.map((m) => `${m.campus} ${m.model_version}`.slice(0, 80)).join(', ')}); it cannot be restored`,
    );
}

/** Refuses a backup holding a value of the wrong type (text in a number column) or outside what the code reads. */
function checkStoredValues(probe: SqliteHandle, name: string): void {
  for (const table of tableNames(probe)) {
    for (const column of tableColumns(probe, table)) {
      const classes = STORAGE_CLASSES[column.type.toUpperCase()];
      if (!classes) continue;
      const wrong = firstWrongStorage(probe, table, column.name, classes);
      if (wrong)
        throw invalid(
          `${name} has unreadable data: ${table}.${column.name} of row ${wrong.rowid} holds ${KIND_WORDS[wrong.kind] ?? wrong.kind} where ${KIND_WORDS[column.type.toLowerCase()] ?? column.type} belongs; it cannot be restored`,
        );
    }
  }
  for (const [table, column, holds, words] of VALUE_RULES) {
    const bad = firstRowBreaking(probe, table, column, holds);
    if (bad !== undefined) throw invalid(`${name} has unreadable data: ${table}.${column} of row ${bad} is not ${words}; it cannot be restored`);
  }
}

/**
 * Replaces every table's rows with those of a backup made by this version of Termwise, in one
 * transaction. Only a file with exactly Termwise's schema (no views or triggers) and sound
 * contents is accepted; one that breaks a constraint changes nothing.
 */
export async function restoreDatabase(ctx: CoreContext, file: UploadedFile): Promise<{ status: 'restored'; tables: Record<string, number> }> {
  const dir = mkdtempSync(join(tmpdir(), 'termwise-restore-'));
  const path = join(dir, 'restore.db');
  try {
    writeFileSync(path, file.content, { mode: 0o600 });
    await inspectBackup(path, file.filename);
    let counts: Record<string, number>;
    try {
      counts = await replaceAllRows(ctx.store, path, (table) => {
        throw invalid(`"${echo(file.filename)}" refers to rows that are not in it (table ${table}); it cannot be restored`);
      });
    } catch (error) {
      if (error instanceof CoreError) throw error;
      const code = (error as { code?: unknown }).code;
      if (typeof code === 'string' && (code.startsWith('SQLITE_CONSTRAINT') || code.startsWith('23'))) {
        throw invalid(
          `"${echo(file.filename)}" breaks a rule of Termwise's data (${echo(error instanceof Error ? error.message : code, 120)}); nothing was restored`,
        );
      }
      throw error;
    }
    await refreshStatistics(ctx.db, DATA_TABLES);
    return { status: 'restored', tables: counts };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
