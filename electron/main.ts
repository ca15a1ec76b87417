import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { app, BrowserWindow, dialog, ipcMain, Menu, net, protocol, safeStorage, session, shell } from 'electron';
import { createCore, type Core } from '../core/index';
import { portFromEnv } from '../core/config';
import { startApi, type StartedApi } from '../core/http/start';
import { registerIpc } from './ipc';
import { CampusLink } from './campus-link';
import { EVENT_CHANNEL } from './bridge';
import { buildMenu } from './menu';
import { APP_ENTRY, APP_SCHEME, CONTENT_SECURITY_POLICY, denyPermissions, guardWebContents, resolveAppFile } from './security';
import { loadWindowState, saveWindowState } from './window-state';

/** Bundled renderer files, next to this bundle in a packaged app. */
const RENDERER_DIR = fileURLToPath(new URL('../dist/renderer/', import.meta.url));
const PRELOAD = fileURLToPath(new URL('./preload.cjs', import.meta.url));

protocol.registerSchemesAsPrivileged([{ scheme: APP_SCHEME, privileges: { standard: true, secure: true, supportFetchAPI: true } }]);

let core: Core | null = null;
let api: StartedApi | null = null;
let window: BrowserWindow | null = null;
let campus: CampusLink | null = null;

function serveAppProtocol(): void {
  protocol.handle(APP_SCHEME, async (request) => {
    const file = resolveAppFile(RENDERER_DIR, request.url);
    if (!file) return new Response('Not found', { status: 404 });
    const response = await net.fetch(pathToFileURL(file).href);
    const headers = new Headers(response.headers);
    headers.set('Content-Security-Policy', CONTENT_SECURITY_POLICY);
    return new Response(response.body, { status: response.status, headers });
  });
}

function createWindow(): BrowserWindow {
  const stateFile = join(app.getPath('userData'), 'window-state.json');
  const state = loadWindowState(stateFile);
  const win = new BrowserWindow({
    ...state,
    minWidth: 1024,
    minHeight: 700,
    title: 'Termwise',
    show: false,
    webPreferences: {
      preload: PRELOAD,
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      webSecurity: true,
      spellcheck: false,
      devTools: !app.isPackaged,
    },
  });
  if (state.maximized) win.maximize();
  win.once('ready-to-show', () => win.show());
  win.on('close', () => saveWindowState(stateFile, { ...win.getNormalBounds(), maximized: win.isMaximized() }));
  void win.loadURL(APP_ENTRY);
  return win;
}

async function start(): Promise<void> {
  denyPermissions(session.defaultSession);
  serveAppProtocol();
  // The desktop app keeps its data in SQLite in its own folder (a shared server is `npm run serve` on PostgreSQL).
  const opened = await createCore({ dataDir: app.getPath('userData') });
  core = opened;
  try {
    api = await startApi(opened, { port: portFromEnv() });
  } catch (error) {
    await dialog.showMessageBox({
      type: 'warning',
      message: 'The REST API for scripts could not start',
      detail: error instanceof Error ? error.message : String(error),
    });
  }
  const win = createWindow();
  window = win;
  // Connected to a campus server, the screens read and write there; the server's events reach the window.
  campus = new CampusLink(join(app.getPath('userData'), 'campus-server.json'), safeStorage, (event) => {
    if (!win.isDestroyed()) win.webContents.send(EVENT_CHANNEL, event);
  });
  registerIpc(ipcMain, dialog, opened, win, campus);
  Menu.setApplicationMenu(buildMenu(window, opened, { url: api?.url ?? 'not running', tokenSource: api?.tokenSource ?? '' }));
}

if (!app.requestSingleInstanceLock()) {
  app.quit();
} else {
  app.on('second-instance', () => {
    if (!window) return;
    if (window.isMinimized()) window.restore();
    window.focus();
  });
  app.on('web-contents-created', (_event, contents) => guardWebContents(contents, (url) => shell.openExternal(url)));
  app.on('window-all-closed', () => app.quit());
  app.on('before-quit', () => {
    campus?.close();
    void api?.close();
    void core?.close();
    core = null;
  });
  app
    .whenReady()
    .then(start)
    .catch((error: unknown) => {
      dialog.showErrorBox('Termwise could not start', error instanceof Error ? error.message : String(error));
      app.quit();
    });
}
