import { DEPARTMENT_HEADER, SESSION_ENDED_EVENT, SIGNED_OUT_HEADER, type SignedOutReason } from '../domain/session-wire';
import Fastify, { type FastifyInstance, type FastifyReply, type FastifyRequest } from 'fastify';
import multipart from '@fastify/multipart';
import { CoreError } from '../domain/errors';
import { isJsonText } from '../domain/json-text';
import type { FileResult } from '../domain/file-result';
import type { Core } from '../index';
import { errorResponse } from './errors';
import { openApiDocument } from './openapi';
import { ROUTES, type RouteInput, type RouteSpec } from './routes';
import { guardRequest, LOCAL_ONLY, pathOf, SESSION_ENDED, sessionCookiePort, type GuardDecision, type ServerAccess } from './guard';
import type { Actor } from '../domain/people';
import { serveSignIn, SIGN_IN_RATE } from './sign-in';
import { eventFor } from '../events';
import { cookieValue, sessionCookieName, type BrowserSessions } from './session';
import type { SessionCheck } from '../people';
import type { Caller } from '../context';
import type { Call } from '../registry';
import { echo, parseBoundedJson, wellFormed } from '../domain/bounds';

export const MAX_UPLOAD_BYTES = 25 * 1024 * 1024;
export const MAX_JSON_BYTES = 1024 * 1024;
/** A form field of an upload (the import's roles, a term): a few hundred bytes in use. */
export const MULTIPART_FIELD_BYTES = 10_000;

export interface ServerOptions {
  core: Core;
  /** The API token, or a function giving the current one (it can be regenerated). */
  token: string | (() => string);
  /** Sessions of the app page served to a browser (headless mode); none without a page. */
  sessions?: BrowserSessions;
  /** Extra plug-ins, e.g. the renderer's static page; registered after the API. */
  extend?: (app: FastifyInstance) => Promise<void> | void;
  /** Host names and page origins accepted beyond localhost (a campus server); none on a laptop. */
  access?: ServerAccess;
  /** Sign-in attempts one address may make (SIGN_IN_RATE unless given). */
  signInRate?: { attempts: number; windowMs: number };
  /** The proxies whose X-Forwarded-For names the client (a campus server behind one); none by default. */
  trustedProxies?: readonly string[];
}

export async function buildServer(options: ServerOptions): Promise<FastifyInstance> {
  const { core } = options;
  const given = options.token;
  const token = typeof given === 'string' ? () => given : given;
  const sessions = options.sessions ?? null;
  const access = options.access ?? LOCAL_ONLY;
  const app = await bareServer(options.trustedProxies);

  app.addHook('onRequest', async (request, reply) => {
    const decision = guardRequest(
      { method: request.method, url: request.url, headers: request.headers, localPort: request.socket.localPort ?? 0 },
      token(),
      sessions !== null,
      access,
    );
    if (decision.allow === false) {
      if (decision.status === 401) void reply.header('www-authenticate', 'Bearer');
      return reply.code(decision.status).send({ detail: decision.detail });
    }
    const who = await whoCalls(core, decision);
    if (typeof who === 'string' || who === null) {
      void reply.header('www-authenticate', 'Bearer');
      if (decision.allow === 'session' && who !== null) void reply.header(SIGNED_OUT_HEADER, SIGNED_OUT_BECAUSE[who]);
      return reply.code(401).send({ detail: who === null ? TOKEN_REFUSED : SIGNED_OUT_WORDS[who] });
    }
    if (who.caller !== null && who.actor !== null)
      callers.set(request, {
        caller: who.caller,
        actor: who.actor,
        current: async () => {
          const now = await whoCalls(core, decision);
          return typeof now === 'object' && now !== null ? now.actor : null;
        },
      });
    return undefined;
  });

  app.setErrorHandler((error, _request, reply) => {
    const { status, body } = errorResponse(error);
    if (status >= 500) console.error(error);
    return reply.code(status).send(body);
  });
  app.setNotFoundHandler((request, reply) => reply.code(404).send({ detail: `No such endpoint: ${request.method} ${echo(pathOf(request.url), 200)}` }));

  for (const route of ROUTES) {
    app.route({
      method: route.method,
      url: route.path,
      handler: async (request, reply) => answer(core, route, request, reply),
    });
  }
  app.get('/openapi.json', (_request, reply) => reply.send(openApiDocument()));

  // The renderer's transport: any operation by name, through the same runner as the REST routes.
  app.post('/rpc/:operation', async (request, reply) => {
    const { operation } = request.params as { operation: string };
    // The caller's role is checked before an upload's form is read (a JSON body is parsed already, bounded).
    if (request.isMultipart()) core.refuseBeforeInput(operation, callOf(request));
    const args = request.isMultipart() ? await readMultipart(request) : await gatherInput('json', request);
    return send(reply, await core.runUnchecked(operation, args, callOf(request)), false);
  });

  serveEvents(app, core, sessions, access, token);

  serveSignIn(app, core, sessions, access, options.signInRate ?? SIGN_IN_RATE);
  await options.extend?.(app);
  return app;
}

