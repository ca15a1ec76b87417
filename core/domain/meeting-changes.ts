import type { InstructorRole } from './roles';
import type { Semester } from './terms';

/**
 * A term's change history: every write to a timetable records, per meeting it changed, who, when,
 * the operation and the meeting's values before and after. History, undo and the sync between a
 * laptop and the campus server are built on it. These are the wire types and the words both sides use.
 */

/**
 * What a write did to a meeting. `publish` is a term brought up to date on the campus server from
 * elsewhere, in either of its two forms: a laptop's changes replayed (publish changes) or a whole
 * listing replacing the term (publish a listing); `fetch` is the campus server's changes brought
 * into a laptop's copy; `restore` is an undo.
 */
export const CHANGE_OPERATIONS = [
  'create',
  'edit',
  'move',
  'delete',
  'lock',
  'unlock',
  'import',
  'copy',
  'autofill',
  'campus-autofill',
  'publish',
  'fetch',
  'restore',
] as const;
export type ChangeOperation = (typeof CHANGE_OPERATIONS)[number];

/** An instructor of a meeting as history keeps it: the id in this store, and the name another store knows them by. */
export interface MeetingInstructor {
  id: number;
  name: string;
  role: InstructorRole;
}

/**
 * A meeting's values as history records them and as publish and fetch carry them between stores.
 * `uid` names the meeting alike in every store; instructors carry their names, which is how another
 * store finds them.
 */
export interface MeetingState {
  uid: string;
  course_code: string;
  section_name: string;
  /** The days; '' for a section without a time (then `start_time` is '' and `duration_mins` 0). */
  day: string;
  start_time: string;
  duration_mins: number;
  room: string;
  part_of_term: string;
  joint_group: string | null;
  campus: string;
  instructors: MeetingInstructor[];
  locked: boolean;
  /** What the listing calls a section without a time ("Online", "Independent Study"), when it says. */
  kind?: string | null;
  /**
   * The term the meeting is in: a meeting is named by its id and its term, so a move between terms
   * is one change whose before and after name their terms. Absent in versions recorded without it
   * (the change's own term is theirs).
   */
  year?: number;
  semester?: Semester;
}

/** The term a version names, or `fallback` (the change's own term) when it names none. */
export function termOfState(
  state: Pick<MeetingState, 'year' | 'semester'>,
  fallback: { year: number; semester: Semester },
): { year: number; semester: Semester } {
  return state.year !== undefined && state.semester !== undefined ? { year: state.year, semester: state.semester } : fallback;
}

/** Whether two versions name different terms (a version that names none is taken to be in the other's). */
function otherTerms(a: MeetingState, b: MeetingState): boolean {
  if (a.year === undefined || b.year === undefined || a.semester === undefined || b.semester === undefined) return false;
  return a.year !== b.year || a.semester !== b.semester;
}

const termWords = (m: MeetingState): string => `${m.semester ?? ''} ${m.year ?? ''}`.trim();

/** One recorded change, as `GET /scheduler/history` answers it. */
export interface TermChange {
  id: number;
  year: number;
  semester: Semester;
  /** The term's revision this change brought it to. */
  revision: number;
  /** The write it was part of (an import, an apply and a publish change many meetings at once). */
  batch: string;
  operation: ChangeOperation;
  meeting_uid: string;
  course_code: string;
  section_name: string;
  /** Who: the person's name (with the token's label when a script used one), else "this computer" or "the server's API token". */
  who: string;
  person_id: number | null;
  at: string;
  before: MeetingState | null;
  after: MeetingState | null;
  /** What the change did, in words ("moved CSC243 §1 from MWF 09:00 to TR 11:00"). */
  summary: string;
}

/** Who changed the other side's version last, when and how; `id` names that version (a choice names the version it was made against). */
export interface TheirChange {
  who: string;
  at: string;
  summary: string;
  /** The change's id on the side that made it (absent from an older server). */
  id?: number;
}

