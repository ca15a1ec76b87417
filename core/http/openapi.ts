import { z } from 'zod';
import { servedHandlers } from '../handlers';
import { VERSION } from '../version';
import { ROUTES, type RouteSpec } from './routes';
import { PASSWORD_LENGTH } from '../people';
import { DEPARTMENT_HEADER } from '../domain/session-wire';

const ERROR_RESPONSE = {
  description: 'Error',
  content: { 'application/json': { schema: { type: 'object', properties: { detail: { type: 'string' } }, required: ['detail'] } } },
};

/** The operations a server runs by name (/rpc): the served table's (the desktop app's own are in a table of their own). */
export function servedOperations(): string[] {
  return Object.keys(servedHandlers);
}

/** The department a call acts in, for the registrar (everyone else acts in their own). */
const DEPARTMENT_PARAMETER = {
  name: DEPARTMENT_HEADER,
  in: 'header',
  required: false,
  description: "The registrar's choice of department (its code or id); the query parameter department does the same. Others act in their own department.",
  schema: { type: 'string' },
};

/** One REST route's operation: its input (path, query, JSON or form), its answers and who may call it. */
function routeOperation(route: RouteSpec): Record<string, unknown> {
  const h = servedHandlers[route.operation];
  const schema = z.toJSONSchema(h.input, { io: 'input', unrepresentable: 'any' }) as { properties?: Record<string, unknown>; required?: string[] };
  const operation: Record<string, unknown> = {
    operationId: route.operation,
    summary: h.summary,
    tags: [route.tag],
    security: route.public ? [] : [{ bearer: [] }],
    responses: {
      '200': route.file
        ? { description: 'A file', content: { 'application/octet-stream': {} } }
        : { description: 'Success', content: { 'application/json': {} } },
      '400': ERROR_RESPONSE,
      ...(route.public ? {} : { '401': ERROR_RESPONSE, '403': ERROR_RESPONSE, '404': ERROR_RESPONSE }),
      '422': ERROR_RESPONSE,
      '503': ERROR_RESPONSE,
    },
  };
  const pathParams = [...route.path.matchAll(/:([a-z_]+)/g)].map((m) => m[1] as string);
  const parameters: unknown[] = pathParams.map((name) => ({ name, in: 'path', required: true, schema: { type: 'integer' } }));
  if (!route.public) parameters.push(DEPARTMENT_PARAMETER);
  if (route.input === 'query') {
    for (const [name, s] of Object.entries(schema.properties ?? {}))
      parameters.push({ name, in: 'query', required: schema.required?.includes(name) ?? false, schema: s });
  }
  if (parameters.length > 0) operation.parameters = parameters;
  if (route.input === 'json') {
    const properties = { ...(schema.properties ?? {}) };
    for (const p of pathParams) delete properties[p];
    operation.requestBody = {
      required: true,
      content: { 'application/json': { schema: { ...schema, properties, required: (schema.required ?? []).filter((r) => !pathParams.includes(r)) } } },
    };
  }
  if (route.input === 'multipart') {
    const properties: Record<string, unknown> = { file: { type: 'string', format: 'binary' } };
    for (const [name, s] of Object.entries(schema.properties ?? {})) if (name !== 'file') properties[name] = s;
    operation.requestBody = { required: true, content: { 'multipart/form-data': { schema: { type: 'object', properties, required: ['file'] } } } };
  }
  return operation;
}

/** The page's transport (/rpc) and the change stream (/events). */
function transportPaths(): Record<string, Record<string, unknown>> {
  return {
    '/rpc/{operation}': {
      post: {
        operationId: 'rpc',
        summary:
          'The app page\'s transport: runs one core operation by name, with the same input schema, checks and errors as its REST route. Body: the operation\'s input as JSON, or multipart/form-data with the file in "file".',
        tags: ['system'],
        security: [{ bearer: [] }, { session: [] }],
        parameters: [{ name: 'operation', in: 'path', required: true, schema: { type: 'string', enum: servedOperations() } }],
        requestBody: {
          required: false,
          content: {
            'application/json': { schema: { type: 'object' } },
            'multipart/form-data': { schema: { type: 'object', properties: { file: { type: 'string', format: 'binary' } } } },
          },
        },
        responses: {
          '200': { description: "The operation's result", content: { 'application/json': {} } },
          '400': ERROR_RESPONSE,
          '401': ERROR_RESPONSE,
          '403': ERROR_RESPONSE,
          '404': ERROR_RESPONSE,
          '422': ERROR_RESPONSE,
        },
      },
    },
    '/events': {
      get: {
        summary: 'Progress events (training, imports) as Server-Sent Events',
        tags: ['system'],
        security: [{ bearer: [] }, { session: [] }],
        responses: { '200': { description: 'text/event-stream' }, '401': ERROR_RESPONSE },
      },
    },
  };
}

