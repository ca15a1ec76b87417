import type { CoreContext } from '../context';
import { CoreError, invalid } from '../domain/errors';
import { echo } from '../domain/bounds';
import { requireExtension, type UploadedFile } from '../import/files';
import { readCsv } from '../import/csv';
import { readReport } from '../import/xlsx';
import { matchColumns, type Table } from '../import/table';
import { dataVersion, refreshStatistics } from '../db/versions';
import { inTransaction } from '../db/transactions';
import { takeLocks } from '../db/locks';
import { termLocks, deleteTermMeetings, removeUntimedSections, type Booking, campusTerm, currentTerm, partsByCode, travelMinutes } from '../timetable';
import { cohortCourses, listCourses } from '../catalog/repo';
import { campusDoctorsByNames, listDoctors } from '../faculty/repo';
import { declaredRoomList } from '../rooms/repo';
import { doctorNameKey } from '../domain/teaching';
import { roomKey } from '../domain/meetings';
import { termKey, type Term } from '../domain/terms';
import { TIMETABLE_COLUMNS, missingTimetableColumns } from './columns';
import { readListing, type ListingRead } from './rows';
import { MAX_LISTED_ROWS, planImport, type ImportConflict, type ImportPlan, type ImportSnapshot } from './plan';
import { applyImportPlan } from './apply';
import { type EntryRow } from '../timetable/repo';
import { termRevision } from '../timetable/changes-repo';
import { listUntimedSections } from '../timetable/untimed-repo';
import type { PartOfTerm } from '../domain/parts';
import type { TimetableImportInput, TimetableImportResult } from './service';

export type { TimetableImportInput } from './service';

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

/** The terms a listing names. */
function listedTerms(listing: ListingRead): Term[] {
  return [...new Map<string, Term>([...listing.meetings, ...listing.untimed].map((m) => [termKey(m.term), m.term])).values()];
}

/**
 * What the plan needs of the database, for the terms the listing names; `publishingListing` leaves out the
 * department's own meetings of them (a published listing replaces them).
 */
async function readSnapshot(ctx: CoreContext, listing: ListingRead, publishingListing: boolean): Promise<ImportSnapshot> {
  const terms = new Map<string, { entries: EntryRow[]; parts: Map<string, PartOfTerm>; taken: Booking[] }>();
  for (const term of listedTerms(listing)) {
    const { own, taken } = await campusTerm(ctx, term);
    terms.set(termKey(term), { entries: publishingListing ? [] : own, parts: await partsByCode(ctx, term), taken });
  }
  return {
    terms,
    doctors: new Map((await listDoctors(ctx.db, ctx.department)).map((d) => [doctorNameKey(d.name), d])),
    campusDoctors: await campusDoctorsByNames(
      ctx.db,
      ctx.department,
      [...listing.meetings, ...listing.untimed].flatMap((m) => m.instructors),
    ),
    // Every room of the campus: the pool's and the department's are booked, another department's refused.
    rooms: new Map((await declaredRoomList(ctx.db, null)).map((r) => [roomKey(r.name) ?? '', r])),
    knownCourses: new Set((await listCourses(ctx.db, ctx.department)).map((c) => c.code)),
    cohortCourses: await cohortCourses(ctx.db, ctx.department),
    travelMinutes: await travelMinutes(ctx),
  };
}

/** A published listing that clashes: nothing stored, every clash listed in words (the first MAX_LISTED_ROWS). */
function publishRefusal(conflicts: readonly ImportConflict[]): CoreError {
  const words = conflicts.slice(0, MAX_LISTED_ROWS).map((c) => `Row ${c.row}: ${c.course_code} ${c.section_name}: ${c.detail}`);
  const more = conflicts.length > MAX_LISTED_ROWS ? ` (the first ${MAX_LISTED_ROWS} listed)` : '';
  return new CoreError(
    'conflict',
    `Nothing was published: ${conflicts.length} meeting${conflicts.length === 1 ? '' : 's'} of the term clash${conflicts.length === 1 ? 'es' : ''}${more}. Fix them and publish again.`,
    { conflicts: words },
  );
}

/** A published listing names the revision of the term it replaces: one changed since is refused, nothing lost. */
async function refuseChangedSince(tx: CoreContext, terms: readonly Term[], base: number): Promise<void> {
  for (const term of terms) {
    const now = await termRevision(tx.db, tx.department, term);
    if (now !== base)
      throw new CoreError(
        'conflict',
        `Nothing was published: ${term.semester} ${term.year} is at revision ${now} on the server, not ${base}, so replacing it would drop changes made since. Fetch the term, or publish your changes instead of the whole listing`,
        { conflicts: [`${term.semester} ${term.year} changed since revision ${base}`] },
      );
  }
}

/** The first `MAX_LISTED_ROWS` of a list. */
const firstListed = <T>(items: readonly T[]): T[] => items.slice(0, MAX_LISTED_ROWS);

