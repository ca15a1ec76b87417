import { randomBytes } from 'node:crypto';
import { tokensMatch } from './token';
import { REGISTRAR, type Actor } from '../domain/people';

/**
 * Browser sessions of the page served by `npm run serve`.
 *
 * Nobody gets a session by asking for the page. The server hands out a one-time sign-in link
 * (`/?login=<nonce>`, printed on start and kept in a 0600 file); its first use creates a random
 * server-side session and the nonce is replaced. A session is two secrets:
 * - the session id, in an HttpOnly, SameSite=Strict cookie (scripts on the page cannot read it);
 * - the session key, handed to the page once in the redirect's fragment (never sent to any
 *   server) and sent back in the `X-Termwise` header of every API request.
 * Cookies ignore ports, so every other server on 127.0.0.1 that the browser visits receives the
 * cookie; without the key, which only the page's own origin holds, the cookie opens nothing. And
 * no form or no-cors request can carry a custom header.
 */
export const LOGIN_PARAM = 'login';

/** A session ends after this long, or after this long unused; a server restart ends all. */
export const SESSION_LIFETIME_MS = 24 * 60 * 60 * 1000;
export const SESSION_IDLE_MS = 8 * 60 * 60 * 1000;
/** A sign-in link works once and only this long; then a new one is made (and written to the login-url file). */
export const LOGIN_LINK_LIFETIME_MS = 10 * 60 * 1000;

interface Session {
  key: string;
  createdAt: number;
  lastSeenAt: number;
  /** Who the session acts for: the registrar (the sign-in link), or a person who signed in. */
  actor: Actor;
}

export interface NewSession {
  id: string;
  key: string;
}

const secret = (): string => randomBytes(32).toString('hex');

export class BrowserSessions {
  private nonce: string = secret();
  private nonceIssuedAt: number;
  private readonly sessions = new Map<string, Session>();
  private readonly listeners = new Set<(nonce: string) => void>();
  private readonly endListeners = new Map<string, Set<() => void>>();

  constructor(private readonly now: () => number = Date.now) {
    this.nonceIssuedAt = now();
  }

  /** The nonce of the next sign-in link (a new one once the current one has expired). */
  get loginNonce(): string {
    if (this.now() - this.nonceIssuedAt > LOGIN_LINK_LIFETIME_MS) this.rotateNonce();
    return this.nonce;
  }

  /** Called with each new nonce (to keep the sign-in file current). */
  onNonceChange(listener: (nonce: string) => void): void {
    this.listeners.add(listener);
  }

  /** Uses up the sign-in nonce: a new session, or null when the nonce is wrong or already used. */
  signIn(nonce: string): NewSession | null {
    if (!tokensMatch(nonce, this.loginNonce)) return null;
    this.rotateNonce();
    return this.open(REGISTRAR);
  }

  /** A new session for someone who signed in with their login and password. */
  signInAs(actor: Actor): NewSession {
    return this.open(actor);
  }

  private open(actor: Actor): NewSession {
    this.prune();
    const session: NewSession = { id: secret(), key: secret() };
    const at = this.now();
    this.sessions.set(session.id, { key: session.key, createdAt: at, lastSeenAt: at, actor });
    return session;
  }

  /** Who the cookie's session acts for, when it exists, is current and the key is its own (its idle time refreshed); else null. */
  verify(id: string | null, key: string | null): Actor | null {
    if (id === null || key === null) return null;
    const session = this.sessions.get(id);
    if (!session) return null;
    const at = this.now();
    if (at - session.createdAt > SESSION_LIFETIME_MS || at - session.lastSeenAt > SESSION_IDLE_MS) {
      this.end(id);
      return null;
    }
    if (!tokensMatch(key, session.key)) return null;
    session.lastSeenAt = at;
    return session.actor;
  }

  /** Ends every session of a person (signed out by the registrar, disabled). */
  signOutPerson(person: number): void {
    for (const [id, s] of [...this.sessions]) if (s.actor.person === person) this.end(id);
  }

  signOut(id: string | null): void {
    if (id !== null) this.end(id);
  }

  /** Ends every browser session (the token was regenerated) and issues a new sign-in nonce. */
  signOutAll(): void {
    for (const id of [...this.sessions.keys()]) this.end(id);
    this.rotateNonce();
  }

  /** Whether a session exists and is within its lifetime and idle time (without refreshing it). */
  isLive(id: string): boolean {
    const session = this.sessions.get(id);
    if (!session) return false;
    const at = this.now();
    return at - session.createdAt <= SESSION_LIFETIME_MS && at - session.lastSeenAt <= SESSION_IDLE_MS;
  }

  /** Calls `listener` when the session ends (sign-out, a new token); answers how to stop listening. */
  onEnd(id: string, listener: () => void): () => void {
    const set = this.endListeners.get(id) ?? new Set<() => void>();
    set.add(listener);
    this.endListeners.set(id, set);
    return () => {
      set.delete(listener);
      if (set.size === 0) this.endListeners.delete(id);
    };
  }

  private end(id: string): void {
    this.sessions.delete(id);
    const listeners = this.endListeners.get(id);
    this.endListeners.delete(id);
    for (const listener of listeners ?? []) listener();
  }

  get size(): number {
    return this.sessions.size;
  }

  private rotateNonce(): void {
    this.nonce = secret();
    this.nonceIssuedAt = this.now();
    for (const listener of this.listeners) listener(this.nonce);
  }

  private prune(): void {
    const at = this.now();
    for (const [id, s] of this.sessions) {
      if (at - s.createdAt > SESSION_LIFETIME_MS || at - s.lastSeenAt > SESSION_IDLE_MS) this.end(id);
    }
  }
}

/** Cookies ignore ports: the name carries the port so two Termwise servers do not overwrite each other's. */
export function sessionCookieName(port: number): string {
  return `termwise_session_${port}`;
}

/** The session cookie; `secure` (the page reached over https) keeps the browser from ever sending it in the clear. */
export function sessionCookieHeader(port: number, id: string, secure: boolean): string {
  return `${sessionCookieName(port)}=${id}; HttpOnly; SameSite=Strict; Path=/; Max-Age=${SESSION_LIFETIME_MS / 1000}${secure ? '; Secure' : ''}`;
}

export function clearedSessionCookieHeader(port: number): string {
  return `${sessionCookieName(port)}=; HttpOnly; SameSite=Strict; Path=/; Max-Age=0`;
}

export function cookieValue(header: string | undefined, name: string): string | null {
  if (!header) return null;
  for (const part of header.slice(0, 8192).split(';')) {
    const eq = part.indexOf('=');
    if (eq < 0) continue;
    if (part.slice(0, eq).trim() === name) return part.slice(eq + 1).trim();
  }
  return null;
}

export function loginUrl(base: string, nonce: string): string {
  return `${base}?${LOGIN_PARAM}=${nonce}`;
}
