import type { CoreContext } from '../context';
import { roomKey } from '../domain/meetings';
import { declaredRoomList, type Room } from '../rooms/repo';
import { roomsInUse } from './repo';

/**
 * The rooms a scheduler picks from: the declared ones, plus rooms the timetable uses without
 * declaring them (capacity unknown). Composed here, on the timetable's side, so that rooms know
 * nothing of the timetable.
 */
export async function timetableRooms(ctx: CoreContext): Promise<Room[]> {
  const declared = await declaredRoomList(ctx.db, ctx.department);
  const keys = new Set(declared.map((r) => roomKey(r.name)));
  const undeclared = (await roomsInUse(ctx.db, ctx.department))
    .filter((u) => !keys.has(u.room_key))
    .map((u): Room => ({ id: null, name: u.room, capacity: null, campus: null, department_id: null }));
  return [...declared, ...undeclared].sort((a, b) => a.name.localeCompare(b.name, 'en', { numeric: true }));
}
