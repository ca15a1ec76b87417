import type { FieldProblem } from '../core/domain/errors';

/**
 * What the preload script exposes to the renderer as `window.termwise`: named functions only,
 * never ipcRenderer itself.
 */
export interface CoreErrorPayload {
  code: string;
  message: string;
  details?: { fields?: FieldProblem[]; conflicts?: string[] };
}

export type InvokeResult = { ok: true; value: unknown } | { ok: false; error: CoreErrorPayload };

export interface TermwiseBridge {
  invoke(operation: string, args: unknown): Promise<InvokeResult>;
  onEvent(listener: (event: unknown) => void): () => void;
  /** Native save dialog; resolves to the chosen path, or null when cancelled. */
  saveFile(suggestedName: string, content: Uint8Array): Promise<string | null>;
  /** The campus server link: status, connect, disconnect, publish a term, fetch a term (electron/campus-link.ts). */
  campus(action: string, args: unknown): Promise<InvokeResult>;
}

export const INVOKE_CHANNEL = 'core:invoke';
export const EVENT_CHANNEL = 'core:event';
export const SAVE_CHANNEL = 'file:save';
export const CAMPUS_CHANNEL = 'campus:link';
