import { call, fileToUpload, type Result } from '../api/client';
import { prefetchLive, useLive, type LiveResult } from '../api/live';

/** Declares a room; the lists of rooms show it on the change event. Throws the refusal. */
export async function addRoom(room: { name: string; capacity: number; campus: string | null; department_id?: number | null }): Promise<void> {
  await call('rooms-create', room);
}

/** Changes a room's seats and campus, and (the registrar) whether it is shared or one department's. Throws the refusal. */
export async function changeRoom(roomId: number, change: { capacity: number; campus: string | null; department_id?: number | null }): Promise<void> {
  await call('rooms-update', { room_id: roomId, ...change });
}

/** Removes a declared room. Throws the refusal. */
export async function removeRoom(roomId: number): Promise<void> {
  await call('rooms-delete', { room_id: roomId });
}

/** Uploads a list of rooms, answering how many were read and skipped. Throws the refusal. */
export async function uploadRooms(file: File): Promise<Result<'rooms-upload'>> {
  return call('rooms-upload', { file: await fileToUpload(file) });
}

/** Starts loading the rooms (the panel below the week, and By room). */
export function prefetchRooms(): Promise<void> {
  return prefetchLive('rooms-list', {});
}

/** The rooms with their seats, live (added here, in another window or by a script). */
export function useRooms(): LiveResult<Result<'rooms-list'>> {
  return useLive('rooms-list', {});
}
