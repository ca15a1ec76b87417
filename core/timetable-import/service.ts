import type { CoreContext } from '../context';
import { tooLarge } from '../domain/bounds';
import type { InstructorRole } from '../domain/roles';
import type { Term } from '../domain/terms';
import type { UploadedFile } from '../import/files';
import { runWorker, siblingModule, WorkerLimitError } from '../workers';
import { workerContextData } from '../worker-context';
import type { RoleDecision } from './decisions';
import type { ImportConflict } from './plan';

export interface TimetableImportInput {
  file: UploadedFile;
  year?: number | undefined;
  semester?: Term['semester'] | undefined;
  campus?: string | undefined;
  dry_run: boolean;
  conflicts: 'skip' | 'flag';
  /** Instructor name → role, deciding before applying what the import proposed. */
  roles?: Record<string, InstructorRole> | undefined;
  /**
   * Publishing a listing: it is the department's whole term (planned elsewhere, e.g. offline). It
   * replaces the department's meetings of the term, and is refused whole when any meeting clashes.
   */
  replace?: boolean | undefined;
  /** Publishing a listing: the term revision it replaces; refused when the term changed since. */
  base_revision?: number | undefined;
}

export interface TimetableImportResult {
  status: 'preview' | 'success' | 'empty';
  dry_run: boolean;
  /** Rows read (blank and totals rows aside). */
  processed: number;
  /** Meetings stored (or, in a dry run, that would be). */
  meetings: number;
  /** Sections those meetings make up. */
  sections: number;
  /** Sections without a time kept (rows with no days or time: online, arranged), listed by GET /scheduler/unscheduled. */
  untimed: number;
  /** Rows repeating a meeting of the same section, merged into it. */
  merged: number;
  /** The first 200 merged rows: each row, the row it was merged into and the days of both. */
  merged_rows: { row: number; into: number; course_code: string; section_name: string; days: string }[];
  skipped: Record<string, number>;
  /** The first 200 skipped rows (every list of the answer holds at most 200; `totals` counts them all). */
  skipped_rows: { row: number; where: string; reason: string }[];
  created: { courses: string[]; doctors: string[]; rooms: string[]; parts_of_term: string[] };
  /** Each joint group the import proposes, and the rules that found it in words. */
  joint_groups: { label: string; members: string[]; rule: string }[];
  roles: RoleDecision[];
  /** Each meeting refused (or stored flagged), its rows and the rows (or stored entries) it clashes with. */
  conflicts: ImportConflict[];
  /**
   * Curriculum conflicts the terms imported into hold once the import is applied (warnings, never
   * refusals): two courses of one cohort whose every choice of sections overlaps.
   */
  curriculum_conflicts: { year: number; semester: Term['semester']; campus: string; cohort: string; courses: [string, string]; detail: string }[];
  terms: Term[];
  notes: string[];
  /** How many items each capped list has in full. */
  totals: {
    skipped_rows: number;
    merged_rows: number;
    courses: number;
    doctors: number;
    rooms: number;
    joint_groups: number;
    roles: number;
    conflicts: number;
    curriculum_conflicts: number;
  };
  duration_ms: number;
}

/**
 * The import's thread may take this long and this much memory: a listing Termwise can read is
 * planned in a few seconds and a few hundred MB; beyond, the file is refused (413).
 */
export const IMPORT_BOUNDS = { timeoutMs: 30_000, maxHeapMb: 512 } as const;

/**
 * Brings a registrar's section listing into the timetable (see run.ts) in a worker thread
 * with its own connection, bounded in time and memory: the server keeps answering meanwhile, and
 * a listing that would take it down only ends that thread.
 */
export async function importTimetable(ctx: CoreContext, input: TimetableImportInput): Promise<TimetableImportResult> {
  try {
    return await runWorker<TimetableImportResult>(
      siblingModule(import.meta.url, 'import-worker'),
      { context: workerContextData(ctx), input },
      { bounds: IMPORT_BOUNDS },
    );
  } catch (error) {
    if (!(error instanceof WorkerLimitError)) throw error;
    throw tooLarge(
      input.file.filename,
      error.limit === 'time'
        ? `importing it would take longer than ${IMPORT_BOUNDS.timeoutMs / 1000} s`
        : `importing it needs more than ${IMPORT_BOUNDS.maxHeapMb} MB of memory`,
    );
  }
}

/**
 * Publishes a listing: the department's whole term, planned elsewhere, replaces its meetings of the
 * term, refused whole when any meeting clashes (a laptop's changes are published by campus sync's
 * publishChanges instead).
 */
export function publishListing(ctx: CoreContext, input: Omit<TimetableImportInput, 'replace' | 'conflicts' | 'roles'>): Promise<TimetableImportResult> {
  return importTimetable(ctx, { ...input, conflicts: 'skip', replace: true });
}
