import { statement, type Db } from '../db/connection';
import { roomKey } from '../domain/meetings';

export interface Room {
  id: number | null;
  name: string;
  capacity: number | null;
  campus: string | null;
}

/** capacity null: not known yet (a room found in an imported timetable). */
export type RoomRecord = { name: string; capacity: number | null; campus: string | null };

export function upsertRooms(db: Db, rooms: readonly RoomRecord[]): number {
  const statement = db.prepare(`INSERT INTO rooms (name, name_key, capacity, campus) VALUES (?, ?, ?, ?)
    ON CONFLICT (name_key) DO UPDATE SET name = excluded.name, capacity = excluded.capacity, campus = excluded.campus`);
  for (const r of rooms) statement.run(r.name, roomKey(r.name), r.capacity, r.campus);
  return rooms.length;
}

/** The declared rooms, by name. */
export function declaredRoomList(db: Db): Room[] {
  return db.prepare<[], Room>('SELECT id, name, capacity, campus FROM rooms ORDER BY name COLLATE NOCASE').all();
}

/** The declared rooms whose seats are known (rooms found in an imported timetable may not say). */
export function declaredRooms(db: Db): (Room & { id: number; capacity: number })[] {
  return db.prepare<[], Room & { id: number; capacity: number }>('SELECT id, name, capacity, campus FROM rooms WHERE capacity IS NOT NULL ORDER BY capacity, name').all();
}

export function deleteRoom(db: Db, id: number): boolean {
  return db.prepare('DELETE FROM rooms WHERE id = ?').run(id).changes > 0;
}

export function findRoomByName(db: Db, name: string): Room | undefined {
  return statement<[string | null], Room>(db, 'SELECT id, name, capacity, campus FROM rooms WHERE name_key = ?').get(roomKey(name));
}
