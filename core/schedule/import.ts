import type { CoreContext } from '../context';
import { statement } from '../db/connection';
import { CoreError, invalid } from '../domain/errors';
import { echo } from '../domain/bounds';
import { describeCode } from '../domain/codes';
import { formatHHMM } from '../domain/time';
import { roomKey } from '../domain/meetings';
import { WHOLE_TERM, type PartOfTerm } from '../domain/parts';
import type { InstructorRole } from '../domain/roles';
import type { Term } from '../domain/terms';
import { requireExtension, type UploadedFile } from '../import/files';
import { readCsv } from '../import/csv';
import { readReport } from '../import/xlsx';
import { matchColumns, type Table } from '../import/table';
import { upsertCourses } from '../catalog/repo';
import { findDoctorByName, insertDoctor } from '../faculty/repo';
import { findRoomByName, upsertRooms } from '../rooms/repo';
import { TIMETABLE_COLUMNS, missingTimetableColumns } from './import-columns';
import { readListing, type ListedMeeting } from './import-rows';
import { decideRoles, proposeJointGroups, type RoleDecision } from './import-plan';
import { storeMeeting, type ClashPolicy, type MeetingInput } from './service';
import { partsByCode, currentTerm } from './terms';
import { upsertPart } from './repo';
import { termCurriculumConflicts } from './curriculum-check';
import { describeCurriculumConflict } from './curriculum';

export interface TimetableImportInput {
  file: UploadedFile;
  year?: number | undefined;
  semester?: Term['semester'] | undefined;
  campus?: string | undefined;
  dry_run: boolean;
  conflicts: 'skip' | 'flag';
  /** Instructor name → role, deciding before applying what the import proposed. */
  roles?: Record<string, InstructorRole> | undefined;
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
  /** Rows repeating a meeting of the same section, merged into it. */
  merged: number;
  skipped: Record<string, number>;
  skipped_rows: { row: number; where: string; reason: string }[];
  created: { courses: string[]; doctors: string[]; rooms: string[]; parts_of_term: string[] };
  joint_groups: { label: string; members: string[] }[];
  roles: RoleDecision[];
  conflicts: { row: number; course_code: string; section_name: string; detail: string }[];
  /**
   * Curriculum conflicts the terms imported into hold once the import is applied (warnings, never
   * refusals): two courses of one cohort whose every choice of sections overlaps.
   */
  curriculum_conflicts: { year: number; semester: Term['semester']; campus: string; cohort: string; courses: [string, string]; detail: string }[];
  terms: Term[];
  notes: string[];
  duration_ms: number;
}

export const MAX_LISTED_ROWS = 200;

/** Thrown inside the transaction of a dry run so that nothing it wrote stays. */
class DryRun extends Error {
  constructor(readonly result: TimetableImportResult) {
    super('dry run');
  }
}

async function readTables(file: UploadedFile): Promise<Table[]> {
  const ext = requireExtension(file, ['csv', 'xlsx'], 'The timetable file');
  const tables =
    ext === 'csv'
      ? [readCsv(file)]
      : await readReport(file, { aliases: TIMETABLE_COLUMNS, carryDown: ['year', 'term', 'course_code', 'prefix', 'number', 'course_name'] });
  const usable = tables.filter((t) => missingTimetableColumns(matchColumns(t.headers, TIMETABLE_COLUMNS)).length === 0);
  if (usable.length > 0) return usable;
  const first = tables.find((t) => t.headers.some((h) => h !== '')) ?? tables[0] ?? { headers: [], rows: [] };
  const missing = missingTimetableColumns(matchColumns(first.headers, TIMETABLE_COLUMNS));
  const seen = first.headers.filter((h) => h !== '').join(', ') || 'none';
  throw invalid(`"${echo(file.filename)}" is not a timetable listing: it has no ${missing.join(', no ')}. Columns found: ${echo(seen)}`);
}

const termKey = (t: Term): string => `${t.year}|${t.semester}`;

