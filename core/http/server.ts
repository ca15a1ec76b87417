import Fastify, { type FastifyInstance, type FastifyReply, type FastifyRequest } from 'fastify';
import multipart from '@fastify/multipart';
import { CoreError } from '../errors';
import { isJsonText } from '../json-text';
import type { FileResult } from './file-result';
import type { Core } from '../index';
import { errorResponse } from './errors';
import { isLocalHost } from './host';
import { buildOpenApi } from './openapi';
import { ROUTES, type RouteSpec } from './routes';
import { bearerToken, tokensMatch } from './token';

export const MAX_UPLOAD_BYTES = 25 * 1024 * 1024;
export const MAX_JSON_BYTES = 1024 * 1024;

export interface ServerOptions {
  core: Core;
  token: string;
  /** Extra plug-ins, e.g. the renderer's static page; registered after the API. */
  extend?: (app: FastifyInstance) => Promise<void> | void;
}


export async function buildServer(options: ServerOptions): Promise<FastifyInstance> {
  const { core, token } = options;
  const app = Fastify({ logger: false, bodyLimit: MAX_JSON_BYTES, routerOptions: { ignoreTrailingSlash: true } });
  await app.register(multipart, { limits: { fileSize: MAX_UPLOAD_BYTES, files: 1, fields: 20, parts: 25 } });

  app.addHook('onRequest', async (request, reply) => {
    if (!isLocalHost(request.headers.host)) {
      return reply.code(421).send({ detail: `Requests must be addressed to localhost, not "${request.headers.host ?? ''}"` });
    }
    const route = request.routeOptions.config as { public?: boolean } | undefined;
    if (route?.public) return undefined;
    if (!isApiPath(request.url)) return undefined;
    const given = bearerToken(request.headers.authorization);
    if (given === null || !tokensMatch(given, token)) {
      return reply.code(401).header('www-authenticate', 'Bearer').send({ detail: 'Missing or wrong API token: send "Authorization: Bearer <token>"' });
    }
    return undefined;
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
      config: { public: route.public ?? false },
      handler: async (request, reply) => answer(core, route, request, reply),
    });
  }
  const openApi = buildOpenApi();
  app.get('/openapi.json', { config: { public: true } }, (_request, reply) => reply.send(openApi));

  await options.extend?.(app);
  return app;
}

const API_PREFIXES = ['/data', '/predict', '/scheduler', '/dashboard', '/events', '/session'];

function isApiPath(url: string): boolean {
  const path = url.split('?')[0] ?? '';
  return API_PREFIXES.some((p) => path === p || path.startsWith(`${p}/`));
}

async function answer(core: Core, route: RouteSpec, request: FastifyRequest, reply: FastifyReply): Promise<unknown> {
  const args = { ...(await gatherInput(route, request)), ...(request.params as Record<string, string>) };
  const result = await core.runUnchecked(route.operation, args);
  if (route.file) {
    const file = result as FileResult;
    return reply
      .header('content-type', file.contentType)
      .header('content-disposition', `attachment; filename=${file.filename}`)
      .send(Buffer.from(file.content.buffer, file.content.byteOffset, file.content.byteLength));
  }
  if (isJsonText(result)) return reply.type('application/json; charset=utf-8').send(result.jsonText);
  return result;
}

async function gatherInput(route: RouteSpec, request: FastifyRequest): Promise<Record<string, unknown>> {
  switch (route.input) {
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
