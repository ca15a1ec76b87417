import type { CoreContext } from '../context';
import { listDepartments } from '../departments/repo';
import { mayRead } from '../domain/people';
import { formatHHMM } from '../domain/time';
import type { Term } from '../domain/terms';
import { roomKey } from '../domain/meetings';
import { declaredRoomList } from '../rooms/repo';
import { ANOTHER_DEPARTMENT } from './other-departments';
import { currentTerm, termOf } from './terms';
import { meetingsInRooms, sharedInstructorsElsewhere } from './repo';

/** One meeting in a room of the campus view: what it is, as the caller may read it. */
export interface CampusBooking {
  /** The meeting's id, for those the caller may read (null: another department's the caller may not read). */
  id: number | null;
  room: string;
  day: string;
  start_time: string;
  end_time: string;
  part_of_term: string;
  /** The department's code, and the section: null (and the label "another department") for those the caller may not read. */
  department: string | null;
  course_code: string | null;
  section_name: string | null;
  label: string;
  /** Whether the meeting is the caller's department's own. */
  own: boolean;
}

/** Another department's meeting taught by one of the caller's department's instructors (a shared instructor). */
export interface InstructorElsewhere {
  doctor_id: number;
  day: string;
  start_time: string;
  end_time: string;
  /** "Booked by another department", or the section and its department when the caller may read them. */
  label: string;
}

export interface CampusWeek {
  term: Term;
  rooms: { id: number | null; name: string; campus: string | null; capacity: number | null; department: string | null }[];
  bookings: CampusBooking[];
  /** What the department's shared instructors teach for other departments this term: taken for them. */
  instructors: InstructorElsewhere[];
}

/**
 * The campus view of a term's week: the rooms the caller books (the pool and their department's;
 * every room for the registrar), or one of them, with every department's meetings in them — a
 * meeting of a department the caller may not read is shown as booked by another department.
 */
export async function campusWeek(ctx: CoreContext, input: Partial<Term> & { room?: string | undefined; campus?: string | undefined }): Promise<CampusWeek> {
  const term = termOf(input, await currentTerm(ctx));
  const department = ctx.actor.role === 'registrar' ? null : ctx.department;
  let rooms = await declaredRoomList(ctx.db, department);
  if (input.campus !== undefined) rooms = rooms.filter((r) => r.campus === input.campus);
  if (input.room !== undefined) {
    const key = roomKey(input.room);
    rooms = rooms.filter((r) => roomKey(r.name) === key);
  }
  const byKey = new Map(rooms.map((r) => [roomKey(r.name) ?? '', r]));
  const departments = await listDepartments(ctx.db);
  const names = new Map(departments.map((d) => [d.id, d.name]));
  const codes = new Map(departments.map((d) => [d.id, d.code]));
  const filterKeys = input.room !== undefined || input.campus !== undefined ? [...byKey.keys()] : null;
  const meetings = filterKeys !== null && filterKeys.length === 0 ? [] : await meetingsInRooms(ctx.db, term, filterKeys);
  const bookings: CampusBooking[] = [];
  for (const m of meetings) {
    const room = byKey.get(m.room_key ?? '');
    if (!room) continue;
    const readable = mayRead(ctx.actor, m.department_id);
    const own = m.department_id === ctx.department;
    bookings.push({
      id: readable ? m.id : null,
      room: room.name,
      day: m.day,
      start_time: m.start_time,
      end_time: formatHHMM(m.start_min + m.duration_mins),
      part_of_term: m.part_of_term,
      department: readable ? (codes.get(m.department_id) ?? null) : null,
      course_code: readable ? m.course_code : null,
      section_name: readable ? m.section_name : null,
      label: readable
        ? `${m.course_code} ${m.section_name}${own ? '' : ` (${names.get(m.department_id) ?? m.department_id})`}`
        : `Booked by ${ANOTHER_DEPARTMENT}`,
      own,
    });
  }
  const instructors = (await sharedInstructorsElsewhere(ctx.db, term, ctx.department)).map((m) => ({
    doctor_id: m.doctor_id,
    day: m.day,
    start_time: formatHHMM(m.start_min),
    end_time: formatHHMM(m.start_min + m.duration_mins),
    label: mayRead(ctx.actor, m.department_id)
      ? `${m.course_code} ${m.section_name} (${names.get(m.department_id) ?? m.department_id})`
      : `Teaches for ${ANOTHER_DEPARTMENT}`,
  }));
  return {
    term,
    instructors,
    rooms: rooms.map((r) => ({
      id: r.id,
      name: r.name,
      campus: r.campus,
      capacity: r.capacity,
      department: r.department_id === null ? null : (codes.get(r.department_id) ?? null),
    })),
    bookings,
  };
}
