import type { CoreContext } from '../context';
import { CoreError, fieldError, forbidden, notFound } from '../domain/errors';
import { getDepartment } from '../departments/repo';
import type { CampusList } from '../domain/campuses';
import { TBD_ROOM } from '../domain/meetings';
import { parseJsonFile, requireExtension, type UploadedFile } from '../import/files';
import { readCsv } from '../import/csv';
import { readReport } from '../import/xlsx';
import { ImportLog, type UploadResult } from '../import/result';
import { cellText, matchColumns, type Table } from '../import/table';
import { ROOM_COLUMNS } from './columns';
import { inTransaction } from '../db/transactions';
import { deleteRoom, findRoomByName, getRoom, meetingsOfOthersIn, roomOwnersLock, updateRoom, upsertRooms, type Room, type RoomRecord } from './repo';
import { takeLocks } from '../db/locks';

function roomFrom(fields: { name?: unknown; capacity?: unknown; campus?: unknown }, campuses: CampusList, where: string, log: ImportLog): RoomRecord | null {
  const name = cellText(fields.name).replace(/\s+/g, ' ');
  if (name === '' || name.toUpperCase() === TBD_ROOM) {
    log.skip(where, 'no room name');
    return null;
  }
  const capacity = Number(cellText(fields.capacity));
  if (!Number.isInteger(capacity) || capacity <= 0) {
    log.skip(where, `capacity "${cellText(fields.capacity)}" of ${name} is not a whole number of seats`);
    return null;
  }
  const campusText = cellText(fields.campus);
  const campus = campusText === '' ? null : campuses.normalise(campusText);
  if (campusText !== '' && !campus) {
    log.skip(where, `campus "${campusText}" of ${name} is not ${campuses.describe()}`);
    return null;
  }
  return { name, capacity, campus };
}

function roomsFromTables(tables: Table[], campuses: CampusList, filename: string, log: ImportLog): RoomRecord[] {
  const rooms: RoomRecord[] = [];
  for (const table of tables) {
    if (table.headers.every((h) => h === '') && table.rows.length === 0) continue;
    const columns = matchColumns(table.headers, ROOM_COLUMNS);
    if (columns.name === undefined || columns.capacity === undefined) {
      throw new CoreError(
        'invalid',
        `"${filename}" is missing the required column ${columns.name === undefined ? 'name (or "room")' : 'capacity (or "seats")'}. Columns found: ${table.headers.filter(Boolean).join(', ') || 'none'}`,
      );
    }
    for (const row of table.rows) {
      const room = roomFrom(
        {
          name: row.values[columns.name],
          capacity: row.values[columns.capacity],
          campus: columns.campus === undefined ? undefined : row.values[columns.campus],
        },
        campuses,
        row.where,
        log,
      );
      if (room) rooms.push(room);
    }
  }
  return rooms;
}

/** Upserts rooms by name from a CSV, XLSX or JSON file in one transaction. */
export async function importRooms(ctx: CoreContext, file: UploadedFile): Promise<UploadResult> {
  const ext = requireExtension(file, ['csv', 'xlsx', 'json'], 'The rooms file');
  const log = new ImportLog();
  let rooms: RoomRecord[];
  if (ext === 'json') {
    const document = parseJsonFile(file);
    const list = Array.isArray(document) ? (document as unknown[]) : ((document as { rooms?: unknown[] } | null)?.rooms ?? []);
    rooms = list.flatMap((item, i) => {
      const fields = (item ?? {}) as Record<string, unknown>;
      const room = roomFrom(
        { name: fields.name ?? fields.room, capacity: fields.capacity ?? fields.seats, campus: fields.campus },
        ctx.campuses,
        `item ${i + 1}`,
        log,
      );
      return room ? [room] : [];
    });
  } else rooms = roomsFromTables(ext === 'csv' ? [readCsv(file)] : await readReport(file, { aliases: ROOM_COLUMNS }), ctx.campuses, file.filename, log);
  const { stored, refused } = await inTransaction(ctx.db, (trx) => upsertRooms(trx, roomOwner(ctx), rooms));
  for (const { name, reason } of refused) log.warn(`Room ${name} ${reason}; it was left as it is`);
  return log.result(stored);
}

