import { z } from 'zod';
import { defineHandlers, handler } from '../registry';
import { uploadedFileSchema } from '../import/files';
import { TBD_ROOM } from '../domain/meetings';
import { boundedText, campusName } from '../input-fields';
import { changeRoom, createRoom, importRooms, removeRoom } from './service';

export const roomHandlers = defineHandlers({
  'rooms-create': handler(
    z.object({
      name: boundedText()
        .trim()
        .min(1, 'a room name is required')
        .refine((n) => n.toUpperCase() !== TBD_ROOM, 'TBD is not a room'),
      capacity: z.number({ error: 'must be a whole number of seats' }).int('must be a whole number of seats').positive('must be at least 1'),
      campus: campusName.nullable().default(null),
      department_id: z.number({ error: 'must be a department id' }).int().positive().nullable().optional(),
    }),
    "Declare a room: the registrar's go to the campus pool (or to the department named by department_id), a scheduler's to their department",
    (ctx, input) => createRoom(ctx, input),
    { writes: ['rooms'] },
  ),
  'rooms-update': handler(
    z.object({
      room_id: z.coerce.number({ error: 'must be a room id' }).int().positive(),
      capacity: z.number({ error: 'must be a whole number of seats' }).int('must be a whole number of seats').positive('must be at least 1').optional(),
      campus: campusName.nullable().optional(),
      department_id: z.number({ error: 'must be a department id' }).int().positive().nullable().optional(),
    }),
    "Change a room's seats or campus (a scheduler: their department's rooms); the registrar also moves it between the campus pool (department_id null) and a department",
    (ctx, { room_id, ...change }) => changeRoom(ctx, room_id, change),
    { writes: ['rooms'] },
  ),
  'rooms-delete': handler(
    z.object({ room_id: z.coerce.number({ error: 'must be a room id' }).int().positive() }),
    'Remove a declared room',
    (ctx, { room_id }) => removeRoom(ctx, room_id),
    { writes: ['rooms'] },
  ),
  'rooms-upload': handler(z.object({ file: uploadedFileSchema }), 'Upsert rooms from a CSV, XLSX or JSON file', (ctx, { file }) => importRooms(ctx, file), {
    writes: ['rooms'],
  }),
});
