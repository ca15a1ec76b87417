import { writeFileSync } from 'node:fs';
import { readSmallFile } from '../core/files/private';

/** Where and how big the window was, restored on the next start. */
export interface WindowState {
  x?: number;
  y?: number;
  width: number;
  height: number;
  maximized: boolean;
}

export const DEFAULT_WINDOW: WindowState = { width: 1360, height: 860, maximized: false };
const MIN = { width: 1024, height: 700 };

export function parseWindowState(text: string | null): WindowState {
  if (!text) return DEFAULT_WINDOW;
  try {
    const raw = JSON.parse(text) as Partial<WindowState>;
    const int = (v: unknown): number | undefined => (typeof v === 'number' && Number.isFinite(v) ? Math.round(v) : undefined);
    const width = Math.max(MIN.width, int(raw.width) ?? DEFAULT_WINDOW.width);
    const height = Math.max(MIN.height, int(raw.height) ?? DEFAULT_WINDOW.height);
    const x = int(raw.x);
    const y = int(raw.y);
    return { ...(x !== undefined && y !== undefined ? { x, y } : {}), width, height, maximized: raw.maximized === true };
  } catch {
    return DEFAULT_WINDOW;
  }
}

export function loadWindowState(file: string): WindowState {
  try {
    return parseWindowState(readSmallFile(file, 16 * 1024));
  } catch {
    return DEFAULT_WINDOW;
  }
}

export function saveWindowState(file: string, state: WindowState): void {
  try {
    writeFileSync(file, JSON.stringify(state));
  } catch {
    // Losing the window position is not worth an error dialog.
  }
}
