import { meetingCurriculumNotes, termCurriculumNotes } from './curriculum-check';
import { moreCurriculumWarning, type MeetingCurriculum } from './curriculum';
import type { CoreContext } from '../context';
import type { Db } from '../db/connection';
import { eachInSavepoint } from '../db/savepoints';
import { CoreError, notFound } from '../domain/errors';
import { getDoctor, type Doctor } from '../faculty/repo';
import { hasCourse } from '../catalog/repo';
import { findRoomByName } from '../rooms/repo';
import { expectedSectionSizes } from '../predict/runs-repo';
import { displayRoom, roomKey, sectionLabel } from '../domain/meetings';
import { allowedCourseList, mayTeach } from '../domain/teaching';
import { WHOLE_TERM_CODE } from '../domain/parts';
import { termLabel, type Term } from '../domain/terms';
import { type CreateEntryInput, type PatchEntryInput, type ScheduleEntry } from './schema';
import { availabilityConflicts, bookingClashes, type Booking, type Clash } from './conflicts';
import { bookingTogether, jointRule } from './meeting-together';
import { assertEndsByMidnight, instructorAliases, meetingCampus, requestedInstructors } from './entry-values';
import { CHECKED_ROLE, type InstructorRole } from '../domain/roles';
import { bookingOf, checkedInstructors, clashCandidates, clashesOf, clearClashes, deleteEntry, entryRow, getEntry, insertClash, insertEntry, jointGroupEntries, listEntries, updateEntry, upsertPart, type EntryRow, type EntryValues } from './repo';
import { partsByCode, requirePart, termForWrite, termOf, currentTerm, travelMinutes } from './terms';

/** Non-blocking remarks shown with an entry. */
export function entryWarnings(entry: Pick<EntryValues, 'course_code'>, doctors: readonly Doctor[], inCatalog: (code: string) => boolean): string[] {
  const warnings: string[] = [];
  if (!inCatalog(entry.course_code)) warnings.push(`${entry.course_code} is not in the course catalog`);
  for (const doctor of doctors) if (!mayTeach(allowedCourseList(doctor), entry.course_code)) warnings.push(`${doctor.name} is not listed to teach ${entry.course_code}`);
  return warnings;
}

/**
 * A meeting outside a teaching instructor's hours: refused on every write, but an instructor's
 * availability can change after (a new faculty file), so each read says so until it is moved.
 */
function availabilityWarnings(row: EntryRow, doctors: readonly Doctor[]): string[] {
  const session = { day: row.day, start: row.start_min, duration: row.duration_mins };
  const teaching = new Set(checkedInstructors(row));
  return doctors.filter((d) => teaching.has(d.id)).flatMap((d) => availabilityConflicts(d, session).map((problem) => `${problem}, but teaches this meeting`));
}

/** The instructors a write names, each of which must exist. */
function resolveDoctors(db: Db, ids: readonly number[]): Doctor[] {
  return ids.map((id) => {
    const doctor = getDoctor(db, id);
    if (!doctor) throw new CoreError('invalid', `No doctor with id ${id}: pick an existing doctor, or 0 to leave the section unassigned`);
    return doctor;
  });
}

/** A meeting's campus: its declared room's, else the one given, else the default campus. */
function campusFor(ctx: CoreContext, room: string, given: string | null | undefined, current: string | null): string {
  const declared = roomKey(room) === null ? undefined : findRoomByName(ctx.db, room)?.campus;
  const asked = given === undefined || given === null ? null : ctx.campuses.require(given, 'campus');
  return meetingCampus(room, declared, asked, current, ctx.campuses.fallback);
}

/** Every rule the values break, each with the meeting it is about; `excludeId` is the entry being changed. */
function meetingClashes(ctx: CoreContext, values: EntryValues, doctors: readonly Doctor[], excludeId: number | null): { booking: Booking; clashes: Clash[] } {
  const term: Term = { year: values.year, semester: values.semester };
  const parts = partsByCode(ctx, term);
  requirePart(parts, values.part_of_term, term);
  const booking = bookingOf({ ...values, id: excludeId }, parts);
  const checked = new Set(booking.doctor_ids);
  const others = clashCandidates(ctx.db, term, values, excludeId).map((row) => bookingOf(row, parts));
  return { booking, clashes: bookingClashes(booking, doctors.filter((d) => checked.has(d.id)), others, { travelMinutes: travelMinutes(ctx) }) };
}

/**
 * Refuses a write that breaks a rule, every clash named. When the rules of meeting together say the
 * other section is the same class by design (same time, and the same room and instructor, or one
 * instructor and no second room), the refusal says how to record that: one joint group for both.
 */
