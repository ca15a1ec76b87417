import type { IncomingHttpHeaders } from 'node:http';
import type { Caller } from '../context';
import { isLocalHost } from './host';
import { cookieValue, sessionCookieName } from './session';
import { SESSION_HEADER, SESSION_KEY_PARAM } from '../domain/session-wire';
import { bearerToken, tokensMatch } from './token';
import { REGISTRAR, type Actor } from '../domain/people';
import { isPersonalToken } from '../people';

/** What the guard sees of a request. */
export interface GuardRequest {
  method: string;
  url: string;
  headers: IncomingHttpHeaders;
  /** The port this server listens on (the request's local port). */
  localPort: number;
}

/**
 * What the guard decides: allowed (with who asks: the caller and the actor they act for), refused,
 * or a personal token or browser session to look up in the store before deciding.
 */
export type GuardDecision =
  | { allow: true; caller: Caller | null; actor: Actor | null }
  | { allow: 'token'; token: string }
  | { allow: 'session'; id: string; key: string }
  | { allow: false; status: number; detail: string };

/** What a browser whose session let nobody in is told: it ended (or never was), and how to begin another. */
export const SESSION_ENDED =
  "Your session has ended or is not valid: open the sign-in link that `npm run serve` printed (also kept in the data folder's login-url file)";

/** Paths anyone on this machine may read: liveness, the API description and the page's static files. */
const PUBLIC_PATHS = new Set(['/health', '/openapi.json', '/', '/index.html', '/favicon.svg', '/session/signin', '/session/token']);

export function pathOf(url: string): string {
  const q = url.indexOf('?');
  return q < 0 ? url : url.slice(0, q);
}

function isPublicPath(path: string): boolean {
  return PUBLIC_PATHS.has(path) || path.startsWith('/assets/');
}

const SAFE_METHODS = new Set(['GET', 'HEAD']);

function header(headers: IncomingHttpHeaders, name: string): string | undefined {
  const value = headers[name];
  return Array.isArray(value) ? value[0] : value;
}

/** The page's own origin as a browser names it: scheme, the local host it used, and this server's port. */
function isOwnOrigin(origin: string, host: string, localPort: number): boolean {
  const lower = host.trim().toLowerCase();
  const portText = /:(\d{1,5})$/.exec(lower)?.[1];
  if (portText === undefined || Number(portText) !== localPort) return false;
  return origin.toLowerCase() === `http://${lower}`;
}

function queryParam(url: string, name: string): string | null {
  const q = url.indexOf('?');
  if (q < 0) return null;
  return new URLSearchParams(url.slice(q + 1, q + 1 + 4096)).get(name);
}

const refuse = (status: number, detail: string): GuardDecision => ({ allow: false, status, detail });

/**
 * What a server accepts beyond this machine: the host names requests may be addressed to, and the
 * origins its page may be served from (a campus server behind a proxy). None by default: a laptop
 * answers localhost only.
 */
export interface ServerAccess {
  hosts: ReadonlySet<string>;
  origins: ReadonlySet<string>;
}

export const LOCAL_ONLY: ServerAccess = { hosts: new Set(), origins: new Set() };

/** Whether a request reached the server by one of its https public addresses: its session cookie is then Secure. */
export function reachedOverHttps(headers: IncomingHttpHeaders, access: ServerAccess): boolean {
  const host = header(headers, 'host')?.trim().toLowerCase();
  if (!host) return false;
  return [...access.origins].some((origin) => origin.startsWith('https://') && (origin === `https://${host}` || new URL(origin).host === host));
}

/**
 * What the session cookie's name carries of the address the browser used: this server's own port
 * on this machine; a public address's port (none for its scheme's default) behind a proxy, so that
 * every process behind one address reads the same cookie whatever port it listens on.
 */
export function sessionCookiePort(headers: IncomingHttpHeaders, localPort: number, access: ServerAccess): number | null {
  const host = header(headers, 'host');
  if (isLocalHost(host) || !access.hosts.has(hostName(host))) return localPort;
  const given = /:(\d{1,5})$/.exec((host ?? '').trim())?.[1];
  return given === undefined ? null : Number(given);
}

/**
 * Whether a request comes from the app page itself: same-origin by the browser's word (when it
 * says), with an Origin that is the server's own or a public one it was given.
 */
export function isPageRequest(request: { headers: IncomingHttpHeaders; socket: { localPort?: number | undefined } }, access: ServerAccess): boolean {
  const site = header(request.headers, 'sec-fetch-site');
  if (site !== undefined && site !== 'same-origin') return false;
  const origin = header(request.headers, 'origin');
  if (origin === undefined) return false;
  return isOwnOrigin(origin, header(request.headers, 'host') ?? '', request.socket.localPort ?? 0) || access.origins.has(origin.toLowerCase());
}

/** A Host header's name, without its port, in lower case. */
function hostName(host: string | undefined): string {
  const lower = (host ?? '').trim().toLowerCase();
  return lower.startsWith('[') ? lower.slice(0, lower.indexOf(']') + 1) : (lower.split(':')[0] ?? '');
}

/**
 * Decides who a request comes from, or refuses it:
 * - any Host other than localhost / 127.0.0.1 / [::1] is refused (DNS rebinding);
 * - a script proves itself with the bearer token;
 * - the app's page proves itself with its session: the HttpOnly cookie and the session key in
 *   the X-Termwise header, sent from the server's own origin (port included), never from another
 *   site or another local port, and never by a form or a no-cors request.
 */
export function guardRequest(request: GuardRequest, token: string, pageServed: boolean, access: ServerAccess = LOCAL_ONLY): GuardDecision {
  const host = header(request.headers, 'host');
  if (!isLocalHost(host) && !access.hosts.has(hostName(host)))
    return refuse(421, `Requests must be addressed to ${access.hosts.size > 0 ? 'this server' : 'localhost'}, not "${(host ?? '').slice(0, 100)}"`);
  const path = pathOf(request.url);
  if (isPublicPath(path)) return { allow: true, caller: null, actor: null };

  const given = bearerToken(header(request.headers, 'authorization'));
  if (given !== null && tokensMatch(given, token)) return { allow: true, caller: 'script', actor: REGISTRAR };
  // A personal token: who it acts for is in the store.
  if (given !== null && isPersonalToken(given)) return { allow: 'token', token: given };

  const sessionId = cookieValue(header(request.headers, 'cookie'), sessionCookieName(sessionCookiePort(request.headers, request.localPort, access)));
  if (sessionId !== null && pageServed) {
    const site = header(request.headers, 'sec-fetch-site');
    if (site !== undefined && site !== 'same-origin') return refuse(403, 'Requests from other sites or other local ports are not allowed');
    const origin = header(request.headers, 'origin');
    if (origin !== undefined && !isOwnOrigin(origin, host ?? '', request.localPort) && !access.origins.has(origin.toLowerCase()))
      return refuse(403, 'Cross-origin requests are not allowed');
    if (origin === undefined && !SAFE_METHODS.has(request.method))
      return refuse(403, 'Changes from the app page must say where they come from (Origin header)');
    // EventSource cannot send headers: the event stream alone takes the key as a query parameter.
    const key =
      header(request.headers, SESSION_HEADER.toLowerCase()) ??
      (path === '/events' && request.method === 'GET' ? queryParam(request.url, SESSION_KEY_PARAM) : null);
    // Who the session acts for is in the store (any server process opened it).
    if (key) return { allow: 'session', id: sessionId, key };
    return refuse(401, SESSION_ENDED);
  }
  return refuse(401, 'Missing or wrong API token: send "Authorization: Bearer <token>"');
}
