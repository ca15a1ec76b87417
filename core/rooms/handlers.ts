import { z } from 'zod';
import type { CoreContext } from '../context';
import { CoreError, notFound } from '../domain/errors';
import { defineHandlers, handler } from '../registry';
import { parseJsonFile, requireExtension, uploadedFileSchema, type UploadedFile } from '../import/files';
import { readCsv } from '../import/csv';
import { readReport } from '../import/xlsx';
import { ImportLog, type UploadResult } from '../import/result';
import { cellText, matchColumns, type ColumnAliases, type Table } from '../import/table';
import { CAMPUSES, normaliseCampus } from '../domain/terms';
import { TBD_ROOM } from '../domain/meetings';
import { deleteRoom, findRoomByName, listRooms, upsertRooms, type RoomRecord } from './repo';

export const ROOM_COLUMNS = {
  name: ['name', 'room', 'room name', 'room_name'],
  capacity: ['capacity', 'seats', 'size'],
  campus: ['campus', 'location'],
} as const satisfies ColumnAliases<string>;

function roomFrom(fields: { name?: unknown; capacity?: unknown; campus?: unknown }, where: string, log: ImportLog): RoomRecord | null {
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
  const campus = campusText === '' ? null : normaliseCampus(campusText);
  if (campusText !== '' && !campus) {
    log.skip(where, `campus "${campusText}" of ${name} is not Beirut or Byblos`);
    return null;
  }
  return { name, capacity, campus };
}

function roomsFromTables(tables: Table[], filename: string, log: ImportLog): RoomRecord[] {
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
      const room = roomFrom({ name: fields.name ?? fields.room, capacity: fields.capacity ?? fields.seats, campus: fields.campus }, `item ${i + 1}`, log);
      return room ? [room] : [];
    });
  } else rooms = roomsFromTables(ext === 'csv' ? [readCsv(file)] : await readReport(file, { aliases: ROOM_COLUMNS }), file.filename, log);
  const processed = ctx.db.transaction(() => upsertRooms(ctx.db, rooms))();
  return log.result(processed);
}

export const roomHandlers = defineHandlers({
  'rooms-list': handler(z.object({}), 'Rooms with their seats; rooms used by the timetable but not declared have capacity null', (ctx) => listRooms(ctx.db)),
  'rooms-create': handler(
    z.object({
      name: z
        .string()
        .trim()
        .min(1, 'a room name is required')
        .refine((n) => n.toUpperCase() !== TBD_ROOM, 'TBD is not a room'),
      capacity: z.number({ error: 'must be a whole number of seats' }).int('must be a whole number of seats').positive('must be at least 1'),
      campus: z
        .enum(CAMPUSES, { error: `must be ${CAMPUSES.join(' or ')}` })
        .nullable()
        .default(null),
    }),
    'Declare a room',
    (ctx, input) =>
      ctx.db
        .transaction(() => {
          if (findRoomByName(ctx.db, input.name)) throw new CoreError('conflict', `A room named "${input.name}" already exists`);
          upsertRooms(ctx.db, [input]);
          return findRoomByName(ctx.db, input.name);
        })
        .immediate(),
    { writes: ['rooms'] },
  ),
  'rooms-delete': handler(
    z.object({ room_id: z.coerce.number({ error: 'must be a room id' }).int().positive() }),
    'Remove a declared room',
    (ctx, { room_id }) => {
      if (!deleteRoom(ctx.db, room_id)) throw notFound(`No room with id ${room_id}`);
      return { status: 'deleted' as const };
    },
    { writes: ['rooms'] },
  ),
  'rooms-upload': handler(z.object({ file: uploadedFileSchema }), 'Upsert rooms from a CSV, XLSX or JSON file', (ctx, { file }) => importRooms(ctx, file), {
    writes: ['rooms'],
  }),
});
