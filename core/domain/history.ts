import type { InstructorRole } from './roles';
import type { Semester } from './terms';

/**
 * A term's change history: every write to a timetable records, per meeting it changed, who, when,
 * the operation and the meeting's values before and after. History, undo and the sync between a
 * laptop and the campus server are built on it. These are the wire types and the words both sides use.
 */

/** What a write did to a meeting. */
export const CHANGE_OPERATIONS = ['create', 'edit', 'move', 'delete', 'lock', 'unlock', 'import', 'copy', 'autofill', 'publish', 'fetch', 'restore'] as const;
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
  day: string;
  start_time: string;
  duration_mins: number;
  room: string;
  part_of_term: string;
  joint_group: string | null;
  campus: string;
  instructors: MeetingInstructor[];
  locked: boolean;
}

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

/** Two versions of one meeting that publish or fetch cannot both keep: a person chooses. */
export interface SyncConflict {
  meeting_uid: string;
  course_code: string;
  section_name: string;
  /** This side's version (null: deleted here). */
  yours: MeetingState | null;
  /** The other side's version (null: deleted there), and who changed it there, when. */
  theirs: MeetingState | null;
  their_change: { who: string; at: string; summary: string } | null;
  /** The conflict in words, both versions named. */
  message: string;
}

/** How a person settles a conflict: keep this side's version, or the other side's. */
export type ConflictChoice = 'mine' | 'theirs';

const section = (m: Pick<MeetingState, 'course_code' | 'section_name'>): string => `${m.course_code} §${m.section_name}`;

/** When and where a meeting meets, in the words the history uses ("MWF 09:00 in B-201"). */
export function meetingWhen(m: MeetingState): string {
  return `${m.day} ${m.start_time}`;
}

function meetingWords(m: MeetingState): string {
  const who = m.instructors.map((i) => i.name).join(', ');
  return `${meetingWhen(m)}, ${m.duration_mins} min, room ${m.room}${who ? `, ${who}` : ''}`;
}

const FIELD_WORDS: readonly [keyof MeetingState, string][] = [
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
  if (before.day !== after.day || before.start_time !== after.start_time) words.push(`from ${meetingWhen(before)} to ${meetingWhen(after)}`);
  for (const [field, name] of FIELD_WORDS) {
    if (before[field] !== after[field]) words.push(`${name} ${String(before[field] ?? 'none')} → ${String(after[field] ?? 'none')}`);
  }
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

const OPERATION_WORDS: Record<ChangeOperation, string> = {
  create: 'added',
  edit: 'changed',
  move: 'moved',
  delete: 'deleted',
  lock: 'locked',
  unlock: 'unlocked',
  import: 'imported',
  copy: 'copied in',
  autofill: 'auto-fill placed',
  publish: 'published',
  fetch: 'fetched',
  restore: 'restored',
};

/** A change in words: "moved CSC243 §1 from MWF 09:00 to TR 11:00", "deleted MTH201 §9 (MWF 10:00, 50 min, room B-1)". */
export function describeChange(operation: ChangeOperation, before: MeetingState | null, after: MeetingState | null): string {
  const verb = OPERATION_WORDS[operation];
  if (before === null && after !== null) return `${verb === 'changed' ? 'added' : verb} ${section(after)} (${meetingWords(after)})`;
  if (after === null && before !== null) return `${operation === 'delete' ? 'deleted' : `${verb}: removed`} ${section(before)} (${meetingWords(before)})`;
  if (before === null || after === null) return verb;
  const fields = changedFields(before, after);
  return `${verb} ${section(after)}${fields.length > 0 ? ` ${fields.join('; ')}` : ''}`;
}

/** The words a conflict is listed in: both versions, and who made theirs. */
export function conflictMessage(yours: MeetingState | null, theirs: MeetingState | null, who: string, at: string, side: 'server' | 'laptop'): string {
  const any = (yours ?? theirs) as MeetingState;
  const version = (m: MeetingState | null): string => (m === null ? 'deleted' : meetingWords(m));
  const where = side === 'server' ? `on the server, by ${who} at ${at.slice(0, 16).replace('T', ' ')} UTC` : 'on this computer';
  return `${section(any)}: yours is ${version(yours)}; ${where} it is ${version(theirs)}. Keep yours or keep theirs, then try again`;
}
