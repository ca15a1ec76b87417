import type { Entry } from '../api/wire';

/** The meeting form's values: a stored meeting's, or a new one's. */
export interface EntryDraft {
  id?: number;
  course_code: string;
  section_name: string;
  /** Every instructor's id, the first one first; empty when unassigned (their roles stay as they are). */
  instructor_ids: number[];
  day: string;
  start_time: string;
  duration_mins: number;
  room: string;
  part_of_term: string;
  joint_group: string;
  /** Only needed when the room is not a declared room of a campus. */
  campus: string | null;
}

/** The form's values for a stored entry. */
export function draftOf(entry: Entry): EntryDraft {
  return {
    id: entry.id,
    course_code: entry.course_code,
    section_name: entry.section_name,
    instructor_ids: entry.doctors.map((d) => d.id),
    day: entry.day,
    start_time: entry.start_time,
    duration_mins: entry.duration_mins,
    room: entry.room,
    part_of_term: entry.part_of_term,
    joint_group: entry.joint_group ?? '',
    campus: entry.campus,
  };
}
