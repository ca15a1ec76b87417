import { sql } from 'kysely';
import type { Db } from '../db/store';
import { inBatches, isRowId } from '../db/batches';
import { roomKey } from '../domain/meetings';
import { prepared } from '../db/prepared';
import { knownRead, mapRead, readAlone, type PendingRead } from '../db/read-together';
import type { LockRequest } from '../db/locks';

/**
 * Who owns each room, as a lock: a change of a room's owner holds it alone, every timetable write
 * holds it shared (timetable/locks.ts), so a booking reads its room's owner after any move of it
 * and a move counts every booking made before it.
 */
export const roomOwnersLock = (mode: LockRequest['mode']): LockRequest => ({ key: 'room owners', mode });

/**
 * Rooms belong to the campus: each is in the pool every department books (department null), or
 * belongs to one department, which alone books it. Names are the campus's: one room per name.
 */
export interface Room {
  id: number | null;
  name: string;
  capacity: number | null;
  campus: string | null;
  /** The department the room belongs to; null: the campus pool. */
  department_id: number | null;
}

/** capacity null: not known yet (a room found in an imported timetable). */
export type RoomRecord = { name: string; capacity: number | null; campus: string | null };

const COLUMNS = ['id', 'name', 'capacity', 'campus', 'department_id'] as const;

/**
 * Upserts rooms by name into the pool (owner null) or a department. A room of the same name that
 * another department owns is left as it is, and so is a pool room when a department declares it
 * (only the registrar changes the pool): each answered in `refused` with the reason.
 */
export async function upsertRooms(
  db: Db,
  owner: number | null,
  rooms: readonly RoomRecord[],
): Promise<{ stored: number; refused: { name: string; reason: string }[] }> {
  // Two spellings of one room are one room: the last listing wins.
  const unique = [...new Map(rooms.map((r) => [roomKey(r.name) ?? '', r])).entries()];
  const refused: { name: string; reason: string }[] = [];
  await inBatches(unique, async (batch) => {
    const taken = await db
      .selectFrom('rooms')
      .select(['name', 'name_key', 'department_id'])
      .where(
        'name_key',
        'in',
        batch.map(([key]) => key),
      )
      .execute();
    const reasons = new Map<string, string>();
    for (const t of taken) {
      if (t.department_id !== null && t.department_id !== owner) reasons.set(t.name_key, 'belongs to another department');
      else if (t.department_id === null && owner !== null) reasons.set(t.name_key, 'is a room of the campus pool: only the registrar changes it');
    }
    const mine = batch.filter(([key, room]) => {
      const reason = reasons.get(key);
      if (reason !== undefined) refused.push({ name: room.name, reason });
      return reason === undefined;
    });
    if (mine.length === 0) return;
    // A room of that name added since the read above (another department's upload at the same moment)
    // is not changed: the update holds only for the owner's own rooms, and a row it skips is refused.
    const written = await db
      .insertInto('rooms')
      .values(mine.map(([name_key, r]) => ({ name: r.name, name_key, capacity: r.capacity, campus: r.campus, department_id: owner })))
      .onConflict((oc) =>
        oc
          .column('name_key')
          .doUpdateSet((eb) => ({ name: eb.ref('excluded.name'), capacity: eb.ref('excluded.capacity'), campus: eb.ref('excluded.campus') }))
          .where('rooms.department_id', owner === null ? 'is' : '=', owner),
      )
      .returning('name_key')
      .execute();
    const stored = new Set(written.map((row) => row.name_key));
    for (const [key, room] of mine)
      if (!stored.has(key)) refused.push({ name: room.name, reason: 'was declared at the same moment by another department (or for the campus pool)' });
  });
  return { stored: rooms.length - refused.length, refused };
}

/** The rooms a department books (the pool and its own), by name in any case; every room with `department` null. */
export async function declaredRoomList(db: Db, department: number | null): Promise<Room[]> {
  let query = db
    .selectFrom('rooms')
    .select(COLUMNS)
    .orderBy(sql`lower(name)`)
    .orderBy('id');
  if (department !== null) query = query.where((eb) => eb.or([eb('department_id', 'is', null), eb('department_id', '=', department)]));
  return query.execute();
}

/** The rooms a department books whose seats are known (rooms found in an imported timetable may not say). */
export async function declaredRooms(db: Db, department: number): Promise<(Room & { id: number; capacity: number })[]> {
  const rows = await db
    .selectFrom('rooms')
    .select(COLUMNS)
    .where('capacity', 'is not', null)
    .where((eb) => eb.or([eb('department_id', 'is', null), eb('department_id', '=', department)]))
    .orderBy('capacity')
    .orderBy('name')
    .execute();
  return rows as (Room & { id: number; capacity: number })[];
}

export async function getRoom(db: Db, id: number): Promise<Room | undefined> {
  if (!isRowId(id)) return undefined;
  return db.selectFrom('rooms').select(COLUMNS).where('id', '=', id).executeTakeFirst();
}

export async function deleteRoom(db: Db, id: number): Promise<boolean> {
  if (!isRowId(id)) return false;
  const result = await db.deleteFrom('rooms').where('id', '=', id).executeTakeFirst();
  return result.numDeletedRows > 0n;
}

/** Changes a room's seats, campus or owner (its name stays: meetings name it). */
export async function updateRoom(db: Db, id: number, change: { capacity?: number; campus?: string | null; department_id?: number | null }): Promise<void> {
  if (Object.keys(change).length === 0) return;
  await db.updateTable('rooms').set(change).where('id', '=', id).execute();
}

/** How many meetings of departments other than `owner` are booked in the room (any term). */
export async function meetingsOfOthersIn(db: Db, name: string, owner: number): Promise<number> {
  const key = roomKey(name);
  if (key === null) return 0;
  const row = await db
    .selectFrom('schedule_entries')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('room_key', '=', key)
    .where('department_id', '!=', owner)
    .executeTakeFirst();
  return Number(row?.n ?? 0);
}

const roomByKey = prepared((db: Db, key: string) => db.selectFrom('rooms').select(COLUMNS).where('name_key', '=', key));

/** The campus's room of that name, whoever it belongs to. */
export async function findRoomByName(db: Db, name: string): Promise<Room | undefined> {
  return readAlone(db, roomByNameRead(db, name));
}

/** findRoomByName, to be read with other reads (see readTogether). */
export function roomByNameRead(db: Db, name: string): PendingRead<Room | undefined> {
  const key = roomKey(name);
  return key === null ? knownRead(undefined) : mapRead(roomByKey.read(db, key), (rows) => rows[0]);
}

/** Every room of the campus, by room key (to look many meetings' rooms up at once). */
export async function roomsByKey(db: Db): Promise<Map<string, Room>> {
  const rows = await db
    .selectFrom('rooms')
    .select([...COLUMNS, 'name_key'])
    .execute();
  return new Map(rows.map(({ name_key, ...room }) => [name_key, room]));
}