/** The parts of term each meeting is in: the term's stored parts, else new ones (dates from the file, else the whole term). */
function planParts(
  ctx: CoreContext,
  meetings: readonly ListedMeeting[],
): { partOf: (m: ListedMeeting) => PartOfTerm; created: { term: Term; part: PartOfTerm }[] } {
  const known = new Map<string, Map<string, PartOfTerm>>();
  const created: { term: Term; part: PartOfTerm }[] = [];
  const isNew = new Set<PartOfTerm>();
  for (const m of meetings) {
    const key = termKey(m.term);
    let parts = known.get(key);
    if (!parts) known.set(key, (parts = new Map(partsByCode(ctx, m.term))));
    let part = parts.get(m.part_of_term);
    if (!part) {
      part = { code: m.part_of_term, name: `Part of term ${m.part_of_term}`, start_date: null, end_date: null };
      parts.set(part.code, part);
      isNew.add(part);
      created.push({ term: m.term, part });
    }
    // A new part spans the dates its rows give.
    if (m.part_dates && isNew.has(part)) {
      if (part.start_date === null || m.part_dates.start < part.start_date) part.start_date = m.part_dates.start;
      if (part.end_date === null || m.part_dates.end > part.end_date) part.end_date = m.part_dates.end;
    }
  }
  return { partOf: (m) => known.get(termKey(m.term))?.get(m.part_of_term) ?? WHOLE_TERM, created };
}

function jointLabelsInUse(ctx: CoreContext, term: string): Set<string> {
  const [year, semester] = term.split('|');
  const rows = statement<[number, string], string>(
    ctx.db,
    'SELECT DISTINCT joint_group FROM schedule_entries WHERE year = ? AND semester = ? AND joint_group IS NOT NULL',
  )
    .pluck()
    .all(Number(year), semester ?? '');
  return new Set(rows);
}

/**
 * Brings a registrar's section listing (CSV or XLSX, one row per meeting) into the timetable:
 * meetings read and merged, joint groups and coordinators found, unknown courses, instructors,
 * rooms and parts of term added, every meeting written through the timetable's own checks. One
 * transaction; a dry run (the default) answers the same and stores nothing.
 */
