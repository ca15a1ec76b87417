import type { ScheduleEntry } from '../../core/timetable/schema';
import type { Booking } from '../../core/timetable';
import { CHECKED_ROLE } from '../../core/domain/roles';
import { roomKey } from '../../core/domain/meetings';
import { WHOLE_TERM, type PartOfTerm } from '../../core/domain/parts';

const minutes = (t: string): number => Number(t.slice(0, 2)) * 60 + Number(t.slice(3));

/** A meeting as GET /scheduler/ answers it, as the write path's rules see it (its department's parts of term given). */
export function bookingOfEntry(e: ScheduleEntry, parts: ReadonlyMap<string, PartOfTerm>, department: number): Booking {
  return {
    id: e.id,
    department,
    course_code: e.course_code,
    section_name: e.section_name,
    doctor_ids: e.doctors.filter((d) => d.role === CHECKED_ROLE).map((d) => d.id),
    day: e.day,
    start: minutes(e.start_time),
    duration: e.duration_mins,
    room: e.room,
    roomKey: roomKey(e.room),
    part: parts.get(e.part_of_term) ?? { ...WHOLE_TERM, code: e.part_of_term },
    joint_group: e.joint_group,
    campus: e.campus,
  };
}
