import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import type { Core } from '../index';
import { CoreError, fieldErrors } from '../domain/errors';
import { boundedText } from '../input-fields';
import { PASSWORD_LENGTH } from '../people';
import { isPageRequest, reachedOverHttps, sessionCookiePort, type ServerAccess } from './guard';
import { sessionCookieHeader, type BrowserSessions } from './session';

/** Sign-in attempts one address may make in a window, whatever the logins: beyond, 429 until it passes (counted in the store). */
export const SIGN_IN_RATE = { attempts: 10, windowMs: 60_000 } as const;

const credentials = z.object({
  login: boundedText(80).trim().min(1, 'give your login'),
  password: z.string({ error: 'must be text' }).min(1, 'give your password').max(PASSWORD_LENGTH.max, `must be at most ${PASSWORD_LENGTH.max} characters`),
});
const tokenRequest = credentials.extend({ label: boundedText(80).trim().min(1, 'name the token (what script uses it)') });

function parsed<T>(schema: z.ZodType<T>, body: unknown): T {
  const result = schema.safeParse(body ?? {});
  if (result.success) return result.data;
  throw fieldErrors(result.error.issues.map((issue) => ({ field: issue.path.join('.') || '(body)', message: issue.message })));
}

/**
 * Signing in with a login and password, for people of a campus server:
 * - `POST /session/signin` from the app page opens a browser session (cookie + key, as the sign-in link does);
 * - `POST /session/token` gives a script a personal token that acts as the person.
 * Both are open to anyone who can reach the server, so both are bounded: SIGN_IN_RATE attempts per
 * address, and an account locks after repeated wrong passwords (see people/service.ts).
 */
export function serveSignIn(
  app: FastifyInstance,
  core: Core,
  sessions: BrowserSessions | null,
  access: ServerAccess,
  rate: { attempts: number; windowMs: number } = SIGN_IN_RATE,
): void {
  const check = async (request: FastifyRequest, reply: FastifyReply, body: { login: string; password: string }) => {
    // Counted in the store: every server process on the database counts an address's attempts together.
    const wait = await core.identity.addressAttempt(request.ip, rate);
    if (wait > 0) {
      void reply.header('retry-after', String(wait));
      throw new CoreError('too_many', `Too many sign-in attempts from this address: wait ${wait} s`);
    }
    const outcome = await core.identity.signIn(body.login, body.password);
    if (!outcome.ok) throw new CoreError('unauthorized', outcome.detail);
    return outcome.actor;
  };

  app.post('/session/signin', async (request, reply) => {
    if (sessions === null) throw new CoreError('not_found', 'This server has no app page to sign in to: scripts ask POST /session/token');
    if (!isPageRequest(request, access)) throw new CoreError('forbidden', 'Sign in from the app page itself');
    const actor = await check(request, reply, parsed(credentials, request.body));
    const session = await sessions.signInAs(actor);
    return reply
      .header('cache-control', 'no-store')
      .header(
        'set-cookie',
        sessionCookieHeader(sessionCookiePort(request.headers, request.socket.localPort ?? 0, access), session.id, reachedOverHttps(request.headers, access)),
      )
      .send({ key: session.key, role: actor.role, department: actor.department });
  });

  app.post('/session/token', async (request, reply) => {
    const input = parsed(tokenRequest, request.body);
    const actor = await check(request, reply, input);
    const created = await core.runUnchecked('tokens-create', { label: input.label }, { caller: 'script', actor });
    return reply.header('cache-control', 'no-store').send(created);
  });
}