export async function importTimetable(ctx: CoreContext, input: TimetableImportInput): Promise<TimetableImportResult> {
  const started = performance.now();
  const campus = input.campus === undefined ? ctx.campuses.fallback : ctx.campuses.require(input.campus, 'campus');
  const tables = await readTables(input.file);
  const listing = readListing(tables, { year: input.year, semester: input.semester }, currentTerm(ctx));
  const meetings = listing.meetings;
  const { partOf, created: newParts } = planParts(ctx, meetings);
  const groups = proposeJointGroups(meetings, (term) => jointLabelsInUse(ctx, term));
  const groupOf: (string | null)[] = meetings.map((m) => m.joint_group);
  for (const group of groups) for (const i of group.meetings) groupOf[i] = group.label;
  const overrides = new Map(Object.entries(input.roles ?? {}).map(([name, role]) => [name.trim().replace(/\s+/g, ' '), role]));
  const decided = decideRoles(meetings, groupOf, partOf, overrides);

  const skipped: Record<string, number> = {};
  for (const s of listing.skipped) skipped[s.reason] = (skipped[s.reason] ?? 0) + 1;
  const result: TimetableImportResult = {
    status: 'success',
    dry_run: input.dry_run,
    processed: listing.rows,
    meetings: 0,
    sections: 0,
    merged: listing.merged,
    skipped,
    skipped_rows: listing.skipped.slice(0, MAX_LISTED_ROWS),
    created: { courses: [], doctors: [], rooms: [], parts_of_term: [] },
    joint_groups: groups.map((g) => ({ label: g.label, members: g.members })),
    roles: decided.decisions,
    conflicts: [],
    curriculum_conflicts: [],
    terms: [],
    notes: [],
    duration_ms: 0,
  };
  if (!decided.complete) result.notes.push('Some instructors are listed on so many meetings that not every pair was compared: check their roles');
  const undated = newParts.filter((p) => p.part.start_date === null).map((p) => p.part.code);
  if (undated.length > 0) {
    result.notes.push(
      `Parts of term ${undated.join(', ')} have no dates yet, so their meetings are checked as if each ran the whole term: set their dates (Scheduler → Parts of term) and import again to stop clashes between parts that never meet on the same dates`,
    );
  }
  const policy: ClashPolicy = input.conflicts === 'flag' ? 'flag' : 'refuse';

  const apply = (): TimetableImportResult => {
    for (const { term, part } of newParts) {
      upsertPart(ctx.db, term, part);
      result.created.parts_of_term.push(`${part.code} (${term.semester} ${term.year})`);
    }
    const knownCourse = statement<[string], number>(ctx.db, 'SELECT 1 FROM courses WHERE code = ?').pluck();
    const newCourses = new Map<string, ListedMeeting>();
    for (const m of meetings) if (!newCourses.has(m.course_code) && knownCourse.get(m.course_code) === undefined) newCourses.set(m.course_code, m);
    upsertCourses(
      ctx.db,
      [...newCourses.values()].map((m) => {
        const code = describeCode(m.course_code);
        return {
          code: m.course_code,
          name: m.course_name ?? m.course_code,
          prefix: code.prefix,
          number: code.number,
          type: null,
          study_plan: null,
          prerequisites: null,
          course_level: code.level,
        };
      }),
    );
    result.created.courses = [...newCourses.keys()];

    const doctorIds = new Map<string, number>();
    const taughtBy = new Map<string, Set<string>>();
    for (const m of meetings) for (const name of m.instructors) taughtBy.set(name, (taughtBy.get(name) ?? new Set()).add(m.course_code));
    for (const [name, courses] of taughtBy) {
      const existing = findDoctorByName(ctx.db, name);
      if (existing) doctorIds.set(name, existing.id);
      else {
        doctorIds.set(
          name,
          insertDoctor(ctx.db, { name, allowed_courses: JSON.stringify([...courses].sort()), available_days: null, available_time: null }).id,
        );
        result.created.doctors.push(name);
      }
    }
    const roomsSeen = new Set<string>();
    for (const m of meetings) {
      const key = m.room === null ? null : roomKey(m.room);
      if (m.room === null || key === null || roomsSeen.has(key)) continue;
      roomsSeen.add(key);
      if (findRoomByName(ctx.db, m.room)) continue;
      upsertRooms(ctx.db, [{ name: m.room, capacity: null, campus }]);
      result.created.rooms.push(m.room);
    }

    const sections = new Set<string>();
    const terms = new Map<string, Term>();
    meetings.forEach((m, i) => {
      const meeting: MeetingInput = {
        year: m.term.year,
        semester: m.term.semester,
        course_code: m.course_code,
        section_name: m.section_name,
        doctor_ids: m.instructors.map((name) => doctorIds.get(name) as number),
        doctor_roles: decided.roles[i],
        day: m.day,
        start_time: formatHHMM(m.start),
        duration_mins: m.duration,
        room: m.room,
        part_of_term: m.part_of_term,
        joint_group: groupOf[i] ?? null,
        // A declared room's campus wins; a meeting without a room takes the row's or the form's campus.
        campus: m.room === null ? ((m.campus === null ? null : ctx.campuses.normalise(m.campus)) ?? campus) : null,
      };
      try {
        // A savepoint per meeting: one that is refused leaves the others in place.
        const stored = ctx.db.transaction(() => storeMeeting(ctx, meeting, policy))();
        if (stored.clashes.length > 0)
          result.conflicts.push({
            row: m.row,
            course_code: m.course_code,
            section_name: m.section_name,
            detail: stored.clashes.map((c) => c.detail).join('; '),
          });
        result.meetings++;
        sections.add(`${termKey(m.term)}|${m.course_code}|${m.section_name}`);
        terms.set(termKey(m.term), m.term);
      } catch (error) {
        if (!(error instanceof CoreError) || error.code === 'internal') throw error;
        if (error.code === 'conflict') result.conflicts.push({ row: m.row, course_code: m.course_code, section_name: m.section_name, detail: error.message });
        else {
          result.skipped[error.message] = (result.skipped[error.message] ?? 0) + 1;
          if (result.skipped_rows.length < MAX_LISTED_ROWS) result.skipped_rows.push({ row: m.row, where: m.where, reason: error.message });
        }
      }
    });
    result.sections = sections.size;
    result.terms = [...terms.values()];
    result.curriculum_conflicts = result.terms
      .flatMap((term) => termCurriculumConflicts(ctx, term).map((c) => ({ ...term, campus: c.campus, cohort: c.group, courses: c.courses, detail: describeCurriculumConflict(c) })))
      .slice(0, MAX_LISTED_ROWS);
    if (result.meetings === 0) result.status = 'empty';
    else if (input.dry_run) result.status = 'preview';
    result.duration_ms = Math.round(performance.now() - started);
    if (input.dry_run) throw new DryRun(result);
    return result;
  };
  try {
    return ctx.db.transaction(apply).immediate();
  } catch (error) {
    if (error instanceof DryRun) return error.result;
    throw error;
  }
}
