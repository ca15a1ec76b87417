import { meetingCurriculumNotes, termCurriculumNotes } from './curriculum-check';
import { moreCurriculumWarning, type MeetingCurriculum } from './curriculum';
import type { CoreContext } from '../context';
import type { Db } from '../db/store';
import { eachInSavepoint } from '../db/savepoints';
import { inTransaction } from '../db/transactions';
import { takeLocks } from '../db/locks';
import { knownRead, readTogether } from '../db/read-together';
import { settingsRead } from '../db/settings';
import { pushTo } from '../util/multimap';
import { meetingLocks, termLocks } from './locks';
import { lockStoredMeeting } from './gate';
import { CoreError } from '../domain/errors';
import { doctorsById, doctorsByIdRead, type Doctor } from '../faculty/repo';
import { courseCodes, courseCurriculumRead, hasCourse } from '../catalog/repo';
import { findRoomByName, roomByNameRead, roomsByKey, type Room } from '../rooms/repo';
import { expectedSectionSizes, expectedSectionSizesRead } from '../predict/runs-repo';
import { displayRoom, roomKey, sectionLabel } from '../domain/meetings';
import { allowedCourseList, mayTeach } from '../domain/teaching';
import { WHOLE_TERM_CODE, type PartOfTerm } from '../domain/parts';
import { termKey, termLabel, type Term } from '../domain/terms';
import { type CreateEntryInput, type PatchEntryInput, type ScheduleEntry } from './schema';
import { availabilityConflicts, bookingClashes, sectionOverlapNote, type Booking, type Clash } from './conflicts';
import { bookingTogether, jointRule } from './meeting-together';
import { assertEndsByMidnight, instructorAliases, meetingCampus, requestedInstructors } from './entry-values';
import { CHECKED_ROLE, type InstructorRole } from '../domain/roles';
import {
  bookingOf,
  checkedInstructors,
  clashCandidatesRead,
  termPartsRead,
  entryLockedRead,
  departmentsParts,
  clashesOf,
  clearClashes,
  deleteEntry,
  deleteTermEntries,
  entryRow,
  insertClashes,
  insertEntry,
  jointGroupEntriesRead,
  listEntries,
  lockedEntries,
  meetingsOfSectionRead,
  setEntryLocked,
  updateEntry,
  upsertPart,
  type EntryRow,
  type EntryValues,
} from './repo';
import { partsByCode, partsMap, requirePart, termOf, currentTerm, keptWriteSettings, sameWriteSettings, WRITE_SETTING_KEYS, type WriteSettings } from './terms';
import { showAsTheCallerMay } from './other-departments';
import { changeOf, meetingState, meetingStates, newMeetingUid, operationOf, recordTermChanges } from './record-changes';
import { sameMeeting, type ChangeOperation, type MeetingState } from '../domain/meeting-changes';

