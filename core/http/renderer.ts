import fastifyStatic from '@fastify/static';
import type { FastifyInstance } from 'fastify';

/** Serves the built renderer page (headless mode) at "/". */
export async function serveRenderer(app: FastifyInstance, dir: string, _token: string): Promise<void> {
  await app.register(fastifyStatic, { root: dir, prefix: '/', index: ['index.html'] });
}
