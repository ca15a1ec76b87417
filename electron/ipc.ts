import { writeFile } from 'node:fs/promises';
import type { BrowserWindow, Dialog, IpcMain, IpcMainInvokeEvent } from 'electron';
import type { Core } from '../core/index';
import { INTERNAL_ERROR_MESSAGE, isCoreError } from '../core/domain/errors';
import { CAMPUS_CHANNEL, EVENT_CHANNEL, INVOKE_CHANNEL, SAVE_CHANNEL, type InvokeResult } from './bridge';
import type { CampusLink } from './campus-link';
import { isAppUrl } from './security';

/** Only the app's own page may call the core: not another frame, not a navigated-away page. */
export function isTrustedSender(frame: { url: string } | null | undefined): boolean {
  return frame !== null && frame !== undefined && isAppUrl(frame.url);
}

/**
 * Runs an operation for the renderer through the same runner as REST, or on the campus server
 * when the app is connected to one; errors come back as data.
 */
export async function dispatch(
  core: Pick<Core, 'runUnchecked'>,
  frame: { url: string } | null | undefined,
  operation: unknown,
  args: unknown,
  campus: Pick<CampusLink, 'current'> | null = null,
): Promise<InvokeResult> {
  if (!isTrustedSender(frame)) return { ok: false, error: { code: 'unauthorized', message: 'This page may not call Termwise' } };
  if (typeof operation !== 'string') return { ok: false, error: { code: 'validation', message: 'The operation name must be a string' } };
  const server = campus?.current ?? null;
  if (server) return server.invoke(operation, args);
  try {
    return { ok: true, value: await core.runUnchecked(operation, args, { caller: 'desktop' }) };
  } catch (error) {
    if (isCoreError(error)) return { ok: false, error: error.toData() };
    console.error(error);
    return { ok: false, error: { code: 'internal', message: INTERNAL_ERROR_MESSAGE } };
  }
}

/** The one invoke channel, core events pushed to the window, the native save dialog and the campus link. */
export function registerIpc(ipcMain: IpcMain, dialog: Dialog, core: Core, window: BrowserWindow, campus: CampusLink | null = null): () => void {
  ipcMain.handle(INVOKE_CHANNEL, (event: IpcMainInvokeEvent, operation: unknown, args: unknown) => dispatch(core, event.senderFrame, operation, args, campus));
  ipcMain.handle(CAMPUS_CHANNEL, (event: IpcMainInvokeEvent, action: unknown, args: unknown) => {
    if (!isTrustedSender(event.senderFrame) || !campus)
      return { ok: false, error: { code: 'unauthorized', message: 'This page may not reach the campus link' } } satisfies InvokeResult;
    return campus.handle(core, action, args);
  });
  ipcMain.handle(SAVE_CHANNEL, async (event: IpcMainInvokeEvent, suggestedName: unknown, content: unknown) => {
    if (!isTrustedSender(event.senderFrame) || typeof suggestedName !== 'string' || !(content instanceof Uint8Array)) return null;
    const choice = await dialog.showSaveDialog(window, { defaultPath: suggestedName });
    if (choice.canceled || !choice.filePath) return null;
    await writeFile(choice.filePath, content);
    return choice.filePath;
  });
  // The laptop's own events; while connected, the campus link forwards the server's (see main.ts).
  const unsubscribe = core.events.subscribe((event) => {
    if (!window.isDestroyed() && !campus?.current) window.webContents.send(EVENT_CHANNEL, event);
  });
  return () => {
    unsubscribe();
    ipcMain.removeHandler(INVOKE_CHANNEL);
    ipcMain.removeHandler(SAVE_CHANNEL);
    ipcMain.removeHandler(CAMPUS_CHANNEL);
  };
}