function refuseClashes({ booking, clashes }: { booking: Booking; clashes: readonly Clash[] }): void {
  const conflicts = clashes.map((c) => c.detail);
  if (conflicts.length === 0) return;
  const together = clashes.map((c) => c.with).find((other): other is Booking => other !== null && jointRule(bookingTogether(booking), bookingTogether(other), () => false) !== null);
  const hint = together
    ? `. If ${sectionLabel(booking.course_code, booking.section_name)} and ${sectionLabel(together.course_code, together.section_name)} meet together by design (cross-listed or stacked), give both the same joint group${together.joint_group ? ` ("${together.joint_group}")` : ''}`
    : '';
  throw new CoreError('conflict', `${conflicts.join('; ')}${hint}`, { conflicts });
}

/** What a scheduler types for a meeting; everything beyond the contract's first fields is optional. */
export type MeetingInput = Omit<CreateEntryInput, 'doctor_id' | 'room'> & { doctor_id?: number | null | undefined; room: string | null };

/**
 * What a write does with a meeting that breaks a rule: refuse it (every write of the contract), or
 * store it and keep the clash as a warning on both meetings (an import that flags real clashes).
 */
export type ClashPolicy = 'refuse' | 'flag';

/** Validates, checks every rule and inserts; the caller holds the transaction. Answers the new id and the clashes it was stored with. */
export function storeMeeting(ctx: CoreContext, input: MeetingInput, policy: ClashPolicy): { id: number; clashes: Clash[]; row: EntryRow; doctors: Doctor[] } {
  const term = termForWrite(ctx, input);
  const room = displayRoom(input.room);
  const values: EntryValues = {
    year: term.year,
    semester: term.semester,
    course_code: input.course_code,
    section_name: input.section_name,
    ...requestedInstructors(input, { doctor_ids: [], doctor_roles: [] }),
    day: input.day,
    start_time: input.start_time,
    duration_mins: input.duration_mins,
    room,
    part_of_term: input.part_of_term ?? WHOLE_TERM_CODE,
    joint_group: input.joint_group ?? null,
    campus: campusFor(ctx, room, input.campus, null),
  };
  assertEndsByMidnight(values);
  const doctors = resolveDoctors(ctx.db, values.doctor_ids);
  const checked = meetingClashes(ctx, values, doctors, null);
  const { clashes } = checked;
  if (policy === 'refuse') refuseClashes(checked);
  const id = insertEntry(ctx.db, values, ctx.now().toISOString());
  for (const clash of clashes) insertClash(ctx.db, id, clash.with?.id ?? id, clash.detail);
  return { id, clashes, row: entryRow(id, values), doctors };
}

/** Validates, checks every rule and inserts, refusing any clash; the caller holds the transaction. */
export function insertCheckedEntry(ctx: CoreContext, input: MeetingInput): ScheduleEntry {
  const stored = storeMeeting(ctx, input, 'refuse');
  return respond(ctx, stored.row, stored.doctors);
}

/** Checks and writes in one immediate transaction: two requests can never both book a slot. */
export function createEntry(ctx: CoreContext, input: CreateEntryInput): ScheduleEntry {
  return ctx.db.transaction(() => insertCheckedEntry(ctx, input)).immediate();
}

export function patchEntry(ctx: CoreContext, input: PatchEntryInput): ScheduleEntry {
  return ctx.db
    .transaction(() => {
      const { entry_id: id, ...patch } = input;
      const current = getEntry(ctx.db, id);
      if (!current) throw notFound(`No timetable entry with id ${id}`);
      const term = termOf(patch, { year: current.year, semester: current.semester });
      const room = patch.room !== undefined ? displayRoom(patch.room) : current.room;
      const roomChanged = roomKey(room) !== current.room_key;
      const values: EntryValues = {
        year: term.year,
        semester: term.semester,
        course_code: patch.course_code ?? current.course_code,
        section_name: patch.section_name ?? current.section_name,
        ...requestedInstructors(patch, current),
        day: patch.day ?? current.day,
        start_time: patch.start_time ?? current.start_time,
        duration_mins: patch.duration_mins ?? current.duration_mins,
        room,
        part_of_term: patch.part_of_term ?? current.part_of_term,
        joint_group: patch.joint_group !== undefined ? patch.joint_group : current.joint_group,
        campus: campusFor(ctx, room, patch.campus, roomChanged && patch.campus === undefined ? null : current.campus),
      };
      assertEndsByMidnight(values);
      const doctors = resolveDoctors(ctx.db, values.doctor_ids);
      refuseClashes(meetingClashes(ctx, values, doctors, id));
      updateEntry(ctx.db, id, values);
      clearClashes(ctx.db, id);
      return respond(ctx, entryRow(id, values), doctors);
    })
    .immediate();
}

