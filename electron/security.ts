import { isAbsolute, normalize, relative, resolve, sep } from 'node:path';
import type { Session, WebContents } from 'electron';

/** The renderer is served only from this origin (a custom protocol onto the bundled files). */
export const APP_SCHEME = 'app';
export const APP_HOST = 'termwise';
export const APP_ORIGIN = `${APP_SCHEME}://${APP_HOST}`;
export const APP_ENTRY = `${APP_ORIGIN}/index.html`;

export const CONTENT_SECURITY_POLICY =
  "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data: blob:; font-src 'self' data:; connect-src 'self'; object-src 'none'; base-uri 'none'; frame-ancestors 'none'";

/** Hosts whose http(s) links may open in the user's browser; everything else is refused. */
export const EXTERNAL_ALLOWLIST = new Set(['github.com', 'www.github.com']);

export function isAllowedExternalUrl(url: string): boolean {
  try {
    const parsed = new URL(url);
    return (
      (parsed.protocol === 'https:' || parsed.protocol === 'http:') &&
      EXTERNAL_ALLOWLIST.has(parsed.hostname) &&
      parsed.username === '' &&
      parsed.password === ''
    );
  } catch {
    return false;
  }
}

export function isAppUrl(url: string): boolean {
  try {
    const parsed = new URL(url);
    return parsed.protocol === `${APP_SCHEME}:` && parsed.host === APP_HOST;
  } catch {
    return false;
  }
}

/**
 * Maps an app:// request to a file under `root`, or null when it would leave `root`
 * (path traversal through "..", encoded separators or absolute paths).
 */
export function resolveAppFile(root: string, requestUrl: string): string | null {
  if (!isAppUrl(requestUrl)) return null;
  let pathname: string;
  try {
    pathname = decodeURIComponent(new URL(requestUrl).pathname);
  } catch {
    return null;
  }
  if (pathname.includes('\0') || pathname.includes('\\')) return null;
  const relativePath = normalize(pathname === '/' ? 'index.html' : pathname.replace(/^\/+/, ''));
  if (isAbsolute(relativePath)) return null;
  const base = resolve(root);
  const target = resolve(base, relativePath);
  const rel = relative(base, target);
  if (rel === '' || rel.startsWith('..') || isAbsolute(rel) || rel.split(sep).includes('..')) return null;
  return target;
}

/** Denies every permission request (camera, notifications, geolocation, …). */
export function denyPermissions(session: Session): void {
  session.setPermissionRequestHandler((_webContents, _permission, callback) => callback(false));
  session.setPermissionCheckHandler(() => false);
}

/** No navigation away from the app, no new windows; allow-listed links open in the browser. */
export function guardWebContents(contents: WebContents, openExternal: (url: string) => Promise<void>): void {
  contents.on('will-navigate', (event, url) => {
    if (!isAppUrl(url)) event.preventDefault();
  });
  contents.setWindowOpenHandler(({ url }) => {
    if (isAllowedExternalUrl(url)) void openExternal(url);
    return { action: 'deny' };
  });
}

/** The View menu: developer tools only in development (an unpackaged app), never in an installed one. */
export function viewMenuRoles(development: boolean): ('reload' | 'toggleDevTools' | 'separator' | 'resetZoom' | 'zoomIn' | 'zoomOut' | 'togglefullscreen')[] {
  return ['reload', ...(development ? (['toggleDevTools'] as const) : []), 'separator', 'resetZoom', 'zoomIn', 'zoomOut', 'togglefullscreen'];
}
