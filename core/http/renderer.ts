import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { SIGN_IN_FAILED_FRAGMENT, SIGNED_IN_FRAGMENT } from '../domain/session-wire';
import { reachedOverHttps, sessionCookiePort, type ServerAccess } from './guard';
import { clearedSessionCookieHeader, cookieValue, LOGIN_PARAM, sessionCookieHeader, sessionCookieName, type BrowserSessions } from './session';

/** A browser fetching ahead of the person (omnibox prefetch, speculation rules, link prefetch). */
function isPrefetch(request: FastifyRequest): boolean {
  const purpose = [request.headers['sec-purpose'], request.headers.purpose, request.headers['x-purpose'], request.headers['x-moz']].flat().join(' ');
  return /prefetch|prerender|preview/i.test(purpose);
}

/**
 * Serves the built renderer (headless mode). The page itself holds no data and needs no
 * credentials; `/?login=<nonce>` signs the browser in once (see session.ts) and redirects to the
 * page with the session key in the fragment.
 */
export async function serveRenderer(app: FastifyInstance, dir: string, sessions: BrowserSessions, access: ServerAccess): Promise<void> {
  // Asset names carry a content hash, so browsers may keep them for good.
  await app.register(fastifyStatic, { root: join(dir, 'assets'), prefix: '/assets/', decorateReply: false, immutable: true, maxAge: '365d' });
  const page = (): string => readFileSync(join(dir, 'index.html'), 'utf8');
  const port = (request: FastifyRequest): number | null => sessionCookiePort(request.headers, request.socket.localPort ?? 0, access);
  for (const path of ['/', '/index.html']) {
    app.get(path, async (request, reply) => {
      const nonce = (request.query as Record<string, unknown>)[LOGIN_PARAM];
      // Only a navigation signs in: a HEAD (a link previewer) or a browser's prefetch or prerender of
      // the address being typed or pasted (a GET saying Sec-Purpose or Purpose: prefetch) never uses the
      // link up, or the real visit that follows finds it used.
      if (typeof nonce === 'string' && (request.method === 'HEAD' || isPrefetch(request)))
        return reply.header('cache-control', 'no-store').header('referrer-policy', 'no-referrer').type('text/html; charset=utf-8').send('');
      if (typeof nonce === 'string') {
        const session = await sessions.signIn(nonce.slice(0, 200));
        // No referrer and no caching: the used link must not travel anywhere or be replayed from a cache.
        void reply.header('cache-control', 'no-store').header('referrer-policy', 'no-referrer');
        if (!session) return reply.redirect(`/#${SIGN_IN_FAILED_FRAGMENT}`, 303);
        return reply
          .header('set-cookie', sessionCookieHeader(port(request), session.id, reachedOverHttps(request.headers, access)))
          .redirect(`/#${SIGNED_IN_FRAGMENT}${session.key}`, 303);
      }
      return reply.header('cache-control', 'no-store').header('referrer-policy', 'no-referrer').type('text/html; charset=utf-8').send(page());
    });
  }
  // Signing out ends the session on the server; the guard has already checked it is the page asking.
  app.post('/session/logout', async (request, reply) => {
    await sessions.signOut(cookieValue(request.headers.cookie, sessionCookieName(port(request))));
    return reply.header('set-cookie', clearedSessionCookieHeader(port(request))).send({ status: 'signed_out' });
  });
}
