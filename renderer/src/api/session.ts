/**
 * The browser session of the page served by `npm run serve` (headless mode). Signing in with the
 * one-time link redirects here with the session key in the fragment; the key is kept in this
 * origin's storage (other local ports cannot read it) and sent in the X-Termwise header of every
 * call, next to the HttpOnly session cookie. See core/http/session.ts.
 */
const STORAGE_KEY = 'termwise.sessionKey';
export const SESSION_HEADER = 'X-Termwise';

export type SignInProblem = 'none' | 'used-link' | 'no-session';

/** Reads the key the sign-in redirect left in the fragment, and removes it from the address bar. */
export function captureSessionKey(): SignInProblem {
  const hash = window.location.hash;
  const fresh = /^#session=([0-9a-f]{64})$/.exec(hash)?.[1];
  if (fresh) {
    window.localStorage.setItem(STORAGE_KEY, fresh);
    window.history.replaceState(null, '', window.location.pathname);
    return 'none';
  }
  if (hash === '#signin=used') {
    window.history.replaceState(null, '', window.location.pathname);
    return 'used-link';
  }
  return sessionKey() === null ? 'no-session' : 'none';
}

export function sessionKey(): string | null {
  return window.localStorage.getItem(STORAGE_KEY);
}

export function forgetSessionKey(): void {
  window.localStorage.removeItem(STORAGE_KEY);
}
