import { echo, tooLarge } from '../domain/bounds';
import { describeCode } from '../domain/codes';
import { roomKey, sectionLabel } from '../domain/meetings';
import { pushTo } from '../util/multimap';
import { formatHHMM } from '../domain/time';
import { WHOLE_TERM, type PartOfTerm } from '../domain/parts';
import { CHECKED_ROLE, type InstructorRole } from '../domain/roles';
import { termKey, termLabel, type Term } from '../domain/terms';
import type { Campus, CampusList } from '../domain/campuses';
import type { Course } from '../catalog/repo';
import { doctorNameKey } from '../domain/teaching';
import type { Doctor, DoctorRecord } from '../faculty/repo';
import type { Room, RoomRecord } from '../rooms/repo';
import {
  sectionOverlapNote,
  simpleBooking,
  type Booking,
  type Clash,
  type DoctorAvailability,
  type PlannedClash,
  describeCurriculumConflict,
  forEachCurriculumConflict,
  type CurriculumCourse,
  groupLookup,
  meetingCampus,
  CrossListing,
  proposeJointGroups,
  type UntimedInput,
  ComparisonBudget,
  TermBook,
} from '../timetable';
import { decideRoles, type RoleDecision } from './decisions';
import { togetherOf, type ListedMeeting, type ListedSection, type ListingRead } from './rows';
import { bookingOf, type EntryRow, type EntryValues } from '../timetable/repo';

/**
 * The import's plan, pure: from the meetings read off a listing and what the database holds now
 * (a snapshot read in the same transaction), everything the import will do — parts of term,
 * courses, instructors and rooms to add, each meeting stored or refused with the clashes the
 * timetable's own rules find, and the answer. A dry run is this plan alone; applying writes it.
 */

/** What the plan reads of the database. */
export interface ImportSnapshot {
  /** Each term the listing names: its meetings and parts of term now, by termKey. */
  terms: ReadonlyMap<string, { entries: readonly EntryRow[]; parts: ReadonlyMap<string, PartOfTerm>; taken: readonly Booking[] }>;
  /** The doctors, by name key. */
  doctors: ReadonlyMap<string, Doctor>;
  /** People of the campus the listing names whom the department does not list yet (other departments' instructors), by name key. */
  campusDoctors: ReadonlyMap<string, DoctorAvailability>;
  /** The declared rooms, by room key. */
  rooms: ReadonlyMap<string, Room>;
  knownCourses: ReadonlySet<string>;
  /** Catalog courses that can belong to a cohort (for the curriculum conflicts the terms will hold). */
  cohortCourses: readonly CurriculumCourse[];
  travelMinutes: number;
}

export interface ImportOptions {
  filename: string;
  /** The campus of meetings whose rows name none, and of rooms the import declares. */
  campus: Campus;
  campuses: CampusList;
  /** Store clashing meetings with the clash kept as a warning (flag), or leave them out (refuse). */
  policy: 'refuse' | 'flag';
  /** Instructor name → role, decided by staff before applying. */
  roles: ReadonlyMap<string, InstructorRole>;
  /** The department whose timetable the listing goes into. */
  department: number;
}

export interface PlannedMeeting {
  /** The meeting's values (its uid is given when it is stored). Instructor ids: a doctor the plan adds has a negative stand-in id until it is written. */
  values: Omit<EntryValues, 'uid'>;
  clashes: PlannedClash[];
}

export interface ImportPlan {
  parts: { term: Term; part: PartOfTerm }[];
  /** Sections without a time (instructors may be stand-in ids until written). */
  untimed: UntimedInput[];
  courses: Course[];
  /** New doctors with their stand-in ids. */
  doctors: { standIn: number; record: DoctorRecord }[];
  rooms: RoomRecord[];
  meetings: PlannedMeeting[];
  report: ImportReport;
}

/** A meeting the rules refuse (or store flagged), with the meetings it clashes with: a row of the file, or one already stored. */
export interface ImportConflict {
  row: number;
  course_code: string;
  section_name: string;
  detail: string;
  with: { row: number | null; entry_id: number | null; course_code: string; section_name: string }[];
}

