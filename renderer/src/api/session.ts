/**
 * The browser session of the page served by `npm run serve` (headless mode). Signing in with the
 * one-time link redirects here with the session key in the fragment; the key is kept in this
 * origin's storage (other local ports cannot read it) and sent in the X-Termwise header of every
 * call, next to the HttpOnly session cookie. See core/http/session.ts.
 */
import { SIGN_IN_FAILED_FRAGMENT, SIGNED_IN_FRAGMENT } from '../../../core/domain/session-wire';

const STORAGE_KEY = 'termwise.sessionKey';

export type SignInProblem = 'none' | 'used-link' | 'no-session';

/** Reads the key the sign-in redirect left in the fragment, and removes it from the address bar. */
export function captureSessionKey(): SignInProblem {
  const hash = window.location.hash;
  const fresh = hash.startsWith(`#${SIGNED_IN_FRAGMENT}`) ? /^[0-9a-f]{64}$/.exec(hash.slice(SIGNED_IN_FRAGMENT.length + 1))?.[0] : undefined;
  if (fresh) {
    window.localStorage.setItem(STORAGE_KEY, fresh);
    chooseDepartment(null);
    window.history.replaceState(null, '', window.location.pathname);
    return 'none';
  }
  if (hash === `#${SIGN_IN_FAILED_FRAGMENT}`) {
    window.history.replaceState(null, '', window.location.pathname);
    return 'used-link';
  }
  return sessionKey() === null ? 'no-session' : 'none';
}

export function sessionKey(): string | null {
  return window.localStorage.getItem(STORAGE_KEY);
}

export function keepSessionKey(key: string): void {
  window.localStorage.setItem(STORAGE_KEY, key);
}

export function forgetSession(): void {
  window.localStorage.removeItem(STORAGE_KEY);
  chooseDepartment(null);
}

const DEPARTMENT_KEY = 'termwise.department';

/**
 * The department the registrar chose to act in (its code), sent with every call; null: their own.
 * Kept per tab (sessionStorage): another tab's choice never redirects this tab's writes.
 */
export function actingDepartment(): string | null {
  return window.sessionStorage.getItem(DEPARTMENT_KEY);
}

export function chooseDepartment(code: string | null): void {
  if (code === null) window.sessionStorage.removeItem(DEPARTMENT_KEY);
  else window.sessionStorage.setItem(DEPARTMENT_KEY, code);
}