/**
 * The HTTP server before any route: bounded bodies (JSON in size and depth, uploads in size and
 * parts), and the router's and the HTTP parser's own refusals answered in words.
 */
async function bareServer(trustedProxies: readonly string[] | undefined): Promise<FastifyInstance> {
  const app = Fastify({
    logger: false,
    bodyLimit: MAX_JSON_BYTES,
    // Behind a reverse proxy every request comes from the proxy: sign-in attempts are counted per client only when its proxy is trusted.
    ...(trustedProxies && trustedProxies.length > 0 ? { trustProxy: [...trustedProxies] } : {}),
    routerOptions: { ignoreTrailingSlash: true },
    // The router's own refusals answer like every other error: {"detail"}, never echoing a long address.
    frameworkErrors: (error, request, reply: FastifyReply) => {
      const tooLong = error.code === 'FST_ERR_MAX_PARAM_LENGTH';
      const where = echo(pathOf(request.url), 100);
      void reply
        .code(tooLong ? 414 : 400)
        .send({ detail: tooLong ? `The address is too long: ${where}` : `The address is not valid (a %-escape that is not UTF-8): ${where}` });
    },
    clientErrorHandler: (error, socket) => {
      const status = (error as { code?: string }).code === 'HPE_HEADER_OVERFLOW' ? 431 : 400;
      const body = JSON.stringify({ detail: status === 431 ? 'The request headers are too large' : 'The request is not valid HTTP' });
      if (socket.writable)
        socket.end(
          `HTTP/1.1 ${status} ${status === 431 ? 'Request Header Fields Too Large' : 'Bad Request'}\r\ncontent-type: application/json\r\ncontent-length: ${Buffer.byteLength(body)}\r\nconnection: close\r\n\r\n${body}`,
        );
      else socket.destroy();
    },
  });
  await app.register(multipart, {
    limits: { fileSize: MAX_UPLOAD_BYTES, files: 1, fields: 20, fieldSize: MULTIPART_FIELD_BYTES, parts: 25, headerPairs: 100 },
  });
  // JSON bodies: bounded in size (bodyLimit) and nesting depth before anything walks them.
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (_request, body, done) => {
    try {
      const text = body as string;
      done(null, text.trim() === '' ? undefined : parseBoundedJson(text, 'The request body'));
    } catch (error) {
      done(error as Error, undefined);
    }
  });

  return app;
}

/**
 * Progress and change events (training, imports, writes) as Server-Sent Events, for as long as the
 * caller may read them: a browser's stream ends with its session (sign-out, expiry, a new token), a
 * script's with its token.
 */