/**
 * The rooms a listing names, declared where new: a scheduler's become their department's, the
 * registrar's join the campus pool; a room someone else owns is left as it is. Inside the caller's
 * transaction.
 */
export async function storeListedRooms(ctx: CoreContext, rooms: readonly RoomRecord[]): Promise<void> {
  await upsertRooms(ctx.db, roomOwner(ctx), rooms);
}

/**
 * Whose rooms a caller declares: a scheduler's department's; the registrar's go to the campus pool,
 * or to the department they name.
 */
function roomOwner(ctx: CoreContext, named?: number | null): number | null {
  if (ctx.actor.role !== 'registrar') return ctx.department;
  return named ?? null;
}

/** Declares one room; its name must be new on the campus. */
export async function createRoom(
  ctx: CoreContext,
  input: { name: string; capacity: number; campus: string | null; department_id?: number | null | undefined },
): Promise<Room | undefined> {
  const campus = input.campus === null ? null : ctx.campuses.require(input.campus, 'campus');
  return inTransaction(ctx.db, async (trx) => {
    if (await findRoomByName(trx, input.name)) throw new CoreError('conflict', `A room named "${input.name}" already exists`);
    const owner = roomOwner(ctx, input.department_id);
    if (owner !== null && !(await getDepartment(trx, owner))) throw fieldError('department_id', `no department ${owner}`);
    await upsertRooms(trx, owner, [{ name: input.name, capacity: input.capacity, campus }]);
    return findRoomByName(trx, input.name);
  });
}

/**
 * Changes a room's seats and campus: the registrar any room, a scheduler their department's own
 * (the pool is the registrar's). The registrar also moves a room between the pool and a department;
 * not into a department while other departments' meetings are booked in it.
 */
export async function changeRoom(
  ctx: CoreContext,
  id: number,
  input: { capacity?: number | undefined; campus?: string | null | undefined; department_id?: number | null | undefined },
): Promise<Room | undefined> {
  const campus = input.campus === undefined || input.campus === null ? input.campus : ctx.campuses.require(input.campus, 'campus');
  return inTransaction(ctx.db, async (trx) => {
    // A move between the pool and a department counts the other departments' meetings in the room:
    // no booking may land between the count and the move (every timetable write holds this lock shared).
    if (input.department_id !== undefined) await takeLocks(trx, [roomOwnersLock('exclusive')]);
    const room = await getRoom(trx, id);
    const registrar = ctx.actor.role === 'registrar';
    if (!room || (!registrar && room.department_id !== null && room.department_id !== ctx.department)) throw notFound(`No room with id ${id}`);
    if (!registrar && room.department_id === null) throw forbidden(`Room ${room.name} is in the campus pool: only the registrar changes it`);
    if (!registrar && input.department_id !== undefined && input.department_id !== room.department_id)
      throw forbidden('Only the registrar moves a room between the campus pool and a department');
    const owner = input.department_id;
    if (owner !== undefined && owner !== null && owner !== room.department_id) {
      if (!(await getDepartment(trx, owner))) throw fieldError('department_id', `no department ${owner}`);
      const others = await meetingsOfOthersIn(trx, room.name, owner);
      if (others > 0)
        throw new CoreError(
          'conflict',
          `Room ${room.name} has ${others} meeting(s) of other departments booked in it: it can belong to one department once they have moved out`,
        );
    }
    await updateRoom(trx, id, {
      ...(input.capacity === undefined ? {} : { capacity: input.capacity }),
      ...(campus === undefined ? {} : { campus }),
      ...(owner === undefined ? {} : { department_id: owner }),
    });
    return getRoom(trx, id);
  });
}

/** Removes a room: the registrar any; a scheduler only one of their department's. */
export async function removeRoom(ctx: CoreContext, id: number): Promise<{ status: 'deleted' }> {
  const room = await getRoom(ctx.db, id);
  if (!room || (room.department_id !== null && room.department_id !== ctx.department && ctx.actor.role !== 'registrar'))
    throw notFound(`No room with id ${id}`);
  if (ctx.actor.role !== 'registrar' && room.department_id === null) throw forbidden(`Room ${room.name} is in the campus pool: only the registrar removes it`);
  if (!(await deleteRoom(ctx.db, id))) throw notFound(`No room with id ${id}`);
  return { status: 'deleted' };
}
