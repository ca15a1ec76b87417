import { REGISTRAR, type Actor } from '../domain/people';
import { SESSION_LIFETIME_MS, type Identity, type NewSession, type SessionCheck } from '../people';

/**
 * Browser sessions of the page served by `npm run serve`.
 *
 * Nobody gets a session by asking for the page. The server hands out a one-time sign-in link
 * (`/?login=<nonce>`, printed on start and kept in a 0600 file); its first use creates a random
 * session and the nonce is replaced. Sessions and links live in the store (people/sessions.ts), so any
 * server process answers any of them. A session is two secrets:
 * - the session id, in an HttpOnly, SameSite=Strict cookie (scripts on the page cannot read it);
 * - the session key, handed to the page once in the redirect's fragment (never sent to any
 *   server) and sent back in the `X-Termwise` header of every API request.
 * Cookies ignore ports, so every other server on 127.0.0.1 that the browser visits receives the
 * cookie; without the key, which only the page's own origin holds, the cookie opens nothing. And
 * no form or no-cors request can carry a custom header.
 */
export const LOGIN_PARAM = 'login';

export { LOGIN_LINK_LIFETIME_MS, SESSION_IDLE_MS, SESSION_LIFETIME_MS } from '../people';

/**
 * The browser sessions of one server process, over the store's (core.identity): every process on a
 * database knows every session and link. This process keeps only its own sign-in link (the one it
 * prints and writes to the login-url file) and the event streams to end when a session it serves ends.
 */
export class BrowserSessions {
  private nonce: string | null = null;
  private readonly listeners = new Set<(nonce: string) => void>();
  private readonly endListeners = new Map<string, Set<() => void>>();

  constructor(private readonly identity: Identity) {}

  /** The nonce of this process's sign-in link: a new one once it is used (by any process) or has expired. */
  async loginNonce(): Promise<string> {
    if (this.nonce === null || !(await this.identity.signInLinkLive(this.nonce))) {
      this.nonce = await this.identity.issueSignInLink();
      for (const listener of this.listeners) listener(this.nonce);
    }
    return this.nonce;
  }

  /** Called with each new nonce (to keep the sign-in file current). */
  onNonceChange(listener: (nonce: string) => void): void {
    this.listeners.add(listener);
  }

  /** Uses a sign-in link up: a new session for the registrar, or null when the link is wrong, expired or used already. */
  async signIn(nonce: string): Promise<NewSession | null> {
    if (!(await this.identity.useSignInLink(nonce))) return null;
    // The next link is ready at once (written to the login-url file). Another process's link was
    // used: the file (which processes on one data folder share) gets this process's, which works.
    const before = this.nonce;
    const mine = await this.loginNonce();
    if (mine === before) for (const listener of this.listeners) listener(mine);
    return this.identity.openSession(REGISTRAR);
  }

  /** A new session for someone who signed in with their login and password. */
  signInAs(actor: Actor): Promise<NewSession> {
    return this.identity.openSession(actor);
  }

  /** Who a session acts for (its key checked, its person read again), or why it lets nobody in. */
  verify(id: string, key: string): Promise<SessionCheck> {
    return this.identity.checkSession(id, key);
  }

  async signOut(id: string | null): Promise<void> {
    if (id === null) return;
    await this.identity.endSession(id);
    this.ended(id);
  }

  /** Ends every browser session (the token was regenerated) and issues a new sign-in link. */
  async signOutAll(): Promise<void> {
    await this.identity.endAllSessions();
    for (const id of [...this.endListeners.keys()]) this.ended(id);
    this.nonce = null;
    await this.loginNonce();
  }

  /** Whether a session exists and is within its time (nothing refreshed), whichever process opened it. */
  isLive(id: string): Promise<boolean> {
    return this.identity.sessionLive(id);
  }

  /** Calls `listener` when this process ends the session (sign-out, a new token); answers how to stop listening. */
  onEnd(id: string, listener: () => void): () => void {
    const set = this.endListeners.get(id) ?? new Set<() => void>();
    set.add(listener);
    this.endListeners.set(id, set);
    return () => {
      set.delete(listener);
      if (set.size === 0) this.endListeners.delete(id);
    };
  }

  private ended(id: string): void {
    const listeners = this.endListeners.get(id);
    this.endListeners.delete(id);
    for (const listener of listeners ?? []) listener();
  }
}

/** Cookies ignore ports: the name carries the port so two Termwise servers do not overwrite each other's (none: a public address on its scheme's port). */
export function sessionCookieName(port: number | null): string {
  return port === null ? 'termwise_session' : `termwise_session_${port}`;
}

/** The session cookie; `secure` (the page reached over https) keeps the browser from ever sending it in the clear. */
export function sessionCookieHeader(port: number | null, id: string, secure: boolean): string {
  return `${sessionCookieName(port)}=${id}; HttpOnly; SameSite=Strict; Path=/; Max-Age=${SESSION_LIFETIME_MS / 1000}${secure ? '; Secure' : ''}`;
}

export function clearedSessionCookieHeader(port: number | null): string {
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
