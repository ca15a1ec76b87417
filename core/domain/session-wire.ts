/**
 * How the page served in headless mode and the server agree on a browser session (see
 * core/http/session.ts): the sign-in redirect's fragments, and where each call carries the key.
 */
export const SESSION_HEADER = 'X-Termwise';
/** /events cannot set headers (EventSource): it takes the key as this query parameter instead. */
export const SESSION_KEY_PARAM = 'session_key';
/** `/#session=<key>`: a successful sign-in; the key is 64 hex characters. */
export const SIGNED_IN_FRAGMENT = 'session=';
/** `/#signin=used`: the sign-in link was already used or has expired. */
export const SIGN_IN_FAILED_FRAGMENT = 'signin=used';
/**
 * On a 401 to the page: why it is signed out. `account` when its person may no longer sign in (the
 * registrar disabled them), `password` when the registrar set a new password, `access` when they
 * changed the person's role or department, `session` when the session itself ended (signed out, expired).
 */
export const SIGNED_OUT_HEADER = 'x-termwise-signed-out';
export const SIGNED_OUT_REASONS = ['account', 'password', 'access', 'session'] as const;
export type SignedOutReason = (typeof SIGNED_OUT_REASONS)[number];
/** The event an event stream sends before it ends because its session did: the page asks why at once. */
export const SESSION_ENDED_EVENT = 'session-ended';
/** The header a registrar's call names the department it acts in with (its code or id). */
export const DEPARTMENT_HEADER = 'x-termwise-department';