/** Non-blocking remarks shown with an entry. */
export function entryWarnings(entry: Pick<EntryValues, 'course_code'>, doctors: readonly Doctor[], inCatalog: (code: string) => boolean): string[] {
  const warnings: string[] = [];
  if (!inCatalog(entry.course_code)) warnings.push(`${entry.course_code} is not in the course catalog`);
  for (const doctor of doctors)
    if (!mayTeach(allowedCourseList(doctor), entry.course_code)) warnings.push(`${doctor.name} is not listed to teach ${entry.course_code}`);
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

function resolvedDoctors(ids: readonly number[], found: ReadonlyMap<number, Doctor>): Doctor[] {
  return ids.map((id) => {
    const doctor = found.get(id);
    if (!doctor) throw new CoreError('invalid', `No doctor with id ${id}: pick an existing doctor, or 0 to leave the section unassigned`);
    return doctor;
  });
}

/**
 * A meeting's campus: its declared room's (`declared`, as read), else the one given, else the
 * default campus. A room that belongs to another department is not the department's to book.
 */
function campusOf(ctx: CoreContext, declared: Room | undefined, room: string, given: string | null | undefined, current: string | null): string {
  if (declared && declared.department_id !== null && declared.department_id !== ctx.department) {
    throw new CoreError('conflict', `Room ${declared.name} belongs to another department: book a room of the campus pool or of your department`, {
      conflicts: [`Room ${declared.name} belongs to another department`],
    });
  }
  const asked = given === undefined || given === null ? null : ctx.campuses.require(given, 'campus');
  return meetingCampus(room, declared?.campus, asked, current, ctx.campuses.fallback);
}

/**
 * What a meeting's rules are checked against, read at once under its locks (one round trip to a
 * database server): the settings again, its room, its instructors (`doctorIds`: before and after a
 * change), its term's parts, the meetings it could clash with and, for a stored one, whether it is
 * locked.
 */
function readForCheck(ctx: CoreContext, values: EntryValues, doctorIds: readonly number[], excludeId: number | null, settings: WriteSettings) {
  const term: Term = { year: values.year, semester: values.semester };
  return readTogether(ctx.db, {
    settings: settingsRead(ctx.db, ctx.department, WRITE_SETTING_KEYS),
    room: roomByNameRead(ctx.db, values.room),
    doctors: doctorsByIdRead(ctx.db, ctx.department, doctorIds),
    parts: termPartsRead(ctx.db, ctx.department, term),
    candidates: clashCandidatesRead(ctx.db, term, values, excludeId, settings.travelMinutes),
    locked: excludeId === null ? knownRead(false) : entryLockedRead(ctx.db, excludeId),
  });
}

type CheckReads = Awaited<ReturnType<typeof readForCheck>>;

/** Every rule the values break, each with the meeting it is about; `excludeId` is the entry being changed. */
async function meetingClashes(
  ctx: CoreContext,
  values: EntryValues,
  doctors: readonly Doctor[],
  excludeId: number | null,
  travel: number,
  read: Pick<CheckReads, 'parts' | 'candidates'>,
): Promise<{ booking: Booking; clashes: Clash[]; parts: Map<string, PartOfTerm> }> {
  const term: Term = { year: values.year, semester: values.semester };
  const parts = partsMap(read.parts);
  requirePart(parts, values.part_of_term, term);
  const booking = bookingOf({ ...values, id: excludeId }, parts);
  const checked = new Set(booking.doctor_ids);
  const rules = { travelMinutes: travel };
  const rows = read.candidates;
  // Another department's meetings (a shared room or instructor) are dated by their own parts of term.
  const departments = [...new Set(rows.map((r) => r.department_id).filter((d) => d !== ctx.department))];
  const theirParts = new Map([...(await departmentsParts(ctx.db, departments, term))].map(([d, list]) => [d, partsMap(list)]));
  const others = rows.map((row) => bookingOf(row, row.department_id === ctx.department ? parts : (theirParts.get(row.department_id) ?? parts)));
  await showAsTheCallerMay(ctx, others);
  return {
    booking,
    parts,
    clashes: bookingClashes(
      booking,
      doctors.filter((d) => checked.has(d.id)),
      others,
      rules,
    ),
  };
}

/**
 * Refuses a write that breaks a rule, every clash named. When the rules of meeting together say the
 * other section is the same class by design (same time, and the same room and instructor, or one
 * instructor and no second room), the refusal says how to record that: one joint group for both.
 */
function refuseClashes({ booking, clashes }: { booking: Booking; clashes: readonly Clash[] }, deferred?: ReadonlySet<number>): void {
  // Clashes with meetings of the same replay, which move too, are checked once all of them are in (see applyTogether).
  const refused = deferred === undefined ? clashes : clashes.filter((c) => c.with?.id === null || c.with?.id === undefined || !deferred.has(c.with.id));
  const conflicts = refused.map((c) => c.detail);
  if (conflicts.length === 0) return;
  // A joint group is one department's label: the hint is only about the department's own sections (and never names another's).
  const together = refused
    .map((c) => c.with)
    .find(
      (other): other is Booking =>
        other !== null && other.department === booking.department && jointRule(bookingTogether(booking), bookingTogether(other), () => false) !== null,
    );
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

/** A meeting a write has just stored: its row, its instructors and whether it is locked (what its answer is made of). */
export interface StoredMeeting {
  row: EntryRow;
  doctors: Doctor[];
  locked: boolean;
  /** The term's parts of term the write was checked with. */
  parts: ReadonlyMap<string, PartOfTerm>;
}

/** The keys a meeting's write holds: its room, the instructors the rules check, its section (see locks.ts). */
const lockedBy = (values: EntryValues): Parameters<typeof meetingLocks>[0][number] => ({ ...values, doctor_ids: checkedInstructors(values) });

/**
 * Validates, checks every rule and inserts; the caller holds the transaction (and, for a write of
 * whole terms, the terms' locks; else this takes the meeting's). Answers the new id and the clashes
 * it was stored with.
 */
export async function storeMeeting(
  ctx: CoreContext,
  input: MeetingInput,
  policy: ClashPolicy,
  /** How history records it: the operation, the id it keeps, and what it was (a section without a time given one). */
  recorded: { operation: ChangeOperation; uid?: string; locked?: boolean; before?: MeetingState | null } = { operation: 'create' },
  /** Meetings (by id) of the same replay whose clashes with this one are checked once all are in. */
  deferred?: ReadonlySet<number>,
): Promise<StoredMeeting & { id: number; clashes: Clash[] }> {
  const settings = await keptWriteSettings(ctx, input);
  const { term, travelMinutes: travel } = settings;
  const room = displayRoom(input.room);
  const values: EntryValues = {
    uid: recorded.uid ?? newMeetingUid(),
    department_id: ctx.department,
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
    // Its room's, once the room is read under the locks (below).
    campus: '',
  };
  assertEndsByMidnight(values);
  await takeLocks(ctx.db, meetingLocks([lockedBy(values)]));
  const read = await readForCheck(ctx, values, values.doctor_ids, null, settings);
  // The settings changed since this process last read them: again, with the new ones (and their locks).
  if (!sameWriteSettings(ctx, settings, read.settings)) return storeMeeting(ctx, input, policy, recorded, deferred);
  values.campus = campusOf(ctx, read.room, room, input.campus, null);
  const doctors = resolvedDoctors(values.doctor_ids, read.doctors);
  const checked = await meetingClashes(ctx, values, doctors, null, travel, read);
  const { clashes } = checked;
  if (policy === 'refuse') refuseClashes(checked, deferred);
  const id = await insertEntry(ctx.db, values, ctx.now().toISOString());
  await insertClashes(
    ctx.db,
    clashes.map((clash) => ({ entry_id: id, other_id: clash.with?.id ?? id, detail: clash.detail })),
  );
  if (recorded.locked === true) await setEntryLocked(ctx.db, id, true, ctx.now().toISOString());
  const names = new Map(doctors.map((d) => [d.id, d.name]));
  await recordTermChanges(ctx, term, [changeOf(recorded.operation, recorded.before ?? null, meetingState(values, names, recorded.locked === true))]);
  return { id, clashes, row: entryRow(id, values), doctors, locked: recorded.locked === true, parts: checked.parts };
}

/** Validates, checks every rule and inserts, refusing any clash; the caller holds the transaction. */
export async function insertCheckedEntry(
  ctx: CoreContext,
  input: MeetingInput,
  operation: ChangeOperation = 'create',
  /** The id it takes and what it was: a section without a time it gives a time to. */
  was?: { uid: string; before: MeetingState },
): Promise<ScheduleEntry> {
  return respond(ctx, await storeMeeting(ctx, input, 'refuse', { operation, ...(was ? { uid: was.uid, before: was.before } : {}) }));
}

/**
 * Checks and writes in one transaction that holds what it checks: two requests can never both book
 * a slot. The answer (its warnings) is read after the commit, so the write holds its locks no longer
 * than its checks take.
 */
export async function createEntry(ctx: CoreContext, input: CreateEntryInput): Promise<ScheduleEntry> {
  return respond(ctx, await inTransaction(ctx.db, (db) => storeMeeting({ ...ctx, db }, input, 'refuse', { operation: 'create' })));
}

export async function patchEntry(ctx: CoreContext, input: PatchEntryInput): Promise<ScheduleEntry> {
  const { entry_id: id, ...patch } = input;
  const stored = await inTransaction(ctx.db, async (db) => {
    const tx: CoreContext = { ...ctx, db };
    // Through the gate: the meeting is read once no other write can change it.
    const current = await lockStoredMeeting(tx, id, { year: patch.year, semester: patch.semester });
    return changeStoredEntry(tx, current, patch);
  });
  // As for a new meeting, the answer is read after the commit.
  return respond(ctx, stored);
}

/**
 * Changes a stored meeting (read under its lock, in the caller's transaction) through every rule,
 * and records the change: a move, an edit, a lock, or the operation given (an undo, a publish).
 */
export async function changeStoredEntry(
  tx: CoreContext,
  current: EntryRow,
  input: Omit<PatchEntryInput, 'entry_id'>,
  operation?: ChangeOperation,
  /** Meetings (by id) of the same replay whose clashes with this one are checked once all are in. */
  deferred?: ReadonlySet<number>,
): Promise<StoredMeeting> {
  const { locked, ...patch } = input;
  const { db } = tx;
  const id = current.id;
  const term = termOf(patch, { year: current.year, semester: current.semester });
  const settings = await keptWriteSettings(tx, term);
  const room = patch.room !== undefined ? displayRoom(patch.room) : current.room;
  const roomChanged = roomKey(room) !== current.room_key;
  const values: EntryValues = {
    uid: current.uid,
    department_id: current.department_id,
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
    // Its room's, once the room is read under the locks (below).
    campus: current.campus,
  };
  assertEndsByMidnight(values);
  await takeLocks(db, meetingLocks([lockedBy(current), lockedBy(values)]));
  // The instructors before and after, read at once (history names both), with all the rules check.
  const read = await readForCheck(tx, values, [...values.doctor_ids, ...current.doctor_ids], id, settings);
  if (!sameWriteSettings(tx, settings, read.settings)) return changeStoredEntry(tx, current, input, operation, deferred);
  values.campus = campusOf(tx, read.room, room, patch.campus, roomChanged && patch.campus === undefined ? null : current.campus);
  const known = read.doctors;
  const doctors = resolvedDoctors(values.doctor_ids, known);
  const checked = await meetingClashes(tx, values, doctors, id, settings.travelMinutes, read);
  refuseClashes(checked, deferred);
  const wasLocked = read.locked;
  await updateEntry(db, id, values);
  await clearClashes(db, id);
  if (locked !== undefined && locked !== wasLocked) await setEntryLocked(db, id, locked, tx.now().toISOString());
  const names = new Map([...known].map(([doctorId, d]) => [doctorId, d.name]));
  const before = meetingState(current, names, wasLocked);
  const after = meetingState(values, names, locked ?? wasLocked);
  const kind = operation ?? operationOf(before, after);
  if (termKey(term) !== termKey(current)) {
    // Moved to another term: one change (its before and after name their terms), in both terms' history.
    await recordTermChanges(tx, current, [changeOf(kind, before, after)]);
    await recordTermChanges(tx, term, [changeOf(kind, before, after)]);
  } else if (!sameMeeting(before, after)) await recordTermChanges(tx, term, [changeOf(kind, before, after)]);
  return { row: entryRow(id, values), doctors, locked: locked ?? wasLocked, parts: checked.parts };
}

export async function removeEntry(ctx: CoreContext, id: number): Promise<{ status: 'deleted' }> {
  return inTransaction(ctx.db, async (db) => {
    const tx: CoreContext = { ...ctx, db };
    const current = await lockStoredMeeting(tx, id);
    await deleteStoredEntry(tx, current, 'delete');
    return { status: 'deleted' as const };
  });
}

/** Deletes every meeting of the department's term (a listing published over it) and records each; the caller holds the term. */
export async function deleteTermMeetings(tx: CoreContext, term: Term, operation: ChangeOperation): Promise<void> {
  const rows = await listEntries(tx.db, tx.department, term);
  const states = await meetingStates(tx, rows);
  await deleteTermEntries(tx.db, tx.department, term);
  await recordTermChanges(
    tx,
    term,
    rows.map((r) => changeOf(operation, states.get(r.id) ?? null, null)),
  );
}

/** Deletes a stored meeting (read under its lock, in the caller's transaction) and records it. */
export async function deleteStoredEntry(tx: CoreContext, current: EntryRow, operation: ChangeOperation | null): Promise<MeetingState | null> {
  const before = (await meetingStates(tx, [current])).get(current.id) ?? null;
  await deleteEntry(tx.db, tx.department, current.id);
  // No operation: the caller records the change (the meeting becomes a section without a time of the same id).
  if (operation !== null) await recordTermChanges(tx, current, [changeOf(operation, before, null)]);
  return before;
}

/** What the answers for a set of meetings read besides the meetings: read once for all of them. */
interface ResponseFacts {
  doctors: ReadonlyMap<number, Doctor>;
  inCatalog: (code: string) => boolean;
  /** Seats of each declared room, by room key (null: not known). */
  capacities: ReadonlyMap<string, number | null>;
  /** Expected students per section of each course, by "year|semester|campus" (the latest run's). */
  sizes: ReadonlyMap<string, ReadonlyMap<string, number>>;
}

const sizeKey = (row: Pick<EntryRow, 'year' | 'semester' | 'campus'>): string => `${row.year}|${row.semester}|${row.campus}`;

/** Rooms looked up one by one; more are read as one list. */
const FEW_ROOMS = 8;

async function responseFacts(
  ctx: CoreContext,
  rows: readonly EntryRow[],
  jointRows: readonly EntryRow[],
  known: readonly Doctor[],
  listed?: ReadonlySet<string>,
  /** Room seats and expected students the caller has read already. */
  read: Pick<ResponseFacts, 'capacities' | 'sizes'> = { capacities: new Map(), sizes: new Map() },
): Promise<ResponseFacts> {
  const doctors = new Map<number, Doctor>(known.map((d) => [d.id, d]));
  const missing = new Set(rows.flatMap((r) => r.doctor_ids).filter((id) => !doctors.has(id)));
  for (const [id, doctor] of await doctorsById(ctx.db, ctx.department, missing)) doctors.set(id, doctor);
  // One lookup for a meeting or two; the whole catalog for a term's worth.
  const codes = [...new Set(rows.map((r) => r.course_code))];
  let inCatalog: (code: string) => boolean;
  if (listed) inCatalog = (code) => listed.has(code);
  else if (codes.length <= 2) {
    const listed = new Set<string>();
    for (const code of codes) if (await hasCourse(ctx.db, ctx.department, code)) listed.add(code);
    inCatalog = (code) => listed.has(code);
  } else {
    const catalog = await courseCodes(ctx.db, ctx.department);
    inCatalog = (code) => catalog.has(code);
  }
  const grouped = jointRows.filter((r) => r.joint_group !== null);
  const capacities = new Map(read.capacities);
  const sizes = new Map(read.sizes);
  if (grouped.length > 0) {
    // A meeting's group reads its few rooms one by one; a term's groups read the room list once.
    const rooms = new Map(grouped.filter((r) => r.room_key !== null && !capacities.has(r.room_key)).map((r) => [r.room_key as string, r.room]));
    if (rooms.size > FEW_ROOMS) for (const [key, room] of await roomsByKey(ctx.db)) capacities.set(key, room.capacity);
    else for (const [key, room] of rooms) capacities.set(key, (await findRoomByName(ctx.db, room))?.capacity ?? null);
    for (const row of grouped) {
      const key = sizeKey(row);
      if (!sizes.has(key)) sizes.set(key, await expectedSectionSizes(ctx.db, ctx.department, row.year, row.semester, row.campus));
    }
  }
  return { doctors, inCatalog, capacities, sizes };
}

/**
 * Joint groups meet in one room, so the room should seat the group's expected students (from the
 * latest prediction run for the term and campus): a warning on every member when it does not.
 */
function jointGroupWarnings(rows: readonly EntryRow[], facts: ResponseFacts): Map<number, string[]> {
  const warnings = new Map<number, string[]>();
  const groups = new Map<string, EntryRow[]>();
  for (const row of rows) {
    if (row.joint_group === null) continue;
    const key = `${row.year}|${row.semester}|${row.joint_group}`;
    groups.set(key, [...(groups.get(key) ?? []), row]);
  }
  for (const members of groups.values()) {
    const first = members[0] as EntryRow;
    const expected = facts.sizes.get(sizeKey(first)) ?? new Map<string, number>();
    const sections = new Map(members.map((m) => [`${m.course_code}|${m.section_name}`, m]));
    const students = [...sections.values()].reduce((sum, m) => sum + (expected.get(m.course_code) ?? 0), 0);
    if (students === 0) continue;
    for (const member of members) {
      if (member.room_key === null) continue;
      const capacity = facts.capacities.get(member.room_key);
      if (capacity == null || capacity >= students) continue;
      const labels = [...sections.values()].map((m) => sectionLabel(m.course_code, m.section_name)).join(', ');
      warnings.set(member.id, [
        ...(warnings.get(member.id) ?? []),
        `Room ${member.room} seats ${capacity}, fewer than the ${students} students expected in joint group ${member.joint_group ?? ''} (${labels})`,
      ]);
    }
  }
  return warnings;
}

/** Meetings of one section at overlapping times (the section meeting in different weeks): a note on each, naming the other. */
async function sectionOverlapWarnings(
  ctx: CoreContext,
  rows: readonly EntryRow[],
  sectionRows: readonly EntryRow[],
  /** The parts of term of the rows' one term, when the caller has them. */
  knownParts?: ReadonlyMap<string, PartOfTerm>,
): Promise<Map<number, string[]>> {
  const warnings = new Map<number, string[]>();
  const key = (r: EntryRow): string => `${termKey(r)}|${r.course_code}|${r.section_name}`;
  const bySection = new Map<string, EntryRow[]>();
  for (const r of sectionRows) pushTo(bySection, key(r), r);
  const parts = new Map<string, ReadonlyMap<string, PartOfTerm>>();
  for (const row of rows) {
    const others = (bySection.get(key(row)) ?? []).filter((r) => r.id !== row.id);
    if (others.length === 0) continue;
    const term = termKey(row);
    if (!parts.has(term)) parts.set(term, knownParts ?? (await partsByCode(ctx, row)));
    const termParts = parts.get(term) ?? new Map();
    const booking = bookingOf(row, termParts);
    const notes = others.flatMap((other) => sectionOverlapNote(booking, bookingOf(other, termParts)) ?? []);
    if (notes.length > 0) warnings.set(row.id, notes);
  }
  return warnings;
}

/** Kept-clash warnings one meeting shows one by one; beyond, one warning counts the rest. */
const MAX_KEPT_CLASH_WARNINGS = 10;

/** Clashes an import stored on purpose: on the meeting stored with them, and on the meeting it clashes with. */
async function keptClashWarnings(db: Db, rows: readonly EntryRow[]): Promise<Map<number, string[]>> {
  const warnings = new Map<number, string[]>();
  const more = new Map<number, number>();
  const add = (id: number, text: string): void => {
    const list = warnings.get(id) ?? [];
    if (list.length < MAX_KEPT_CLASH_WARNINGS) warnings.set(id, [...list, text]);
    else more.set(id, (more.get(id) ?? 0) + 1);
  };
  const labels = new Map(rows.map((r) => [r.id, sectionLabel(r.course_code, r.section_name)]));
  for (const clash of await clashesOf(
    db,
    rows.map((r) => r.id),
  )) {
    add(clash.entry_id, `Imported with a clash: ${clash.detail}`);
    if (clash.other_id !== clash.entry_id)
      add(clash.other_id, `Clashes with ${labels.get(clash.entry_id) ?? `entry ${clash.entry_id}`} (imported): ${clash.detail}`);
  }
  for (const [id, count] of more) warnings.get(id)?.push(`…and ${count.toLocaleString('en-US')} more clashes kept by an import`);
  return warnings;
}

/**
 * Responses for meetings: `jointRows` are their joint groups' members, `sectionRows` their sections'
 * meetings, `kept` the warnings of clashes an import stored with them, `curriculum` their curriculum conflicts.
 */
async function responses(
  ctx: CoreContext,
  rows: readonly EntryRow[],
  jointRows: readonly EntryRow[],
  sectionRows: readonly EntryRow[],
  kept: ReadonlyMap<number, string[]>,
  curriculum: (row: EntryRow) => MeetingCurriculum | undefined,
  /** What the caller has read already; `parts` only when every row is of one term. */
  known: {
    doctors?: readonly Doctor[];
    listed?: ReadonlySet<string>;
    locked?: ReadonlySet<number>;
    parts?: ReadonlyMap<string, PartOfTerm>;
    read?: Pick<ResponseFacts, 'capacities' | 'sizes'>;
  } = {},
): Promise<ScheduleEntry[]> {
  const facts = await responseFacts(ctx, rows, jointRows, known.doctors ?? [], known.listed, known.read);
  const joint = jointGroupWarnings(jointRows, facts);
  const overlaps = await sectionOverlapWarnings(ctx, rows, sectionRows, known.parts);
  const locked =
    known.locked ??
    (await lockedEntries(
      ctx.db,
      rows.map((r) => r.id),
    ));
  return rows.map((row) => {
    const teaching = row.doctor_ids.map((id) => facts.doctors.get(id)).filter((d): d is Doctor => d !== undefined);
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
      warnings: [
        ...entryWarnings(row, teaching, facts.inCatalog),
        ...availabilityWarnings(row, teaching),
        ...(joint.get(row.id) ?? []),
        ...(overlaps.get(row.id) ?? []),
        ...(kept.get(row.id) ?? []),
        ...cohortWarnings,
      ],
      year: row.year,
      semester: row.semester,
      doctors: instructors,
      ...instructorAliases(instructors),
      part_of_term: row.part_of_term,
      joint_group: row.joint_group,
      campus: row.campus,
      locked: locked.has(row.id),
      uid: row.uid,
      curriculum_conflicts: cohort.notes.map((n) => n.course),
    };
  });
}

/**
 * The answer to a write of one meeting: the meeting as stored, with its warnings. What they are
 * made of is read at once (one round trip to a database server), then the curriculum's peers.
 */
async function respond(ctx: CoreContext, { row, doctors, locked, parts }: StoredMeeting): Promise<ScheduleEntry> {
  const group = row.joint_group;
  const term: Term = { year: row.year, semester: row.semester };
  const read = await readTogether(ctx.db, {
    members: group === null ? knownRead([row]) : jointGroupEntriesRead(ctx.db, ctx.department, term, group),
    course: courseCurriculumRead(ctx.db, ctx.department, row.course_code),
    section: meetingsOfSectionRead(ctx.db, ctx.department, term, row.course_code, row.section_name),
    // A joint group's room should seat its expected students: the meeting's own room and run (its members' are read if they differ).
    room: group === null ? knownRead(undefined) : roomByNameRead(ctx.db, row.room),
    sizes: group === null ? knownRead(undefined) : expectedSectionSizesRead(ctx.db, ctx.department, row.year, row.semester, row.campus),
  });
  // A meeting just written passed every rule, so it keeps no clash (a change clears those it had).
  const notes = await meetingCurriculumNotes(ctx, row, { course: read.course, parts });
  const known = {
    doctors,
    listed: new Set(read.course ? [read.course.code] : []),
    locked: new Set(locked ? [row.id] : []),
    parts,
    read: {
      capacities: new Map(row.room_key === null || group === null ? [] : [[row.room_key, read.room?.capacity ?? null]]),
      sizes: new Map(read.sizes ? [[sizeKey(row), read.sizes]] : []),
    },
  };
  return (await responses(ctx, [row], read.members, read.section, new Map(), () => notes, known))[0] as ScheduleEntry;
}

/** A term's timetable (the current term when none is given). */
export async function termEntries(ctx: CoreContext, given: Partial<Term> = {}): Promise<ScheduleEntry[]> {
  const term = termOf(given, await currentTerm(ctx));
  const rows = await listEntries(ctx.db, ctx.department, term);
  const curriculum = await termCurriculumNotes(ctx, term, rows);
  return responses(ctx, rows, rows, rows, await keptClashWarnings(ctx.db, rows), (row) => curriculum.get(row.id));
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
export async function copyTerm(ctx: CoreContext, input: CopyTermInput): Promise<CopyTermResult> {
  if (input.from.year === input.to.year && input.from.semester === input.to.semester)
    throw new CoreError('invalid', `Copying ${termLabel(input.from)} onto itself would duplicate every meeting; pick another target term`);
  return inTransaction(ctx.db, async (db) => {
    const tx: CoreContext = { ...ctx, db };
    // The target term is written as a whole: no other write lands in it meanwhile.
    await takeLocks(db, termLocks([input.to]));
    const sourceParts = await partsByCode(tx, input.from);
    const targetParts = await partsByCode(tx, input.to);
    for (const [code, part] of sourceParts)
      if (!targetParts.has(code)) await upsertPart(db, ctx.department, input.to, { ...part, start_date: null, end_date: null });
    const meetings = (await listEntries(db, ctx.department, input.from)).map((row) => ({
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
    const { written, refused } = await eachInSavepoint(db, meetings, ({ meeting }) => insertCheckedEntry(tx, meeting, 'copy'));
    return {
      copied: written,
      not_copied: refused.map(({ item: { row }, error }) => ({
        entry_id: row.id,
        course_code: row.course_code,
        section_name: row.section_name,
        reason: error.message,
      })),
    };
  });
}