export function removeEntry(db: Db, id: number): { status: 'deleted' } {
  if (!deleteEntry(db, id)) throw notFound(`No timetable entry with id ${id}`);
  return { status: 'deleted' };
}

/**
 * Joint groups meet in one room, so the room should seat the group's expected students (from the
 * latest prediction run for the term and campus): a warning on every member when it does not.
 */
function jointGroupWarnings(ctx: CoreContext, rows: readonly EntryRow[]): Map<number, string[]> {
  const warnings = new Map<number, string[]>();
  const groups = new Map<string, EntryRow[]>();
  for (const row of rows) {
    if (row.joint_group === null) continue;
    const key = `${row.year}|${row.semester}|${row.joint_group}`;
    groups.set(key, [...(groups.get(key) ?? []), row]);
  }
  const sizes = new Map<string, Map<string, number>>();
  const capacities = new Map<string, number | null>();
  for (const members of groups.values()) {
    const first = members[0] as EntryRow;
    const sizeKey = `${first.year}|${first.semester}|${first.campus}`;
    if (!sizes.has(sizeKey)) sizes.set(sizeKey, expectedSectionSizes(ctx.db, first.year, first.semester, first.campus));
    const expected = sizes.get(sizeKey) as Map<string, number>;
    const sections = new Map(members.map((m) => [`${m.course_code}|${m.section_name}`, m]));
    const students = [...sections.values()].reduce((sum, m) => sum + (expected.get(m.course_code) ?? 0), 0);
    if (students === 0) continue;
    for (const member of members) {
      if (member.room_key === null) continue;
      if (!capacities.has(member.room_key)) capacities.set(member.room_key, findRoomByName(ctx.db, member.room)?.capacity ?? null);
      const capacity = capacities.get(member.room_key);
      if (capacity == null || capacity >= students) continue;
      const labels = [...sections.values()].map((m) => sectionLabel(m.course_code, m.section_name)).join(', ');
      warnings.set(member.id, [...(warnings.get(member.id) ?? []), `Room ${member.room} seats ${capacity}, fewer than the ${students} students expected in joint group ${member.joint_group ?? ''} (${labels})`]);
    }
  }
  return warnings;
}

/** Kept-clash warnings one meeting shows one by one; beyond, one warning counts the rest. */
const MAX_KEPT_CLASH_WARNINGS = 10;

/** Clashes an import stored on purpose: on the meeting stored with them, and on the meeting it clashes with. */
function keptClashWarnings(db: Db, rows: readonly EntryRow[]): Map<number, string[]> {
  const warnings = new Map<number, string[]>();
  const more = new Map<number, number>();
  const add = (id: number, text: string): void => {
    const list = warnings.get(id) ?? [];
    if (list.length < MAX_KEPT_CLASH_WARNINGS) warnings.set(id, [...list, text]);
    else more.set(id, (more.get(id) ?? 0) + 1);
  };
  const labels = new Map(rows.map((r) => [r.id, sectionLabel(r.course_code, r.section_name)]));
  for (const clash of clashesOf(db, rows.map((r) => r.id))) {
    add(clash.entry_id, `Imported with a clash: ${clash.detail}`);
    if (clash.other_id !== clash.entry_id) add(clash.other_id, `Clashes with ${labels.get(clash.entry_id) ?? `entry ${clash.entry_id}`} (imported): ${clash.detail}`);
  }
  for (const [id, count] of more) warnings.get(id)?.push(`…and ${count.toLocaleString('en-US')} more clashes kept by an import`);
  return warnings;
}

/**
 * Responses for meetings: `jointRows` are their joint groups' members, `kept` the warnings of clashes
 * an import stored with them, `curriculum` their curriculum conflicts.
 */
