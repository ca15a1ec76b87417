import { sql } from 'kysely';
import type { Db } from '../db/store';
import { inBatches, isRowId } from '../db/batches';
import { roomKey } from '../domain/meetings';
import { prepared } from '../db/prepared';

export interface Room {
  id: number | null;
  name: string;
  capacity: number | null;
  campus: string | null;
}

/** capacity null: not known yet (a room found in an imported timetable). */
export type RoomRecord = { name: string; capacity: number | null; campus: string | null };

const COLUMNS = ['id', 'name', 'capacity', 'campus'] as const;

export async function upsertRooms(db: Db, rooms: readonly RoomRecord[]): Promise<number> {
  // Two spellings of one room are one room: the last listing wins, as it did row by row.
  const unique = [...new Map(rooms.map((r) => [roomKey(r.name) ?? '', r])).entries()];
  await inBatches(unique, (batch) =>
    db
      .insertInto('rooms')
      .values(batch.map(([name_key, r]) => ({ name: r.name, name_key, capacity: r.capacity, campus: r.campus })))
      .onConflict((oc) =>
        oc.column('name_key').doUpdateSet((eb) => ({ name: eb.ref('excluded.name'), capacity: eb.ref('excluded.capacity'), campus: eb.ref('excluded.campus') })),
      )
      .execute(),
  );
  return rooms.length;
}

/** The declared rooms, by name in any case. */
export async function declaredRoomList(db: Db): Promise<Room[]> {
  return db.selectFrom('rooms').select(COLUMNS).orderBy(sql`lower(name)`).orderBy('id').execute();
}

/** The declared rooms whose seats are known (rooms found in an imported timetable may not say). */
export async function declaredRooms(db: Db): Promise<(Room & { id: number; capacity: number })[]> {
  const rows = await db.selectFrom('rooms').select(COLUMNS).where('capacity', 'is not', null).orderBy('capacity').orderBy('name').execute();
  return rows as (Room & { id: number; capacity: number })[];
}

export async function deleteRoom(db: Db, id: number): Promise<boolean> {
  if (!isRowId(id)) return false;
  const result = await db.deleteFrom('rooms').where('id', '=', id).executeTakeFirst();
  return result.numDeletedRows > 0n;
}

const roomByKey = prepared((db: Db, key: string) => db.selectFrom('rooms').select(COLUMNS).where('name_key', '=', key));

export async function findRoomByName(db: Db, name: string): Promise<Room | undefined> {
  const key = roomKey(name);
  if (key === null) return undefined;
  return roomByKey.first(db, key);
}

/** The declared rooms, by room key (to look many meetings' rooms up at once). */
export async function roomsByKey(db: Db): Promise<Map<string, Room>> {
  const rows = await db.selectFrom('rooms').select([...COLUMNS, 'name_key']).execute();
  return new Map(rows.map(({ name_key, ...room }) => [name_key, room]));
}