/** Two versions of one meeting that publish or fetch cannot both keep: a person chooses. */
export interface SyncConflict {
  meeting_uid: string;
  course_code: string;
  section_name: string;
  /** This side's version (null: deleted here). */
  yours: MeetingState | null;
  /** The other side's version (null: deleted there), and who changed it there, when. */
  theirs: MeetingState | null;
  their_change: TheirChange | null;
  /** The conflict in words, both versions named. */
  message: string;
}

/** What publishing or fetching came to: stored, or the conflicts and refusals a person settles first. */
export interface SyncOutcome {
  /** Whether anything was stored (false for a check, or when conflicts or refusals stopped it). */
  stored: boolean;
  /** published, fetched, preview (a check), conflicts or refused. */
  status: 'published' | 'fetched' | 'preview' | 'conflicts' | 'refused';
  /** Meetings changed on both sides: both versions, for the person to choose. */
  conflicts: SyncConflict[];
  /** Changes a rule refused, in words. */
  refused: { meeting_uid: string; course_code: string; section_name: string; reason: string }[];
  /** This computer's changes published (or that a check would publish). */
  published: number;
  /** The server's changes brought to this computer. */
  fetched: number;
  /** This computer's changes still to publish. */
  pending: number;
  /** The server revision this computer's copy is now based on. */
  base_revision: number | null;
}

/** Where a laptop's copy of a term stands against the server: its changes not published, the server's not fetched. */
export interface SyncCounts {
  base_revision: number | null;
  /** This computer's changes not yet published. */
  not_published: number;
  /** Changes on the server since this computer's copy. */
  server_changes: number;
  server_revision: number;
}

/** The side a person keeps in a conflict: this side's version, or the other side's. */
export type ConflictSide = 'mine' | 'theirs';

/**
 * How a person settles a conflict: the side they keep, and the version of theirs they saw (its
 * change id; null when it had none). A choice made against a version that has changed since is a
 * new conflict. A bare side names no version (scripts written before versions were named).
 */
export type ConflictChoice = ConflictSide | { choice: ConflictSide; seen_change_id: number | null };

/** The side a choice keeps. */
export const sideOf = (choice: ConflictChoice): ConflictSide => (typeof choice === 'string' ? choice : choice.choice);

/** Whether a choice still holds for the other side's version now (`latest`: the id of its last change, null: none). */
export function choiceHolds(choice: ConflictChoice, latest: number | null): boolean {
  return typeof choice === 'string' || choice.seen_change_id === latest;
}

const section = (m: Pick<MeetingState, 'course_code' | 'section_name'>): string => `${m.course_code} §${m.section_name}`;

/**
 * A section without a time (a registrar's online or arranged row) as history keeps it: a meeting's
 * version with no day, no start and no length. It is recorded, undone, published and fetched as a
 * meeting is; a section auto-fill gives a time keeps its id as the meeting it becomes.
 */
export const isUntimed = (m: Pick<MeetingState, 'day'>): boolean => m.day === '';

/** When a meeting meets, in the words the history uses ("MWF 09:00"; "without a time"). */
export function meetingWhen(m: MeetingState): string {
  return isUntimed(m) ? 'without a time' : `${m.day} ${m.start_time}`;
}

/** A version of a meeting in words ("MWF 09:00, 50 min, room B-1, Dr. A"; "without a time, Dr. A"). */
export function meetingWords(m: MeetingState): string {
  const who = m.instructors.map((i) => i.name).join(', ');
  const room = m.room === 'TBD' && isUntimed(m) ? '' : `, room ${m.room}`;
  return `${meetingWhen(m)}${isUntimed(m) ? '' : `, ${m.duration_mins} min`}${room}${who ? `, ${who}` : ''}`;
}

type WordedField = 'room' | 'duration_mins' | 'part_of_term' | 'joint_group' | 'campus' | 'course_code' | 'section_name';

const FIELD_WORDS: readonly [WordedField, string][] = [
  ['room', 'room'],
  ['duration_mins', 'length'],
  ['part_of_term', 'part of term'],
  ['joint_group', 'joint group'],
  ['campus', 'campus'],
  ['course_code', 'course'],
  ['section_name', 'section'],
];

