import { writeFile } from 'node:fs/promises';
import type { BrowserWindow, Dialog, IpcMain, IpcMainInvokeEvent } from 'electron';
import type { Core } from '../core/index';
import { INTERNAL_ERROR_MESSAGE, isCoreError } from '../core/domain/errors';
import { EVENT_CHANNEL, INVOKE_CHANNEL, SAVE_CHANNEL, type InvokeResult } from './bridge';
import { isAppUrl } from './security';

/** Only the app's own page may call the core: not another frame, not a navigated-away page. */
export function isTrustedSender(frame: { url: string } | null | undefined): boolean {
  return frame !== null && frame !== undefined && isAppUrl(frame.url);
}

/** Runs an operation for the renderer through the same runner as REST; errors come back as data. */
export async function dispatch(core: Pick<Core, 'runUnchecked'>, frame: { url: string } | null | undefined, operation: unknown, args: unknown): Promise<InvokeResult> {
  if (!isTrustedSender(frame)) return { ok: false, error: { code: 'unauthorized', message: 'This page may not call Termwise' } };
  if (typeof operation !== 'string') return { ok: false, error: { code: 'validation', message: 'The operation name must be a string' } };
  try {
    return { ok: true, value: await core.runUnchecked(operation, args, { caller: 'desktop' }) };
  } catch (error) {
    if (isCoreError(error)) return { ok: false, error: error.toData() };
    console.error(error);
    return { ok: false, error: { code: 'internal', message: INTERNAL_ERROR_MESSAGE } };
  }
}

/** The one invoke channel, core events pushed to the window, and the native save dialog. */
export function registerIpc(ipcMain: IpcMain, dialog: Dialog, core: Core, window: BrowserWindow): () => void {
  ipcMain.handle(INVOKE_CHANNEL, (event: IpcMainInvokeEvent, operation: unknown, args: unknown) => dispatch(core, event.senderFrame, operation, args));
  ipcMain.handle(SAVE_CHANNEL, async (event: IpcMainInvokeEvent, suggestedName: unknown, content: unknown) => {
    if (!isTrustedSender(event.senderFrame) || typeof suggestedName !== 'string' || !(content instanceof Uint8Array)) return null;
    const choice = await dialog.showSaveDialog(window, { defaultPath: suggestedName });
    if (choice.canceled || !choice.filePath) return null;
    await writeFile(choice.filePath, content);
    return choice.filePath;
  });
  const unsubscribe = core.events.subscribe((event) => {
    if (!window.isDestroyed()) window.webContents.send(EVENT_CHANNEL, event);
  });
  return () => {
    unsubscribe();
    ipcMain.removeHandler(INVOKE_CHANNEL);
    ipcMain.removeHandler(SAVE_CHANNEL);
  };
}
