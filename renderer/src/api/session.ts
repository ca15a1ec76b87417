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
/** The registrar's latest choice in any tab: where a new tab starts. */
const LAST_DEPARTMENT_KEY = 'termwise.department.last';

/**
 * The department the registrar chose to act in (its code), sent with every call; null: their own.
 * Kept per tab (sessionStorage): another tab's choice never redirects this tab's writes. A new tab
 * starts in the latest choice made in any tab, not back in the built-in department.
 */
export function actingDepartment(): string | null {
  const mine = window.sessionStorage.getItem(DEPARTMENT_KEY);
  if (mine !== null) return mine;
  const last = window.localStorage.getItem(LAST_DEPARTMENT_KEY);
  if (last !== null) window.sessionStorage.setItem(DEPARTMENT_KEY, last);
  return last;
}

export function chooseDepartment(code: string | null): void {
  if (code === null) {
    window.sessionStorage.removeItem(DEPARTMENT_KEY);
    window.localStorage.removeItem(LAST_DEPARTMENT_KEY);
  } else {
    window.sessionStorage.setItem(DEPARTMENT_KEY, code);
    window.localStorage.setItem(LAST_DEPARTMENT_KEY, code);
  }
}
