import Fastify, { type FastifyInstance, type FastifyReply, type FastifyRequest } from 'fastify';
import multipart from '@fastify/multipart';
import { CoreError } from '../errors';
import { isJsonText } from '../json-text';
import type { FileResult } from './file-result';
import type { Core } from '../index';
import { errorResponse } from './errors';
import { isLocalHost } from './host';
import { buildOpenApi } from './openapi';
import { ROUTES, type RouteInput, type RouteSpec } from './routes';
import { bearerToken, tokensMatch } from './token';
import { hasValidSession } from './session';

export const MAX_UPLOAD_BYTES = 25 * 1024 * 1024;
export const MAX_JSON_BYTES = 1024 * 1024;

export interface ServerOptions {
  core: Core;
  /** The API token, or a function giving the current one (it can be regenerated). */
  token: string | (() => string);
  /** Extra plug-ins, e.g. the renderer's static page; registered after the API. */
  extend?: (app: FastifyInstance) => Promise<void> | void;
}


export async function buildServer(options: ServerOptions): Promise<FastifyInstance> {
  const { core } = options;
  const token = typeof options.token === 'string' ? ((fixed: string) => () => fixed)(options.token) : options.token;
  const app = Fastify({ logger: false, bodyLimit: MAX_JSON_BYTES, routerOptions: { ignoreTrailingSlash: true } });
  await app.register(multipart, { limits: { fileSize: MAX_UPLOAD_BYTES, files: 1, fields: 20, parts: 25 } });

  app.addHook('onRequest', async (request, reply) => {
    if (!isLocalHost(request.headers.host)) {
      return reply.code(421).send({ detail: `Requests must be addressed to localhost, not "${request.headers.host ?? ''}"` });
    }
    if (isPublicPath(request.url)) return undefined;
    const given = bearerToken(request.headers.authorization);
    if (given !== null && tokensMatch(given, token())) return undefined;
    if (hasValidSession(request.headers.cookie, token())) {
      const origin = request.headers.origin;
      if (origin !== undefined && origin !== 'null' && !isLocalHost(new URL(origin).host)) return reply.code(403).send({ detail: 'Cross-origin requests are not allowed' });
      return undefined;
    }
    return reply.code(401).header('www-authenticate', 'Bearer').send({ detail: 'Missing or wrong API token: send "Authorization: Bearer <token>"' });
  });

  app.setErrorHandler((error, _request, reply) => {
    const { status, body } = errorResponse(error);
    if (status >= 500) console.error(error);
    return reply.code(status).send(body);
  });
  app.setNotFoundHandler((request, reply) => reply.code(404).send({ detail: `No such endpoint: ${request.method} ${request.url.split('?')[0]}` }));

  for (const route of ROUTES) {
    app.route({
      method: route.method,
      url: route.path,
      handler: async (request, reply) => answer(core, route, request, reply),
    });
  }
  const openApi = buildOpenApi();
  app.get('/openapi.json', (_request, reply) => reply.send(openApi));

  // The renderer's transport: any operation by name, through the same runner as the REST routes.
  app.post('/rpc/:operation', async (request, reply) => {
    const { operation } = request.params as { operation: string };
    const args = request.isMultipart() ? await readMultipart(request) : await gatherInput('json', request);
    return send(reply, await core.runUnchecked(operation, args), false);
  });

  // Progress events (training, imports) as Server-Sent Events.
  app.get('/events', (request, reply) => {
    reply.hijack();
    reply.raw.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache', connection: 'keep-alive' });
    reply.raw.write(': connected\n\n');
    const unsubscribe = core.events.subscribe((event) => reply.raw.write(`data: ${JSON.stringify(event)}\n\n`));
    request.raw.on('close', unsubscribe);
  });

  await options.extend?.(app);
  return app;
}

/** Paths anyone on this machine may read: liveness, the API description and the renderer page. */
const PUBLIC_PATHS = new Set(['/health', '/openapi.json', '/', '/index.html', '/favicon.svg']);

function isPublicPath(url: string): boolean {
  const path = url.split('?')[0] ?? '';
  return PUBLIC_PATHS.has(path) || path.startsWith('/assets/');
}

async function answer(core: Core, route: RouteSpec, request: FastifyRequest, reply: FastifyReply): Promise<FastifyReply> {
  const args = { ...(await gatherInput(route.input, request)), ...(request.params as Record<string, string>) };
  return send(reply, await core.runUnchecked(route.operation, args), route.file ?? false);
}

function isFileResult(value: unknown): value is FileResult {
  return typeof value === 'object' && value !== null && 'contentType' in value && (value as FileResult).content instanceof Uint8Array;
}

function send(reply: FastifyReply, result: unknown, file: boolean): FastifyReply {
  if (file || isFileResult(result)) {
    const f = result as FileResult;
    return reply
      .header('content-type', f.contentType)
      .header('content-disposition', `attachment; filename=${f.filename}`)
      .send(Buffer.from(f.content.buffer, f.content.byteOffset, f.content.byteLength));
  }
  if (isJsonText(result)) return reply.type('application/json; charset=utf-8').send(result.jsonText);
  return reply.send(result);
}

async function gatherInput(input: RouteInput, request: FastifyRequest): Promise<Record<string, unknown>> {
  switch (input) {
    case 'none':
      return {};
    case 'query':
      return { ...(request.query as Record<string, unknown>) };
    case 'json': {
      const body: unknown = request.body;
      if (body === undefined || body === null) return {};
      if (typeof body !== 'object' || Array.isArray(body)) throw new CoreError('validation', 'The request body must be a JSON object', { fields: [{ field: '(body)', message: 'must be a JSON object' }] });
      return body as Record<string, unknown>;
    }
    case 'multipart':
      return readMultipart(request);
  }
}

async function readMultipart(request: FastifyRequest): Promise<Record<string, unknown>> {
  if (!request.isMultipart()) throw new CoreError('invalid', 'Upload the file as multipart/form-data in the field "file"');
  const fields: Record<string, unknown> = {};
  let file: { filename: string; content: Uint8Array } | undefined;
  for await (const part of request.parts()) {
    if (part.type === 'file') {
      const content = await part.toBuffer();
      if (part.fieldname === 'file') file = { filename: part.filename, content };
    } else if (typeof part.value === 'string') fields[part.fieldname] = part.value;
  }
  if (!file) throw new CoreError('invalid', 'No file uploaded: send the file in the multipart field "file"');
  return { ...fields, file };
}