/**
 * Brings a registrar's section listing (CSV or XLSX, one row per meeting) into the timetable: the
 * rows are read, then the plan is made against the database as read in one transaction and, unless
 * this is a dry run, written in that same transaction. Runs in the import's worker thread.
 */
export async function runImport(ctx: CoreContext, input: TimetableImportInput): Promise<TimetableImportResult> {
  const started = performance.now();
  const campus = input.campus === undefined ? ctx.campuses.fallback : ctx.campuses.require(input.campus, 'campus');
  const tables = await readTables(input.file);
  const listing = readListing(tables, { year: input.year, semester: input.semester }, await currentTerm(ctx));
  const options = {
    filename: input.file.filename,
    campus,
    campuses: ctx.campuses,
    policy: input.conflicts === 'flag' ? ('flag' as const) : ('refuse' as const),
    roles: new Map(Object.entries(input.roles ?? {}).map(([name, role]) => [name.trim().replace(/\s+/g, ' '), role])),
    department: ctx.department,
  };
  const publishingListing = input.replace === true;
  if (publishingListing && listing.meetings.length === 0)
    throw invalid(`"${echo(input.file.filename)}" has no meetings to publish: the term on the server is left as it is`);
  const makePlan = async (tx: CoreContext): Promise<ImportPlan> => {
    const made = planImport(listing, await readSnapshot(tx, listing, publishingListing), options);
    if (publishingListing && made.report.conflicts.length > 0) throw publishRefusal(made.report.conflicts);
    return made;
  };
  // Planned on one snapshot, in a read transaction (the server keeps reading and writing meanwhile);
  // applied holding its terms only if nobody committed since — else planned again there.
  // The version is read first: a commit between it and the reads can only cause a needless re-plan.
  const planned = await inTransaction(
    ctx.db,
    async (db) => {
      const version = await dataVersion(db);
      return { version, plan: await makePlan({ ...ctx, db }) };
    },
    { readOnly: true },
  );
  let plan = planned.plan;
  if (!input.dry_run) {
    plan = await inTransaction(ctx.db, async (db) => {
      const tx = { ...ctx, db };
      await takeLocks(db, termLocks(listedTerms(listing)));
      if (publishingListing && input.base_revision !== undefined) await refuseChangedSince(tx, listedTerms(listing), input.base_revision);
      const current = (await dataVersion(db)) === planned.version ? planned.plan : await makePlan(tx);
      if (publishingListing) for (const term of listedTerms(listing)) await deleteTermMeetings(tx, term, 'publish');
      if (publishingListing)
        for (const term of listedTerms(listing)) await removeUntimedSections(tx, await listUntimedSections(db, ctx.department, term), 'publish');
      await applyImportPlan(tx, current, publishingListing ? 'publish' : 'import');
      return current;
    });
    await refreshStatistics(ctx.db, ['schedule_entries', 'schedule_entry_doctors', 'schedule_clashes', 'doctors', 'rooms', 'courses']);
  }
  return importAnswer(listing, plan.report, input.dry_run, started);
}

/** What an import answers: what it read, what it would make or made, and why rows were left out, each list bounded. */
function importAnswer(listing: ListingRead, report: ImportPlan['report'], dryRun: boolean, started: number): TimetableImportResult {
  const skipped: Record<string, number> = {};
  for (const s of listing.skipped) skipped[s.reason] = (skipped[s.reason] ?? 0) + 1;
  return {
    status: report.meetings === 0 && report.untimed === 0 ? 'empty' : dryRun ? 'preview' : 'success',
    dry_run: dryRun,
    processed: listing.rows,
    meetings: report.meetings,
    sections: report.sections,
    untimed: report.untimed,
    merged: listing.merged,
    merged_rows: firstListed(listing.mergedRows),
    skipped,
    skipped_rows: firstListed(listing.skipped),
    created: {
      courses: firstListed(report.created.courses),
      doctors: firstListed(report.created.doctors),
      rooms: firstListed(report.created.rooms),
      parts_of_term: firstListed(report.created.parts_of_term),
    },
    joint_groups: firstListed(report.joint_groups),
    roles: firstListed(report.roles).map((r) => ({ ...r, sections: r.sections.slice(0, MAX_LISTED_ROWS) })),
    conflicts: firstListed(report.conflicts),
    curriculum_conflicts: firstListed(report.curriculum_conflicts),
    terms: report.terms,
    notes: report.notes,
    totals: {
      skipped_rows: listing.skipped.length,
      merged_rows: listing.mergedRows.length,
      courses: report.created.courses.length,
      doctors: report.created.doctors.length,
      rooms: report.created.rooms.length,
      joint_groups: report.joint_groups.length,
      roles: report.roles.length,
      conflicts: report.conflicts.length,
      curriculum_conflicts: report.curriculum_conflicts_total,
    },
    duration_ms: Math.round(performance.now() - started),
  };
}