function serveEvents(app: FastifyInstance, core: Core, sessions: BrowserSessions | null, access: ServerAccess, token: () => string): void {
  // Open streams end when the server closes (a stream is never idle, so closing would wait for it): pages reconnect to the next server.
  const open = new Set<() => void>();
  app.addHook('preClose', (done) => {
    for (const stop of [...open]) stop();
    done();
  });
  app.get('/events', (request, reply) => {
    const { caller, actor: opened, current } = whoOf(request);
    let actor = opened;
    const sessionId =
      caller === 'browser'
        ? cookieValue(request.headers.cookie, sessionCookieName(sessionCookiePort(request.headers, request.socket.localPort ?? 0, access)))
        : null;
    const tokenAtStart = token();
    // A browser's session is asked of the store: another process may have ended it.
    const stillAllowed = async (): Promise<boolean> =>
      caller === 'browser' ? sessionId !== null && sessions !== null && (await sessions.isLive(sessionId)) : token() === tokenAtStart;
    reply.hijack();
    reply.raw.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache', connection: 'keep-alive' });
    reply.raw.write(': connected\n\n');
    /** Stops the stream: with `last`, an event written before its end (the page is told its session ended). */
    const stop = (last?: string): void => {
      open.delete(stop);
      unsubscribe();
      stopWatching?.();
      if (!reply.raw.writableEnded) reply.raw.end(last);
    };
    // The page is told its session ended (it asks why at once), rather than reconnecting to a refusal.
    const end = (): void => stop(`event: ${SESSION_ENDED_EVENT}\ndata: {}\n\n`);
    // Events are shown in order, each to the caller as they are when it is shown: a change to people
    // (this caller's role or department, a token revoked, an account disabled) is read again first,
    // so that the stream narrows with a demotion and ends with lost access.
    let shown = Promise.resolve();
    const unsubscribe = core.events.subscribe((event) => {
      shown = shown.then(async () => {
        if (!(await stillAllowed().catch(() => false))) return end();
        if (event.type === 'changed' && event.areas.includes('people') && actor.person !== null) {
          const now = await current().catch(() => null);
          if (now === null) return end();
          actor = now;
        }
        const visible = eventFor(event, actor);
        if (visible && !reply.raw.writableEnded) reply.raw.write(`data: ${JSON.stringify(visible)}\n\n`);
      });
    });
    const stopWatching = sessionId !== null ? sessions?.onEnd(sessionId, end) : undefined;
    open.add(stop);
    request.raw.on('close', () => stop());
  });
}

type SessionRefusal = Extract<SessionCheck, { ok: false }>['reason'];

const TOKEN_REFUSED = 'This personal token is not valid: it was revoked, or its owner can no longer sign in';

/** Why a session lets nobody in, as the page is told (the SIGNED_OUT_HEADER) and in words. */
const SIGNED_OUT_BECAUSE: Record<SessionRefusal, SignedOutReason> = {
  ended: 'session',
  no_access: 'account',
  account_disabled: 'account',
  password_changed: 'password',
  access_changed: 'access',
};
const SIGNED_OUT_WORDS: Record<SessionRefusal, string> = {
  ended: SESSION_ENDED,
  no_access: 'Your account can no longer sign in: ask the registrar',
  account_disabled: 'Your account can no longer sign in: ask the registrar',
  password_changed: 'The registrar set a new password for your account: sign in again with it',
  access_changed: 'The registrar changed your role or department: sign in again',
};

/** Who each authenticated request comes from (set once the guard let it in): the transport and the actor. */
const callers = new WeakMap<FastifyRequest, Who>();

interface Who {
  caller: Caller;
  actor: Actor;
  /** Who the credentials the request came with act for now (a role or department changed since), or null when they let nobody in. */
  current: () => Promise<Actor | null>;
}

/**
 * The guard's decision completed from the store: a personal token names its person; a browser
 * session names its actor (a person read again, so a disabled account or a changed role counts from
 * the next request). Null when the token or the person no longer lets anyone in; 'ended' for a
 * session that has ended or never was, 'no_access' for one whose person may no longer sign in.
 */
