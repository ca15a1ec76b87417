import { createHash } from 'node:crypto';
import type { CoreContext } from '../context';
import { listDepartments } from '../departments/repo';
import { declaredRoomList } from '../rooms/repo';
import { expectedSectionSizes } from '../predict/runs-repo';
import { courseCohorts, wholeCampusTerm, type Booking, type DoctorAvailability } from '../timetable';
import { pushTo } from '../util/multimap';
import { lockedEntries, type EntryRow } from '../timetable/repo';
import type { Term } from '../domain/terms';
import { meetingBasis, termRoom } from './term-draft';
import { inDepartment } from './campus-keys';

/** The campus's term as one read: every department's meetings, instructors, rooms and rules. */
export interface CampusReading {
  departments: { id: number; code: string; name: string }[];
  rows: EntryRow[];
  bookings: Booking[];
  locked: Set<number>;
  doctors: Map<number, DoctorAvailability>;
  rooms: ReturnType<typeof termRoom>[];
  travel: number;
  cohorts: Map<string, string[]>;
  sizes: Map<string, number>;
}

/** Reads a term of the whole campus, as the registrar sees it. */
export async function readCampus(ctx: CoreContext, term: Term): Promise<CampusReading> {
  const departments = (await listDepartments(ctx.db)).map((d) => ({ id: d.id, code: d.code, name: d.name }));
  const { rows, bookings, doctors, travelMinutes: travel } = await wholeCampusTerm(ctx, term);
  const locked = await lockedEntries(
    ctx.db,
    rows.map((r) => r.id),
  );
  const byDepartment = new Map<number, EntryRow[]>();
  for (const row of rows) pushTo(byDepartment, row.department_id, row);
  const cohorts = new Map<string, string[]>();
  const sizes = new Map<string, number>();
  for (const [department, mine] of byDepartment) {
    for (const [code, keys] of await courseCohorts(
      { ...ctx, department },
      term,
      mine.map((r) => r.course_code),
    ))
      cohorts.set(
        inDepartment(department, code),
        keys.map((k) => inDepartment(department, k)),
      );
    for (const campus of new Set(mine.map((r) => r.campus)))
      for (const [code, size] of await expectedSectionSizes(ctx.db, department, term.year, term.semester, campus))
        sizes.set(inDepartment(department, campus, code), size);
  }
  const rooms = (await declaredRoomList(ctx.db, null)).filter((r) => r.capacity !== null).map(termRoom);
  return { departments, rows, bookings, locked, doctors, rooms, travel, cohorts, sizes };
}

/** What a campus draft rests on, as one digest: every meeting of the term, its instructors and room, the locks. */
export function campusBasis(rows: readonly EntryRow[], locked: ReadonlySet<number>): string {
  const hash = createHash('sha256');
  // A meeting's department is part of what the campus draft rests on (a meeting given to another department moves it).
  for (const r of rows) hash.update(`${r.department_id}|${meetingBasis(r, locked)}`);
  return hash.digest('hex');
}
