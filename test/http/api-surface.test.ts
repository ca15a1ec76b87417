import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { request } from 'node:http';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { startTestServer, TEST_TOKEN, json, type TestServer } from '../helpers/server';
import { ROUTES } from '../../core/http/routes';
import { desktopOnlyHandlers, handlers, servedHandlers } from '../../core/handlers';
import type { AnyHandler } from '../../core/registry';
import { followEvents } from '../helpers/event-stream';

let server: TestServer;
beforeEach(async () => {
  server = await startTestServer();
});
afterEach(async () => {
  await server.close();
});

/** A raw request so the Host header can be set freely (fetch forbids it). */
function rawGet(url: string, headers: Record<string, string>): Promise<{ status: number; body: string; headers: Record<string, unknown> }> {
  return new Promise((resolve, reject) => {
    const req = request(url, { headers }, (res) => {
      let body = '';
      res.on('data', (chunk: Buffer) => (body += chunk.toString()));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body, headers: res.headers }));
    });
    req.on('error', reject);
    req.end();
  });
}

describe('API surface', () => {
  it('answers /health without a token', async () => {
    const response = await fetch(`${server.url}/health`);
    expect(response.status).toBe(200);
    expect(await json(response)).toEqual({ status: 'ok', version: expect.any(String) as string });
  });

  it('describes every route in /openapi.json without a token', async () => {
    const response = await fetch(`${server.url}/openapi.json`);
    expect(response.status).toBe(200);
    const doc = await json<{ openapi: string; paths: Record<string, Record<string, { operationId?: string }>> }>(response);
    expect(doc.openapi).toMatch(/^3\./);
    for (const route of ROUTES) {
      const path = route.path.replace(/:([a-z_]+)/g, '{$1}');
      expect(doc.paths[path]?.[route.method.toLowerCase()]?.operationId, `${route.method} ${path}`).toBe(route.operation);
    }
    const upload = doc.paths['/data/upload/offerings']?.post as { requestBody: { content: Record<string, unknown> } };
    expect(Object.keys(upload.requestBody.content)).toEqual(['multipart/form-data']);
    // The app page's transport is documented too, with every operation it may run.
    const rpc = doc.paths['/rpc/{operation}']?.post as { parameters: { name: string; schema: { enum: string[] } }[] };
    expect(rpc.parameters[0]?.schema.enum).toEqual(expect.arrayContaining(ROUTES.map((r) => r.operation)));
    // Signing in, and the department a registrar's call acts in.
    expect(Object.keys(doc.paths['/session/token'] ?? {})).toEqual(['post']);
    expect(Object.keys(doc.paths['/session/signin'] ?? {})).toEqual(['post']);
    const list = doc.paths['/scheduler/']?.get as unknown as { parameters: { name: string; in: string }[] };
    expect(list.parameters).toContainEqual(expect.objectContaining({ name: 'x-termwise-department', in: 'header' }));

    // The REST reference (docs/rest-api.md) lists every route /openapi.json describes.
    const reference = readFileSync(join(process.cwd(), 'docs', 'rest-api.md'), 'utf8');
    const missing = Object.entries(doc.paths).flatMap(([path, methods]) =>
      Object.keys(methods)
        .map((method) => `| ${method.toUpperCase()} | \`${path}\` |`)
        .filter((row) => !reference.includes(row)),
    );
    expect(missing, 'routes missing from docs/rest-api.md').toEqual([]);
  });

  it('refuses API routes without the bearer token or with a wrong one', async () => {
    for (const route of ROUTES.filter((r) => !r.public)) {
      const path = route.path.replace(/:[a-z_]+/g, '1');
      const none = await fetch(`${server.url}${path}`, { method: route.method });
      expect(none.status, `${route.method} ${path}`).toBe(401);
      expect(await json(none)).toEqual({ detail: expect.stringContaining('token') as string });
    }
    const wrong = await fetch(`${server.url}/data/courses`, { headers: { authorization: 'Bearer nope' } });
    expect(wrong.status).toBe(401);
    const almost = await fetch(`${server.url}/data/courses`, { headers: { authorization: `Bearer ${TEST_TOKEN.slice(0, -1)}x` } });
    expect(almost.status).toBe(401);
    const right = await server.api('/data/courses');
    expect(right.status).toBe(200);
  });

  it('refuses requests addressed to another host name (DNS rebinding)', async () => {
    const evil = await rawGet(`${server.url}/data/courses`, { host: 'attacker.example:4610', authorization: `Bearer ${TEST_TOKEN}` });
    expect(evil.status).toBe(421);
    expect(JSON.parse(evil.body)).toEqual({ detail: expect.stringContaining('attacker.example') as string });
    for (const host of ['localhost:4610', '127.0.0.1', '[::1]:9999']) {
      const ok = await rawGet(`${server.url}/health`, { host });
      expect(ok.status, host).toBe(200);
    }
  });

  it('grants no CORS access to other origins', async () => {
    const response = await server.api('/data/courses', { headers: { origin: 'https://evil.example' } });
    expect(response.headers.get('access-control-allow-origin')).toBeNull();
    const preflight = await fetch(`${server.url}/data/courses`, {
      method: 'OPTIONS',
      headers: { origin: 'https://evil.example', 'access-control-request-method': 'GET' },
    });
    expect(preflight.headers.get('access-control-allow-origin')).toBeNull();
  });

  it('answers unknown paths with a JSON 404', async () => {
    const response = await server.api('/data/nothing-here');
    expect(response.status).toBe(404);
    expect(await json(response)).toEqual({ detail: expect.stringContaining('/data/nothing-here') as string });
  });

  it('answers a malformed JSON body with 400 and an oversized one with 413', async () => {
    const bad = await server.api('/scheduler/doctors', { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"name": ' });
    expect(bad.status).toBe(400);
    expect((await json<{ detail: string }>(bad)).detail).toMatch(/JSON/);
    const huge = await server.api('/scheduler/doctors', { method: 'POST', json: { name: 'x'.repeat(2 * 1024 * 1024) } });
    expect(huge.status).toBe(413);
    expect(await json(huge)).toEqual({ detail: expect.any(String) as string });
  });

  it('rejects an upload over 25 MB with 413', async () => {
    const big = new Uint8Array(26 * 1024 * 1024).fill(65);
    const response = await server.upload('/data/upload/offerings', 'big.csv', big);
    expect(response.status).toBe(413);
    expect((await json<{ detail: string }>(response)).detail).toMatch(/25 MB/);
    expect(await json(await server.api('/data/offerings'))).toEqual([]);
  });
});

describe('routes, handlers and change events agree', () => {
  it("gives every handler a REST route (but those of the desktop app's own copy), and every changing route a declaration of what it writes", () => {
    const routed = new Set<string>(ROUTES.map((r) => r.operation));
    const thisComputer = Object.keys(desktopOnlyHandlers);
    expect(thisComputer.sort()).toEqual(['schedule-sync-published', 'schedule-sync-rebase', 'schedule-sync-status']);
    expect(thisComputer.filter((name) => name in servedHandlers)).toEqual([]);
    expect(Object.keys(handlers).filter((name) => !routed.has(name) && !thisComputer.includes(name))).toEqual([]);
    expect(thisComputer.filter((name) => routed.has(name))).toEqual([]);
    // Routes that change nothing although they are not GETs: they read a file, or compute without storing.
    const readOnly = new Set(['import-preview', 'schedule-autofill-start', 'schedule-autofill-campus-start', 'schedule-autofill-cancel']);
    for (const route of ROUTES.filter((r) => r.method !== 'GET' && !readOnly.has(r.operation))) {
      const writes = (handlers[route.operation] as AnyHandler).writes;
      expect(typeof writes === 'function' || writes.length > 0, `${route.method} ${route.path} (${route.operation}) does not say what it writes`).toBe(true);
    }
    for (const route of ROUTES.filter((r) => r.method === 'GET')) expect((handlers[route.operation] as AnyHandler).writes, route.path).toEqual([]);
  });

  it('announces each successful write on /events with what it changed, and nothing for refused writes or dry runs', async () => {
    const controller = new AbortController();
    const stream = await server.api('/events', { signal: controller.signal });
    const followed = followEvents<{ type: string }>(stream);
    const changed = async (): Promise<unknown[]> => {
      await new Promise((r) => setTimeout(r, 150));
      return followed.events.filter((event) => event.type === 'changed');
    };
    await server.upload('/data/upload/courses', 'c.json', JSON.stringify([{ code: 'CSC201', name: 'Programming' }]));
    // Each event names the department whose data changed (the first, here).
    expect(await changed()).toEqual([{ type: 'changed', areas: ['catalog'], department: 1 }]);
    await server.api('/scheduler/', {
      method: 'POST',
      json: { course_code: 'CSC201', section_name: '1', doctor_id: 0, day: 'M', start_time: '09:00', duration_mins: 5000, room: 'A' },
    });
    await server.upload('/data/upload/courses', 'c.json', '{not json');
    expect(await changed()).toHaveLength(1);
    await server.api('/scheduler/', {
      method: 'POST',
      json: { course_code: 'CSC201', section_name: '1', doctor_id: 0, day: 'M', start_time: '09:00', duration_mins: 60, room: 'A' },
    });
    expect((await changed()).at(-1)).toEqual({ type: 'changed', areas: ['timetable'], department: 1 });
    controller.abort();
  });
});