function responses(ctx: CoreContext, rows: readonly EntryRow[], jointRows: readonly EntryRow[], kept: ReadonlyMap<number, string[]>, curriculum: (row: EntryRow) => MeetingCurriculum | undefined, known: readonly Doctor[] = []): ScheduleEntry[] {
  const doctors = new Map<number, Doctor | null>(known.map((d) => [d.id, d]));
  const doctorOf = (id: number): Doctor | null => {
    if (!doctors.has(id)) doctors.set(id, getDoctor(ctx.db, id) ?? null);
    return doctors.get(id) ?? null;
  };
  const inCatalog = (code: string): boolean => hasCourse(ctx.db, code);
  const joint = jointGroupWarnings(ctx, jointRows);
  return rows.map((row) => {
    const teaching = row.doctor_ids.map(doctorOf).filter((d): d is Doctor => d !== null);
    const roleOf = (id: number): InstructorRole => row.doctor_roles[row.doctor_ids.indexOf(id)] ?? CHECKED_ROLE;
    const instructors = teaching.map((d) => ({ id: d.id, name: d.name, role: roleOf(d.id) }));
    const cohort = curriculum(row) ?? { notes: [], more: 0 };
    const cohortWarnings = [...cohort.notes.map((n) => n.warning), ...(cohort.more > 0 ? [moreCurriculumWarning(cohort.more)] : [])];
    return {
      id: row.id,
      course_code: row.course_code,
      section_name: row.section_name,
      day: row.day,
      start_time: row.start_time,
      duration_mins: row.duration_mins,
      room: row.room,
      warnings: [...entryWarnings(row, teaching, inCatalog), ...availabilityWarnings(row, teaching), ...(joint.get(row.id) ?? []), ...(kept.get(row.id) ?? []), ...cohortWarnings],
      year: row.year,
      semester: row.semester,
      doctors: instructors,
      ...instructorAliases(instructors),
      part_of_term: row.part_of_term,
      joint_group: row.joint_group,
      campus: row.campus,
      curriculum_conflicts: cohort.notes.map((n) => n.course),
    };
  });
}

/** The response for a meeting just created or changed (refusing any clash); `doctors` are its instructors, already read. */
function respond(ctx: CoreContext, row: EntryRow, doctors: readonly Doctor[]): ScheduleEntry {
  const members = row.joint_group === null ? [row] : jointGroupEntries(ctx.db, { year: row.year, semester: row.semester }, row.joint_group);
  // A meeting just written passed every rule, so it keeps no clash (a change clears those it had).
  return responses(ctx, [row], members, new Map(), () => meetingCurriculumNotes(ctx, row), doctors)[0] as ScheduleEntry;
}

/** A term's timetable (the current term when none is given). */
export function termEntries(ctx: CoreContext, given: Partial<Term> = {}): ScheduleEntry[] {
  const term = termOf(given, currentTerm(ctx));
  const rows = listEntries(ctx.db, term);
  const curriculum = termCurriculumNotes(ctx, term, rows);
  return responses(ctx, rows, rows, keptClashWarnings(ctx.db, rows), (row) => curriculum.get(row.id));
}

export interface CopyTermInput {
  from: Term;
  to: Term;
  keep_instructors: boolean;
  keep_rooms: boolean;
}

export interface CopyTermResult {
  copied: ScheduleEntry[];
  not_copied: { entry_id: number; course_code: string; section_name: string; reason: string }[];
}

/**
 * Rolls a timetable forward: every meeting of `from` is written into `to` through the same checks
 * as any write; a meeting that breaks a rule there stays behind with the reason. Parts of term the
 * target lacks are added without dates (their dates differ from year to year).
 */
export function copyTerm(ctx: CoreContext, input: CopyTermInput): CopyTermResult {
  if (input.from.year === input.to.year && input.from.semester === input.to.semester) throw new CoreError('invalid', `Copying ${termLabel(input.from)} onto itself would duplicate every meeting; pick another target term`);
  return ctx.db
    .transaction(() => {
      const sourceParts = partsByCode(ctx, input.from);
      const targetParts = partsByCode(ctx, input.to);
      for (const [code, part] of sourceParts) if (!targetParts.has(code)) upsertPart(ctx.db, input.to, { ...part, start_date: null, end_date: null });
      const meetings = listEntries(ctx.db, input.from).map((row) => ({
        row,
        meeting: {
          year: input.to.year,
          semester: input.to.semester,
          course_code: row.course_code,
          section_name: row.section_name,
          doctors: input.keep_instructors ? row.doctor_ids.map((id, i) => ({ id, role: row.doctor_roles[i] })) : [],
          day: row.day,
          start_time: row.start_time,
          duration_mins: row.duration_mins,
          room: input.keep_rooms ? row.room : null,
          part_of_term: row.part_of_term,
          joint_group: row.joint_group,
          campus: row.campus,
        } satisfies MeetingInput,
      }));
      // One that is refused leaves the others in place.
      const { written, refused } = eachInSavepoint(ctx.db, meetings, ({ meeting }) => insertCheckedEntry(ctx, meeting));
      return {
        copied: written,
        not_copied: refused.map(({ item: { row }, error }) => ({ entry_id: row.id, course_code: row.course_code, section_name: row.section_name, reason: error.message })),
      };
    })
    .immediate();
}
