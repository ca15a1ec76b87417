import { createHmac } from 'node:crypto';
import { tokensMatch } from './token';

/**
 * The renderer page served by `npm run serve` authenticates with an HttpOnly, SameSite=Strict
 * cookie set when the page is loaded, so nobody pastes the token; scripts keep the bearer token.
 * The cookie value is derived from the API token: regenerating the token ends old sessions.
 */
export const SESSION_COOKIE = 'termwise_session';

export function sessionValue(apiToken: string): string {
  return createHmac('sha256', apiToken).update('termwise renderer session').digest('hex');
}

export function sessionCookieHeader(apiToken: string): string {
  return `${SESSION_COOKIE}=${sessionValue(apiToken)}; HttpOnly; SameSite=Strict; Path=/`;
}

export function cookieValue(header: string | undefined, name: string): string | null {
  if (!header) return null;
  for (const part of header.split(';')) {
    const [key, ...rest] = part.trim().split('=');
    if (key === name) return rest.join('=');
  }
  return null;
}

export function hasValidSession(cookieHeader: string | undefined, apiToken: string): boolean {
  const given = cookieValue(cookieHeader, SESSION_COOKIE);
  return given !== null && tokensMatch(given, sessionValue(apiToken));
}
