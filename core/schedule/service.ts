import type { Db } from '../db/connection';
import { CoreError, notFound } from '../domain/errors';
import { allowedCourseList, type Doctor } from '../faculty/schema';
import { getDoctor } from '../faculty/repo';
import { DAY_END, type CreateEntryInput, type PatchEntryInput, type ScheduleEntry } from './schema';
import { bookingConflicts } from './conflicts';
import { bookingOf, clashCandidates, deleteEntry, getEntry, insertEntry, listEntries, updateEntry, type EntryRow, type EntryValues } from './repo';
import { displayRoom } from '../domain/meetings';
import { formatHHMM } from '../domain/time';
import { mayTeach } from '../domain/teaching';

/** Non-blocking remarks shown with an entry. */
export function entryWarnings(entry: Pick<EntryValues, 'course_code'>, doctor: Doctor | null, inCatalog: (code: string) => boolean): string[] {
  const warnings: string[] = [];
  if (!inCatalog(entry.course_code)) warnings.push(`${entry.course_code} is not in the course catalog`);
  if (doctor && !mayTeach(allowedCourseList(doctor), entry.course_code)) warnings.push(`${doctor.name} is not listed to teach ${entry.course_code}`);
  return warnings;
}

function catalogLookup(db: Db): (code: string) => boolean {
  const statement = db.prepare<[string], number>('SELECT 1 FROM courses WHERE code = ?').pluck();
  return (code) => statement.get(code) !== undefined;
}

function resolveDoctor(db: Db, doctorId: number | null): Doctor | null {
  if (doctorId === null) return null;
  const doctor = getDoctor(db, doctorId);
  if (!doctor) throw new CoreError('invalid', `No doctor with id ${doctorId}: pick an existing doctor, or 0 to leave the section unassigned`);
  return doctor;
}

function toResponse(row: EntryRow, doctor: Doctor | null, inCatalog: (code: string) => boolean): ScheduleEntry {
  return {
    id: row.id,
    course_code: row.course_code,
    section_name: row.section_name,
    doctor_id: row.doctor_id,
    day: row.day,
    start_time: row.start_time,
    duration_mins: row.duration_mins,
    room: row.room,
    doctor: doctor ? { id: doctor.id, name: doctor.name } : null,
    warnings: entryWarnings(row, doctor, inCatalog),
  };
}

function assertEndsByMidnight(values: EntryValues): void {
  const { start, duration } = bookingOf(values);
  if (start + duration > DAY_END) {
    const message = `the session must end by 24:00 (${values.start_time} + ${duration} minutes ends at ${formatHHMM((start + duration) % DAY_END)} the next day)`;
    throw new CoreError('validation', `duration_mins: ${message}`, { fields: [{ field: 'duration_mins', message }] });
  }
}

/** Refuses values that break a rule; `excludeId` is the entry being changed. */
function assertNoConflicts(db: Db, values: EntryValues, doctor: Doctor | null, excludeId: number | null): void {
  const booking = bookingOf(values);
  const conflicts = bookingConflicts(booking, doctor, clashCandidates(db, doctor?.id ?? null, booking.roomKey, excludeId));
  if (conflicts.length > 0) throw new CoreError('conflict', conflicts.join('; '), { conflicts });
}

/** Validates, checks the three rules and inserts; the caller holds the transaction. */
export function insertCheckedEntry(db: Db, input: Omit<EntryValues, 'room'> & { room: string | null }, now: Date): ScheduleEntry {
  const values: EntryValues = { ...input, room: displayRoom(input.room) };
  assertEndsByMidnight(values);
  const doctor = resolveDoctor(db, input.doctor_id);
  assertNoConflicts(db, values, doctor, null);
  const id = insertEntry(db, values, now.toISOString());
  return toResponse(getEntry(db, id) as EntryRow, doctor, catalogLookup(db));
}

/** Checks and writes in one immediate transaction: two requests can never both book a slot. */
export function createEntry(db: Db, input: CreateEntryInput, now: Date): ScheduleEntry {
  return db.transaction(() => insertCheckedEntry(db, input, now)).immediate();
}

export function patchEntry(db: Db, input: PatchEntryInput): ScheduleEntry {
  return db
    .transaction(() => {
      const { entry_id: id, ...patch } = input;
      const current = getEntry(db, id);
      if (!current) throw notFound(`No timetable entry with id ${id}`);
      const values: EntryValues = {
        course_code: patch.course_code ?? current.course_code,
        section_name: patch.section_name ?? current.section_name,
        doctor_id: patch.doctor_id !== undefined ? patch.doctor_id : current.doctor_id,
        day: patch.day ?? current.day,
        start_time: patch.start_time ?? current.start_time,
        duration_mins: patch.duration_mins ?? current.duration_mins,
        room: patch.room !== undefined ? displayRoom(patch.room) : current.room,
      };
      assertEndsByMidnight(values);
      const doctor = resolveDoctor(db, values.doctor_id);
      assertNoConflicts(db, values, doctor, id);
      updateEntry(db, id, values);
      return toResponse(getEntry(db, id) as EntryRow, doctor, catalogLookup(db));
    })
    .immediate();
}

export function removeEntry(db: Db, id: number): { status: 'deleted' } {
  if (!deleteEntry(db, id)) throw notFound(`No timetable entry with id ${id}`);
  return { status: 'deleted' };
}

export function allEntries(db: Db): ScheduleEntry[] {
  const doctors = new Map<number, Doctor>();
  const inCatalog = catalogLookup(db);
  return listEntries(db).map((row) => {
    let doctor: Doctor | null = null;
    if (row.doctor_id !== null) {
      doctor = doctors.get(row.doctor_id) ?? getDoctor(db, row.doctor_id) ?? null;
      if (doctor) doctors.set(doctor.id, doctor);
    }
    return toResponse(row, doctor, inCatalog);
  });
}