/** Everything the answer says of the plan, lists in full (the answer caps them). */
export interface ImportReport {
  meetings: number;
  /** Sections without a time kept (rows with no days or time, of sections with no timed row). */
  untimed: number;
  sections: number;
  /** Each proposed joint group, with the rules that found it in words. */
  joint_groups: { label: string; members: string[]; rule: string }[];
  roles: RoleDecision[];
  conflicts: ImportConflict[];
  /** The first MAX_LISTED_ROWS, in words (a study plan of a thousand courses in one slot has hundreds of thousands). */
  curriculum_conflicts: { year: number; semester: Term['semester']; campus: string; cohort: string; courses: [string, string]; detail: string }[];
  curriculum_conflicts_total: number;
  terms: Term[];
  notes: string[];
  created: { courses: string[]; doctors: string[]; rooms: string[]; parts_of_term: string[] };
}

/** Items each list of the import's answer holds at most; the answer gives each list's full count beside it. */
export const MAX_LISTED_ROWS = 200;
/** Clashes named in one meeting's message (and kept with it); more are counted, not listed. */
export const MAX_CLASHES_NAMED = 5;
/** Sections one joint group may hold: sections meeting together by design are a handful, never thousands. */
export const MAX_JOINT_SECTIONS = 40;
/** Candidate meetings the rules may compare over one listing (a few per meeting in any real timetable). */
export const MAX_COMPARISONS = 4_000_000;

/** One message for a meeting's clashes: the first few named, the rest counted. */
export function clashMessage(clashes: readonly Clash[], more: boolean): string {
  const named = clashes.slice(0, MAX_CLASHES_NAMED).map((c) => c.detail);
  return more || clashes.length > MAX_CLASHES_NAMED ? `${named.join('; ')}; and more clashes` : named.join('; ');
}