/** Signing in: a script's personal token, the page's session, and signing out. */
function sessionPaths(): Record<string, Record<string, unknown>> {
  const credentials = {
    type: 'object',
    required: ['login', 'password'],
    properties: { login: { type: 'string', maxLength: 80 }, password: { type: 'string', minLength: 1, maxLength: PASSWORD_LENGTH.max } },
  };
  const signInResponses = {
    '400': ERROR_RESPONSE,
    '401': ERROR_RESPONSE,
    '422': ERROR_RESPONSE,
    '429': { ...ERROR_RESPONSE, description: 'Too many attempts from this address, or the account is locked for a while (Retry-After)' },
  };
  return {
    '/session/token': {
      post: {
        operationId: 'session-token',
        summary:
          "A personal token for a script, by a person's login and password (a campus server's people): it acts as the person until revoked in Settings → My tokens. Bounded per address and per account.",
        tags: ['system'],
        security: [],
        requestBody: {
          required: true,
          content: {
            'application/json': {
              schema: {
                ...credentials,
                required: ['login', 'password', 'label'],
                properties: { ...credentials.properties, label: { type: 'string', maxLength: 80 } },
              },
            },
          },
        },
        responses: { '200': { description: 'The token, shown this once, with its id and label', content: { 'application/json': {} } }, ...signInResponses },
      },
    },
    '/session/signin': {
      post: {
        operationId: 'session-signin',
        summary:
          "The app page's sign-in by login and password: sets the session cookie and answers the session key (only from the server's own page or an allowed origin)",
        tags: ['system'],
        security: [],
        requestBody: { required: true, content: { 'application/json': { schema: credentials } } },
        responses: {
          '200': { description: 'The session key, role and department', content: { 'application/json': {} } },
          '403': ERROR_RESPONSE,
          ...signInResponses,
        },
      },
    },
    '/session/logout': {
      post: {
        operationId: 'session-logout',
        summary: "Ends the app page's session",
        tags: ['system'],
        security: [{ session: [] }],
        responses: { '200': { description: 'Signed out' } },
      },
    },
  };
}

let builtDocument: Record<string, unknown> | undefined;

/**
 * The OpenAPI document, built when first asked and kept: it depends only on the route table, and
 * building it (every route's schemas turned into JSON Schema) took half of a server's start.
 */
export function openApiDocument(): Record<string, unknown> {
  return (builtDocument ??= buildOpenApi());
}

/** OpenAPI 3.1 description of every route, generated from the handlers' own input schemas. */
function buildOpenApi(): Record<string, unknown> {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const route of ROUTES) {
    const openPath = route.path.replace(/:([a-z_]+)/g, '{$1}');
    paths[openPath] = { ...(paths[openPath] ?? {}), [route.method.toLowerCase()]: routeOperation(route) };
  }
  Object.assign(paths, transportPaths(), sessionPaths());
  paths['/openapi.json'] = { get: { summary: 'This document', security: [], responses: { '200': { description: 'OpenAPI document' } } } };
  return {
    openapi: '3.1.0',
    info: {
      title: 'Termwise REST API',
      version: VERSION,
      description:
        "The REST API of Termwise. Every route but /health, /openapi.json and sign-in needs \"Authorization: Bearer <token>\" (the installation's token, which acts as the registrar, or a person's personal token) or the app page's browser session. A call acts in the caller's department; the registrar names another with the X-Termwise-Department header or ?department=.",
    },
    servers: [{ url: 'http://127.0.0.1:4610' }],
    components: {
      securitySchemes: {
        bearer: { type: 'http', scheme: 'bearer' },
        session: {
          type: 'apiKey',
          in: 'header',
          name: 'X-Termwise',
          description: "The app page only: the session key given at sign-in, with the HttpOnly session cookie, from the server's own origin",
        },
      },
    },
    paths,
  };
}
