import { readFile, writeFile } from 'node:fs/promises';
import { basename } from 'node:path';
import { app, clipboard, dialog, Menu, shell, type BrowserWindow, type MenuItemConstructorOptions } from 'electron';
import type { Core } from '../core/index';
import type { FileResult } from '../core/domain/file-result';
import { VERSION } from '../core/version';
import { viewMenuRoles } from './security';

type ImportOperation = 'courses-upload' | 'offerings-upload' | 'doctors-upload';

const IMPORTS: { label: string; operation: ImportOperation; extensions: string[] }[] = [
  { label: 'Import courses…', operation: 'courses-upload', extensions: ['json'] },
  { label: 'Import offerings…', operation: 'offerings-upload', extensions: ['csv', 'xlsx'] },
  { label: 'Import doctors…', operation: 'doctors-upload', extensions: ['json', 'csv', 'xlsx'] },
];

async function saveResult(window: BrowserWindow, file: FileResult): Promise<void> {
  const choice = await dialog.showSaveDialog(window, { defaultPath: file.filename });
  if (!choice.canceled && choice.filePath) await writeFile(choice.filePath, file.content);
}

async function report(window: BrowserWindow, work: () => Promise<string>): Promise<void> {
  try {
    const message = await work();
    if (message) await dialog.showMessageBox(window, { type: 'info', message });
  } catch (error) {
    await dialog.showMessageBox(window, { type: 'error', message: error instanceof Error ? error.message : String(error) });
  }
}

/** File and Help menus; imports run the same handlers as the Data screen and tell the page to refresh. */
export function buildMenu(window: BrowserWindow, core: Core, api: { url: string; tokenSource: string }): Menu {
  const file: MenuItemConstructorOptions[] = [
    ...IMPORTS.map(({ label, operation, extensions }): MenuItemConstructorOptions => ({
      label,
      click: () =>
        void report(window, async () => {
          const choice = await dialog.showOpenDialog(window, { properties: ['openFile'], filters: [{ name: extensions.join(', '), extensions }] });
          const path = choice.filePaths[0];
          if (choice.canceled || !path) return '';
          const result = await core.run(operation, { file: { filename: basename(path), content: new Uint8Array(await readFile(path)) } });
          return `${basename(path)}: ${result.processed} processed, ${result.skipped} skipped${result.warnings.length ? `\n\n${result.warnings.slice(0, 10).join('\n')}` : ''}`;
        }),
    })),
    { type: 'separator' },
    {
      label: 'Export timetable…',
      accelerator: 'CmdOrCtrl+E',
      click: () => void report(window, async () => (await saveResult(window, await core.run('schedule-export', {})), '')),
    },
    { label: 'Back up database…', click: () => void report(window, async () => (await saveResult(window, await core.run('database-backup', {})), '')) },
    { label: 'Open data folder', click: () => void shell.openPath(core.dataDir) },
    { type: 'separator' },
    { role: 'quit' },
  ];
  const help: MenuItemConstructorOptions[] = [
    {
      label: 'About Termwise',
      click: () =>
        void dialog.showMessageBox(window, {
          type: 'info',
          message: `Termwise ${VERSION}`,
          detail: `Electron ${process.versions.electron ?? ''}\nData folder: ${core.dataDir}`,
        }),
    },
    {
      label: 'API token…',
      click: () =>
        void (async () => {
          const token = core.context.access?.token() ?? '';
          const choice = await dialog.showMessageBox(window, {
            type: 'info',
            message: 'REST API for scripts',
            detail: `Address: ${api.url}\nToken (kept in ${api.tokenSource}):\n${token}`,
            buttons: ['Copy token', 'Close'],
            defaultId: 1,
          });
          if (choice.response === 0) await clipboard.writeText(token);
        })(),
    },
  ];
  return Menu.buildFromTemplate([
    ...(process.platform === 'darwin' ? [{ label: app.name, submenu: [{ role: 'about' as const }, { role: 'quit' as const }] }] : []),
    { label: 'File', submenu: file },
    {
      label: 'Edit',
      submenu: [{ role: 'undo' }, { role: 'redo' }, { type: 'separator' }, { role: 'cut' }, { role: 'copy' }, { role: 'paste' }, { role: 'selectAll' }],
    },
    {
      label: 'View',
      submenu: viewMenuRoles(!app.isPackaged).map((role): MenuItemConstructorOptions => (role === 'separator' ? { type: 'separator' } : { role })),
    },
    { label: 'Help', submenu: help },
  ]);
}