/** The parts of term each meeting is in: the term's parts, else new ones (dates from the file, else the whole term). */
function planParts(
  meetings: readonly ListedSection[],
  snapshot: ImportSnapshot,
): { partsOf: Map<string, Map<string, PartOfTerm>>; created: { term: Term; part: PartOfTerm }[] } {
  const partsOf = new Map<string, Map<string, PartOfTerm>>();
  const created: { term: Term; part: PartOfTerm }[] = [];
  const isNew = new Set<PartOfTerm>();
  for (const m of meetings) {
    const key = termKey(m.term);
    let parts = partsOf.get(key);
    if (!parts) partsOf.set(key, (parts = new Map(snapshot.terms.get(key)?.parts ?? [])));
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
  return { partsOf, created };
}

/** Joint-group labels each term already uses. */
function labelsInUse(snapshot: ImportSnapshot): (term: string) => ReadonlySet<string> {
  return (term) => new Set((snapshot.terms.get(term)?.entries ?? []).map((e) => e.joint_group).filter((g): g is string => g !== null));
}

/** Refuses (413) a listing whose joint groups hold more sections than any real one. */
function checkJointGroupSizes(meetings: readonly ListedMeeting[], groupOf: readonly (string | null)[], filename: string): void {
  const sections = new Map<string, Set<string>>();
  meetings.forEach((m, i) => {
    const label = groupOf[i];
    if (label === null || label === undefined) return;
    const key = `${termKey(m.term)}|${label}`;
    const members = sections.get(key) ?? new Set<string>();
    members.add(`${m.course_code}\u0000${m.section_name}`);
    sections.set(key, members);
    if (members.size > MAX_JOINT_SECTIONS) {
      throw tooLarge(
        filename,
        `joint group "${echo(label, 60)}" (${termLabel(m.term)}) would hold more than ${MAX_JOINT_SECTIONS} sections meeting together; check the file's rooms, times and "meets with" column`,
      );
    }
  });
}

/** Joint groups (the file's and those the rules find) and every instructor's role, with the notes they call for. */
function planGroups(
  meetings: readonly ListedMeeting[],
  snapshot: ImportSnapshot,
  partOf: (m: ListedMeeting) => PartOfTerm,
  budget: ComparisonBudget,
  options: ImportOptions,
) {
  const crossListing = new CrossListing();
  for (const m of meetings) crossListing.add(termKey(m.term), m.course_code, m.cross_listed);
  const groups = proposeJointGroups(
    meetings.map((m) => togetherOf(m, partOf(m))),
    meetings.map((m) => m.joint_group),
    crossListing,
    labelsInUse(snapshot),
    budget,
  );
  const groupOf: (string | null)[] = meetings.map((m) => m.joint_group);
  for (const group of groups) for (const i of group.meetings) groupOf[i] = group.label;
  checkJointGroupSizes(meetings, groupOf, options.filename);
  return { groups, groupOf, decided: decideRoles(meetings, groupOf, partOf, options.roles) };
}

/** Sections the listing gives rows at overlapping times (the section meeting in different weeks), by name. */
function sectionsInDifferentWeeks(meetings: readonly ListedMeeting[], partOf: (m: ListedMeeting) => PartOfTerm): string[] {
  const bySection = new Map<string, ListedMeeting[]>();
  for (const m of meetings) pushTo(bySection, `${termKey(m.term)}|${m.course_code}|${m.section_name}`, m);
  const asBooking = (m: ListedMeeting): Booking =>
    simpleBooking({
      course_code: m.course_code,
      section_name: m.section_name,
      doctor_ids: [],
      day: m.day,
      start: m.start,
      duration: m.duration,
      room: m.room ?? '',
      roomKey: m.room === null ? null : roomKey(m.room),
      part: partOf(m),
    });
  const named: string[] = [];
  for (const rows of bySection.values()) {
    const bookings = rows.map(asBooking);
    if (bookings.some((a, x) => bookings.slice(x + 1).some((b) => sectionOverlapNote(a, b) !== null)))
      named.push(sectionLabel(rows[0]?.course_code ?? '', rows[0]?.section_name ?? ''));
  }
  return named;
}

/** What staff should know of the plan before applying it. */
function planNotes(rolesComplete: boolean, newParts: readonly { part: PartOfTerm }[], differentWeeks: readonly string[]): string[] {
  const notes: string[] = [];
  if (differentWeeks.length > 0) {
    const shown = differentWeeks.slice(0, 5).join(', ');
    notes.push(
      `${differentWeeks.length === 1 ? 'One section lists rows' : `${differentWeeks.length} sections list rows`} at overlapping times (${shown}${differentWeeks.length > 5 ? ', …' : ''}): read as meeting in different weeks, a note on their meetings and not a clash`,
    );
  }
  if (!rolesComplete) notes.push('Some instructors are listed on so many meetings that not every pair was compared: check their roles');
  const undated = newParts.filter((p) => p.part.start_date === null).map((p) => p.part.code);
  if (undated.length > 0) {
    notes.push(
      `Parts of term ${undated.join(', ')} have no dates yet, so their meetings are checked as if each ran the whole term: set their dates (Scheduler → Parts of term) and import again to stop clashes between parts that never meet on the same dates`,
    );
  }
  return notes;
}

/** Courses the catalog does not list yet, named from the listing. */
function planCourses(meetings: readonly ListedSection[], snapshot: ImportSnapshot): Course[] {
  const courses = new Map<string, Course>();
  for (const m of meetings) {
    if (courses.has(m.course_code) || snapshot.knownCourses.has(m.course_code)) continue;
    const code = describeCode(m.course_code);
    courses.set(m.course_code, {
      code: m.course_code,
      name: m.course_name ?? m.course_code,
      prefix: code.prefix,
      number: code.number,
      type: null,
      study_plan: null,
      prerequisites: null,
      course_level: code.level,
    });
  }
  return [...courses.values()];
}

/**
 * Every instructor the listing names, by name key: a known doctor; else a person of the campus
 * another department lists (their own id: their meetings elsewhere are checked against), listed in
 * the department once written; else a new one with a negative stand-in id (until it is written).
 * Each new to the department is allowed the courses the listing gives it.
 */
function planInstructors(meetings: readonly ListedSection[], snapshot: ImportSnapshot) {
  const teachers = new Map<string, DoctorAvailability>();
  const teacherById = new Map<number, DoctorAvailability>();
  const newDoctors = new Map<string, { standIn: number; record: DoctorRecord; courses: Set<string> }>();
  for (const m of meetings) {
    for (const name of m.instructors) {
      const key = doctorNameKey(name);
      const known = snapshot.doctors.get(key);
      if (known) {
        teachers.set(key, known);
        teacherById.set(known.id, known);
        continue;
      }
      let added = newDoctors.get(key);
      if (!added) {
        const person = snapshot.campusDoctors.get(key);
        const id = person?.id ?? -(newDoctors.size + 1);
        const record = {
          name: person?.name ?? name,
          allowed_courses: '[]',
          available_days: person?.available_days ?? null,
          available_time: person?.available_time ?? null,
        };
        added = { standIn: id, record, courses: new Set() };
        newDoctors.set(key, added);
        const teacher: DoctorAvailability = { id, name: record.name, available_days: record.available_days, available_time: record.available_time };
        teachers.set(key, teacher);
        teacherById.set(id, teacher);
      }
      added.courses.add(m.course_code);
    }
  }
  const doctors = [...newDoctors.values()].map(({ standIn, record, courses: taught }) => ({
    standIn,
    record: { ...record, allowed_courses: JSON.stringify([...taught].sort()) },
  }));
  return { teachers, teacherById, doctors };
}

/** Rooms not declared yet (at the import's campus, seats unknown), and the campus of any room a meeting names. */
function planRooms(meetings: readonly ListedMeeting[], snapshot: ImportSnapshot, campus: Campus) {
  const rooms = new Map<string, RoomRecord>();
  for (const m of meetings) {
    const key = m.room === null ? null : roomKey(m.room);
    if (m.room === null || key === null || rooms.has(key) || snapshot.rooms.has(key)) continue;
    rooms.set(key, { name: m.room, capacity: null, campus });
  }
  const declaredCampus = (room: string | null): Campus | null | undefined => {
    const key = room === null ? null : roomKey(room);
    if (key === null) return undefined;
    return (snapshot.rooms.get(key) ?? rooms.get(key))?.campus;
  };
  return { rooms: [...rooms.values()], declaredCampus };
}

/** The stored values of one listed meeting: its instructors (each once, with the role decided), room, campus and joint group. */
function meetingValues(
  m: ListedMeeting,
  instructors: { ids: number[]; roles: InstructorRole[] },
  jointGroup: string | null,
  declaredCampus: (room: string | null) => Campus | null | undefined,
  options: ImportOptions,
): Omit<EntryValues, 'uid'> {
  return {
    department_id: options.department,
    year: m.term.year,
    semester: m.term.semester,
    course_code: m.course_code,
    section_name: m.section_name,
    doctor_ids: instructors.ids,
    doctor_roles: instructors.roles,
    day: m.day,
    start_time: formatHHMM(m.start),
    duration_mins: m.duration,
    room: m.room ?? 'TBD',
    part_of_term: m.part_of_term,
    joint_group: jointGroup,
    campus: meetingCampusOf(m, declaredCampus, options),
  };
}

/** A declared room's campus wins; a section without a room takes the row's or the form's campus. */
function meetingCampusOf(m: ListedSection, declaredCampus: (room: string | null) => Campus | null | undefined, options: ImportOptions): Campus {
  return m.room === null
    ? ((m.campus === null ? null : options.campuses.normalise(m.campus)) ?? options.campus)
    : meetingCampus(m.room, declaredCampus(m.room), null, null, options.campuses.fallback);
}

/**
 * The terms the listing writes into, each as its meetings will be: the stored ones, then each
 * planned meeting as it passes the rules (clash candidates from an in-memory index per term).
 */
class PlannedTerms {
  private readonly books = new Map<string, TermBook>();
  /** Each term's meetings as they will be (read again for curriculum conflicts). */
  readonly bookings = new Map<string, Booking[]>();
  readonly terms = new Map<string, Term>();

  constructor(
    private readonly snapshot: ImportSnapshot,
    private readonly partsOf: ReadonlyMap<string, ReadonlyMap<string, PartOfTerm>>,
    private readonly budget: ComparisonBudget,
  ) {}

  book(term: Term): TermBook {
    const key = termKey(term);
    let book = this.books.get(key);
    if (!book) {
      book = new TermBook({ travelMinutes: this.snapshot.travelMinutes }, this.budget);
      const existing = (this.snapshot.terms.get(key)?.entries ?? []).map((row) => bookingOf(row, this.parts(term)));
      for (const booking of existing) book.add(booking);
      // Other departments' meetings are taken (a shared room, an instructor's one calendar), never the listing's to join.
      for (const booking of this.snapshot.terms.get(key)?.taken ?? []) book.add(booking);
      this.bookings.set(key, existing);
      this.books.set(key, book);
    }
    return book;
  }

  parts(term: Term): ReadonlyMap<string, PartOfTerm> {
    return this.partsOf.get(termKey(term)) ?? new Map<string, PartOfTerm>();
  }

  add(term: Term, booking: Booking): void {
    const key = termKey(term);
    this.book(term).add(booking);
    const stored = this.bookings.get(key);
    if (stored) stored.push(booking);
    else this.bookings.set(key, [booking]);
    this.terms.set(key, term);
  }
}

/** A room another department owns is not this department's to book, as a direct booking is refused: the refusal, or null. */
function foreignRoomRefusal(m: ListedMeeting, snapshot: ImportSnapshot, options: ImportOptions): ImportReport['conflicts'][number] | null {
  const owned = m.room === null ? undefined : snapshot.rooms.get(roomKey(m.room) ?? '');
  if (!owned || owned.department_id === null || owned.department_id === options.department) return null;
  return {
    row: m.row,
    course_code: m.course_code,
    section_name: m.section_name,
    detail: `Room ${owned.name} belongs to another department: book a room of the campus pool or of your department`,
    with: [],
  };
}

/** A meeting's instructors as ids and roles, the first one first: two spellings of one person ("Dr. A", "dr.  a") are one instructor. */
function meetingInstructors(
  m: ListedMeeting,
  idOf: (name: string) => number,
  roles: readonly InstructorRole[] | undefined,
): { ids: number[]; roles: InstructorRole[] } {
  const instructors: { ids: number[]; roles: InstructorRole[] } = { ids: [], roles: [] };
  m.instructors.forEach((name, k) => {
    const id = idOf(name);
    if (instructors.ids.includes(id)) return;
    instructors.ids.push(id);
    instructors.roles.push(roles?.[k] ?? CHECKED_ROLE);
  });
  return instructors;
}

/** The meeting a listed meeting clashes with, as the report names it: another department's by what it may show, a planned one by its row. */
function clashedWith(other: Booking, department: number, rowOf: (planned: Booking) => number | null) {
  if (other.department !== department) return { row: null, entry_id: null, course_code: other.shownAs ?? 'another department', section_name: '' };
  return { row: other.id === null ? rowOf(other) : null, entry_id: other.id, course_code: other.course_code, section_name: other.section_name };
}

/** The listing's sections without a time: those with no timed row. */
function sectionsWithoutTime(listing: ListingRead): ListingRead['untimed'] {
  const timedSections = new Set(listing.meetings.map((m) => `${termKey(m.term)}|${m.course_code}|${m.section_name}`));
  return listing.untimed.filter((u) => !timedSections.has(`${termKey(u.term)}|${u.course_code}|${u.section_name}`));
}

/** The plan of an import: see the module's comment. */
export function planImport(listing: ListingRead, snapshot: ImportSnapshot, options: ImportOptions): ImportPlan {
  const meetings = listing.meetings;
  const untimedSections = sectionsWithoutTime(listing);
  const listed: ListedSection[] = [...meetings, ...untimedSections];
  const { partsOf, created: newParts } = planParts(listed, snapshot);
  const partOf = (m: ListedMeeting): PartOfTerm => partsOf.get(termKey(m.term))?.get(m.part_of_term) ?? WHOLE_TERM;
  const budget = new ComparisonBudget(MAX_COMPARISONS, options.filename);
  const { groups, groupOf, decided } = planGroups(meetings, snapshot, partOf, budget, options);
  const courses = planCourses(listed, snapshot);
  const { teachers, teacherById, doctors } = planInstructors(listed, snapshot);
  const { rooms, declaredCampus } = planRooms(meetings, snapshot, options.campus);
  const report: ImportReport = {
    meetings: 0,
    untimed: untimedSections.length,
    sections: 0,
    joint_groups: groups.map((g) => ({ label: g.label, members: g.members, rule: g.rule })),
    roles: decided.decisions,
    conflicts: [],
    curriculum_conflicts: [],
    curriculum_conflicts_total: 0,
    terms: [],
    notes: planNotes(decided.complete, newParts, sectionsInDifferentWeeks(meetings, partOf)),
    created: {
      courses: courses.map((c) => c.code),
      doctors: doctors.map((d) => d.record.name),
      rooms: rooms.map((r) => r.name),
      parts_of_term: newParts.map(({ term, part }) => `${part.code} (${termLabel(term)})`),
    },
  };

  // Every meeting through the timetable's rules, against the term as it is plus the meetings planned before it.
  const planned: PlannedMeeting[] = [];
  const plannedIndex = new Map<Booking, number>();
  const plannedRow: number[] = [];
  const sections = new Set<string>();
  const terms = new PlannedTerms(snapshot, partsOf, budget);
  meetings.forEach((m, i) => {
    const instructors = meetingInstructors(m, (name) => teachers.get(doctorNameKey(name))?.id as number, decided.roles[i]);
    const values = meetingValues(m, instructors, groupOf[i] ?? null, declaredCampus, options);
    const foreign = foreignRoomRefusal(m, snapshot, options);
    if (foreign) {
      report.conflicts.push(foreign);
      return;
    }
    const booking = bookingOf({ ...values, id: null }, terms.parts(m.term));
    const checked = new Set(booking.doctor_ids);
    const teaching = instructors.ids.filter((id) => checked.has(id)).map((id) => teacherById.get(id) as DoctorAvailability);
    const clashes = terms.book(m.term).clashes(booking, teaching, MAX_CLASHES_NAMED + 1);
    if (clashes.length > 0) {
      const others = clashes.slice(0, MAX_CLASHES_NAMED).flatMap((c) => (c.with === null ? [] : [c.with]));
      report.conflicts.push({
        row: m.row,
        course_code: m.course_code,
        section_name: m.section_name,
        detail: clashMessage(clashes, false),
        with: [...new Set(others)].map((o) => clashedWith(o, options.department, (planned) => plannedRow[plannedIndex.get(planned) ?? -1] ?? null)),
      });
      // A clash with another department's meeting is never kept as a warning: that booking stands.
      if (options.policy === 'refuse' || clashes.some((c) => c.with !== null && c.with.department !== options.department)) return;
    }
    terms.add(m.term, booking);
    plannedIndex.set(booking, planned.length);
    plannedRow.push(m.row);
    planned.push({
      values,
      clashes: clashes.slice(0, MAX_CLASHES_NAMED).map((c) => ({
        detail: c.detail,
        with: c.with === null ? null : c.with.id !== null ? { entry: c.with.id } : { planned: plannedIndex.get(c.with) as number },
      })),
    });
    sections.add(`${termKey(m.term)}|${m.course_code}|${m.section_name}`);
  });
  report.meetings = planned.length;
  report.sections = sections.size;
  report.terms = [...terms.terms.values()];

  reportCurriculumConflicts(terms, snapshot, report);
  const untimed = untimedSections.map((u) => untimedInput(u, teachers, declaredCampus, options));
  return { parts: newParts, untimed, courses, doctors, rooms, meetings: planned, report };
}

/** The curriculum conflicts each term will hold, into the report (warnings, never refusals). */
function reportCurriculumConflicts(terms: PlannedTerms, snapshot: ImportSnapshot, report: ImportReport): void {
  for (const [key, term] of terms.terms) {
    forEachCurriculumConflict(terms.bookings.get(key) ?? [], groupLookup(snapshot.cohortCourses, term), null, (c) => {
      report.curriculum_conflicts_total++;
      if (report.curriculum_conflicts.length < MAX_LISTED_ROWS)
        report.curriculum_conflicts.push({ ...term, campus: c.campus, cohort: c.group, courses: c.courses, detail: describeCurriculumConflict(c) });
    });
  }
}

/** A section the listing gives no time, as it is stored: its instructors by their ids. */
function untimedInput(
  u: ListedSection,
  teachers: ReadonlyMap<string, { id: number }>,
  declaredCampus: (room: string | null) => Campus | null | undefined,
  options: ImportOptions,
): UntimedInput {
  return {
    department_id: options.department,
    year: u.term.year,
    semester: u.term.semester,
    course_code: u.course_code,
    section_name: u.section_name,
    doctor_ids: [...new Set(u.instructors.map((name) => teachers.get(doctorNameKey(name))?.id as number))],
    part_of_term: u.part_of_term,
    joint_group: u.joint_group,
    room: u.room,
    campus: meetingCampusOf(u, declaredCampus, options),
    kind: u.type,
  };
}