/** The fields that differ between two versions of a meeting, in words ("room B-201 → B-305"). */
export function changedFields(before: MeetingState, after: MeetingState): string[] {
  const words: string[] = [];
  if (otherTerms(before, after)) words.push(`term ${termWords(before)} → ${termWords(after)}`);
  if (before.day !== after.day || before.start_time !== after.start_time) words.push(`from ${meetingWhen(before)} to ${meetingWhen(after)}`);
  for (const [field, name] of FIELD_WORDS) {
    // A length is a timed meeting's: a section given a time, or left without one, says so above.
    if (field === 'duration_mins' && (isUntimed(before) || isUntimed(after))) continue;
    if (before[field] !== after[field]) words.push(`${name} ${String(before[field] ?? 'none')} → ${String(after[field] ?? 'none')}`);
  }
  // A kind ("Online") is a section without a time's: a meeting keeps none.
  if (isUntimed(before) && isUntimed(after) && (before.kind ?? null) !== (after.kind ?? null))
    words.push(`kind ${before.kind ?? 'none'} → ${after.kind ?? 'none'}`);
  const names = (m: MeetingState): string => m.instructors.map((i) => `${i.name}${i.role === 'teaches' ? '' : ` (${i.role})`}`).join(', ') || 'none';
  if (names(before) !== names(after)) words.push(`instructors ${names(before)} → ${names(after)}`);
  if (before.locked !== after.locked) words.push(after.locked ? 'locked' : 'unlocked');
  return words;
}

/** Whether two versions of a meeting hold the same values (the same instructors by name). */
export function sameMeeting(a: MeetingState | null, b: MeetingState | null): boolean {
  if (a === null || b === null) return a === b;
  return changedFields(a, b).length === 0;
}

/** How a change came about, when not by hand: said after the change ("… by import"). */
const SOURCE_WORDS: Partial<Record<ChangeOperation, string>> = {
  import: 'by import',
  copy: 'by copying a term',
  autofill: 'by auto-fill',
  'campus-autofill': "by the registrar's campus auto-fill",
  publish: 'by publishing',
  fetch: 'by fetching from the campus server',
  restore: 'by an undo',
};

/**
 * A change in words: "moved CSC243 §1 from MWF 09:00 to TR 11:00", "added MTH201 §9 (MWF 10:00,
 * 50 min, room B-1) by import", "deleted MTH201 §9 (…) by an undo".
 */
export function describeChange(operation: ChangeOperation, before: MeetingState | null, after: MeetingState | null): string {
  const source = SOURCE_WORDS[operation];
  const how = source === undefined ? '' : ` ${source}`;
  if (before === null && after !== null) return `added ${section(after)} (${meetingWords(after)})${how}`;
  if (after === null && before !== null) return `deleted ${section(before)} (${meetingWords(before)})${how}`;
  if (before === null || after === null) return operation;
  const fields = changedFields(before, after);
  const onlyMoved = fields.length === 1 && (before.day !== after.day || before.start_time !== after.start_time);
  if (onlyMoved && isUntimed(before) !== isUntimed(after))
    return isUntimed(before) ? `gave ${section(after)} a time: ${meetingWhen(after)}${how}` : `took the time from ${section(after)}${how}`;
  const onlyLock = fields.length === 1 && before.locked !== after.locked;
  const verb = onlyMoved ? 'moved' : onlyLock ? (after.locked ? 'locked' : 'unlocked') : 'changed';
  const detail = onlyLock ? '' : ` ${fields.join('; ')}`;
  return `${verb} ${section(after)}${fields.length > 0 ? detail : ''}${how}`;
}

/** The words a conflict is listed in: both versions, and who made theirs. */
export function conflictMessage(yours: MeetingState | null, theirs: MeetingState | null, who: string, at: string, side: 'server' | 'laptop'): string {
  const any = (yours ?? theirs) as MeetingState;
  const version = (m: MeetingState | null): string => (m === null ? 'deleted' : meetingWords(m));
  const where = side === 'server' ? `on the server, by ${who} at ${at.slice(0, 16).replace('T', ' ')} UTC` : 'on this computer';
  return `${section(any)}: yours is ${version(yours)}; ${where} it is ${version(theirs)}. Keep yours or keep theirs, then try again`;
}
