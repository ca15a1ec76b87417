import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance } from 'fastify';
import { sessionCookieHeader } from './session';

/**
 * Serves the built renderer (headless mode). Loading the page sets the session cookie, so the
 * page can call the API without anyone pasting the token.
 */
export async function serveRenderer(app: FastifyInstance, dir: string, token: () => string): Promise<void> {
  // Asset names carry a content hash, so browsers may keep them for good.
  await app.register(fastifyStatic, { root: join(dir, 'assets'), prefix: '/assets/', decorateReply: false, immutable: true, maxAge: '365d' });
  const page = (): string => readFileSync(join(dir, 'index.html'), 'utf8');
  for (const path of ['/', '/index.html']) {
    app.get(path, (_request, reply) => reply.header('set-cookie', sessionCookieHeader(token())).header('cache-control', 'no-store').type('text/html; charset=utf-8').send(page()));
  }
}