async function whoCalls(
  core: Core,
  decision: Exclude<GuardDecision, { allow: false }>,
): Promise<{ caller: Caller | null; actor: Actor | null } | SessionRefusal | null> {
  if (decision.allow === 'token') {
    const actor = await core.identity.actorOfToken(decision.token);
    return actor ? { caller: 'script', actor } : null;
  }
  if (decision.allow === 'session') {
    const session = await core.identity.checkSession(decision.id, decision.key);
    return session.ok ? { caller: 'browser', actor: session.actor } : session.reason;
  }
  return decision;
}

function whoOf(request: FastifyRequest): Who {
  const who = callers.get(request);
  if (!who) throw new CoreError('unauthorized', 'Missing or wrong API token: send "Authorization: Bearer <token>"');
  return who;
}

/** The department a request names: the header, else the `department` query parameter. */
function departmentAsked(request: FastifyRequest): string | undefined {
  const header = request.headers[DEPARTMENT_HEADER];
  const given = (Array.isArray(header) ? header[0] : header) ?? (request.query as Record<string, unknown> | undefined)?.department;
  return typeof given === 'string' && given.trim() !== '' ? given.trim().slice(0, 100) : undefined;
}

function callOf(request: FastifyRequest): Call {
  const { caller, actor } = whoOf(request);
  return { caller, actor, department: departmentAsked(request) };
}

async function answer(core: Core, route: RouteSpec, request: FastifyRequest, reply: FastifyReply): Promise<FastifyReply> {
  // Who may call comes before what they send: a viewer's upload is refused before its form is read.
  if (!route.public) core.refuseBeforeInput(route.operation, callOf(request));
  const { department: _named, ...input } = await gatherInput(route.input, request);
  const args = { ...input, ...(request.params as Record<string, string>) };
  // Public routes (health) answer anyone; every other route has passed the guard with a caller.
  return send(reply, await core.runUnchecked(route.operation, args, route.public ? { caller: 'script' } : callOf(request)), route.file ?? false);
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
      if (typeof body !== 'object' || Array.isArray(body))
        throw new CoreError('validation', 'The request body must be a JSON object', { fields: [{ field: '(body)', message: 'must be a JSON object' }] });
      return body as Record<string, unknown>;
    }
    case 'multipart':
      return readMultipart(request);
  }
}

/** Limits of @fastify/multipart: these are the client's upload being too large (413), not malformed. */
const MULTIPART_SIZE_ERRORS = new Set(['FST_REQ_FILE_TOO_LARGE', 'FST_FILES_LIMIT', 'FST_PARTS_LIMIT', 'FST_FIELDS_LIMIT']);

async function readMultipart(request: FastifyRequest): Promise<Record<string, unknown>> {
  if (!request.isMultipart()) throw new CoreError('invalid', 'Upload the file as multipart/form-data in the field "file"');
  const fields: Record<string, unknown> = {};
  let file: { filename: string; content: Uint8Array } | undefined;
  try {
    for await (const part of request.parts()) {
      if (part.type === 'file') {
        const content = await part.toBuffer();
        if (part.fieldname === 'file') file = { filename: wellFormed(part.filename), content };
      } else if (typeof part.value === 'string') {
        // A form field over its limit arrives cut: refuse it rather than read a truncated value.
        if (part.valueTruncated)
          throw new CoreError(
            'too_large',
            `The form field "${echo(part.fieldname, 40)}" is longer than ${MULTIPART_FIELD_BYTES.toLocaleString('en-US')} bytes`,
          );
        fields[part.fieldname] = wellFormed(part.value);
      }
    }
  } catch (error) {
    if (error instanceof CoreError) throw error;
    const code = (error as { code?: unknown }).code;
    if (typeof code === 'string' && MULTIPART_SIZE_ERRORS.has(code)) throw error;
    const reason = error instanceof Error ? error.message.slice(0, 200) : 'unreadable';
    throw new CoreError('invalid', `The upload is not well-formed multipart/form-data (${reason}); send the file in the field "file"`);
  }
  if (!file) throw new CoreError('invalid', 'No file uploaded: send the file in the multipart field "file"');
  return { ...fields, file };
}
