import type { ColumnAliases } from '../import/table';

/** The headers a rooms file may use for each field (matched ignoring case and spacing). */
export const ROOM_COLUMNS = {
  name: ['name', 'room', 'room name', 'room_name'],
  capacity: ['capacity', 'seats', 'size'],
  campus: ['campus', 'location'],
} as const satisfies ColumnAliases<string>;
