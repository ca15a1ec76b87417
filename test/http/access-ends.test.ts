import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createCore, type Core } from '../../core/index';
import { testDatabase } from '../helpers/test-store';
import { startApi, type StartedApi } from '../../core/http/start';
import { SIGN_IN_LOCK } from '../../core/people';
import { json } from '../helpers/server';
import { followEvents } from '../helpers/event-stream';

/**
 * Access ends when it should: a new password, a new role or department, and disabling end the
 * person's browser sessions at once (a new password revokes their personal tokens too), each page
 * told why; the registrar lists and revokes anyone's tokens, each revocation recorded; a lockout is
 * announced as a change to people. Through REST, as the page and scripts meet it, on both stores.
 */
let dataDir: string;
let core: Core;
let database: Awaited<ReturnType<typeof testDatabase>>;
let api: StartedApi;
let origin: string;
const TOKEN = 'access-ends-test-token-0123456789abcdef0123';
const PASSWORD = 'a long enough passphrase';

beforeEach(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'termwise-access-'));
  const rendererDir = join(dataDir, 'renderer');
  mkdirSync(join(rendererDir, 'assets'), { recursive: true });
  writeFileSync(join(rendererDir, 'index.html'), '<!doctype html><title>Termwise</title>');
  database = await testDatabase();
  core = await createCore({ dataDir, databaseUrl: database.databaseUrl });
  api = await startApi(core, { port: 0, rendererDir, env: { TERMWISE_API_TOKEN: TOKEN } });
  origin = new URL(api.url).origin;
});
afterEach(async () => {
  await api.close();
  await core.close();
  await database.drop();
  rmSync(dataDir, { recursive: true, force: true });
});

const url = (path: string): string => new URL(path, api.url).href;
const asServer = (path: string, init: RequestInit & { json?: unknown } = {}): Promise<Response> =>
  fetch(url(path), {
    ...init,
    headers: { authorization: `Bearer ${TOKEN}`, ...(init.json === undefined ? {} : { 'content-type': 'application/json' }) },
    ...(init.json === undefined ? {} : { body: JSON.stringify(init.json) }),
  });
const detail = async (response: Response): Promise<string> => (await json<{ detail: string }>(response)).detail;

interface Session {
  cookie: string;
  key: string;
}
const pageHeaders = (s: Session): Record<string, string> => ({ cookie: s.cookie, 'x-termwise': s.key, origin, 'sec-fetch-site': 'same-origin' });

async function addPerson(login: string, role = 'scheduler'): Promise<number> {
  const response = await asServer('/people', {
    method: 'POST',
    json: { login, name: `${login} Person`, role, department_id: role === 'registrar' ? null : 1, password: PASSWORD },
  });
  expect(response.status, await response.clone().text()).toBe(200);
  return (await json<{ id: number }>(response)).id;
}

async function pageSignIn(login: string, password = PASSWORD): Promise<Session> {
  const response = await fetch(url('/session/signin'), {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin, 'sec-fetch-site': 'same-origin' },
    body: JSON.stringify({ login, password }),
  });
  expect(response.status, await response.clone().text()).toBe(200);
  return { cookie: (response.headers.get('set-cookie') ?? '').split(';')[0] ?? '', key: (await json<{ key: string }>(response)).key };
}

async function personalToken(login: string, label: string, password = PASSWORD): Promise<{ id: number; token: string }> {
  const response = await fetch(url('/session/token'), {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ login, password, label }),
  });
  expect(response.status, await response.clone().text()).toBe(200);
  return json<{ id: number; token: string }>(response);
}

const meBySession = (s: Session): Promise<Response> => fetch(url('/me'), { headers: pageHeaders(s) });
const meByToken = (token: string): Promise<Response> => fetch(url('/me'), { headers: { authorization: `Bearer ${token}` } });

interface TokenRow {
  id: number;
  label: string;
  revoked: boolean;
  revoked_at: string | null;
  revoked_by: string | null;
  revoked_because: string | null;
}

describe('a change to a person ends their access as it should', () => {
  it('a new password ends every session of theirs, with the reason, and revokes their tokens, recorded; the new password works', async () => {
    const id = await addPerson('lea');
    const [first, second] = [await pageSignIn('lea'), await pageSignIn('lea')];
    const nightly = await personalToken('lea', 'nightly export');
    const stream = await fetch(url(`/events?session_key=${first.key}`), { headers: { cookie: first.cookie, origin, 'sec-fetch-site': 'same-origin' } });
    expect(stream.status).toBe(200);
    const events = followEvents<{ type: string }>(stream);
    expect((await meBySession(first)).status).toBe(200);
    expect((await meByToken(nightly.token)).status).toBe(200);

    expect((await asServer(`/people/${id}`, { method: 'PATCH', json: { password: 'a brand new passphrase' } })).status).toBe(200);

    for (const session of [first, second]) {
      const refused = await meBySession(session);
      expect(refused.status).toBe(401);
      expect(refused.headers.get('x-termwise-signed-out')).toBe('password');
      expect(await detail(refused)).toMatch(/registrar set a new password/);
    }
    const byToken = await meByToken(nightly.token);
    expect(byToken.status).toBe(401);
    // The open stream ended (the page asks why at once): nothing more reaches it.
    expect(await events.first(() => false)).toBeNull();
    const list = await json<TokenRow[]>(await asServer(`/people/${id}/tokens`));
    expect(list).toHaveLength(1);
    expect(list[0]).toMatchObject({ label: 'nightly export', revoked: true, revoked_by: "the server's API token", revoked_because: 'password_changed' });
    expect(list[0]?.revoked_at).toMatch(/^\d{4}-\d\d-\d\dT/);
    // The old password no longer signs in; the new one does, with a session that works.
    const old = await fetch(url('/session/token'), {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ login: 'lea', password: PASSWORD, label: 'x' }),
    });
    expect(old.status).toBe(401);
    expect((await meBySession(await pageSignIn('lea', 'a brand new passphrase'))).status).toBe(200);
  });

  it('a new role ends their sessions (said so) and keeps their tokens, each held to the new role; a new name ends nothing', async () => {
    const id = await addPerson('sam');
    const session = await pageSignIn('sam');
    const script = await personalToken('sam', 'planner');
    expect((await asServer(`/people/${id}`, { method: 'PATCH', json: { name: 'Sam Renamed' } })).status).toBe(200);
    expect((await meBySession(session)).status).toBe(200);

    expect((await asServer(`/people/${id}`, { method: 'PATCH', json: { role: 'viewer' } })).status).toBe(200);
    const refused = await meBySession(session);
    expect(refused.status).toBe(401);
    expect(refused.headers.get('x-termwise-signed-out')).toBe('access');
    const me = await meByToken(script.token);
    expect(me.status).toBe(200);
    expect((await json<{ role: string }>(me)).role).toBe('viewer');
    const write = await fetch(url('/predict/term-notes'), {
      method: 'POST',
      headers: { authorization: `Bearer ${script.token}`, 'content-type': 'application/json' },
      body: JSON.stringify({}),
    });
    expect(write.status).toBe(403);
  });

  it('disabling ends their sessions for good: enabled again, the old session stays ended and a new sign-in works', async () => {
    const id = await addPerson('dan');
    const session = await pageSignIn('dan');
    expect((await asServer(`/people/${id}`, { method: 'PATCH', json: { disabled: true } })).status).toBe(200);
    const refused = await meBySession(session);
    expect(refused.status).toBe(401);
    expect(refused.headers.get('x-termwise-signed-out')).toBe('account');
    expect((await asServer(`/people/${id}`, { method: 'PATCH', json: { disabled: false } })).status).toBe(200);
    expect((await meBySession(session)).status).toBe(401);
    expect((await meBySession(await pageSignIn('dan'))).status).toBe(200);
  });
});

describe("the registrar and a person's tokens", () => {
  it("lists anyone's tokens and revokes one, recorded with who revoked it; the others keep working", async () => {
    const id = await addPerson('tia');
    const leaked = await personalToken('tia', 'leaked one');
    const kept = await personalToken('tia', 'kept one');
    await addPerson('rana', 'registrar');
    const registrar = await pageSignIn('rana');
    const listed = await fetch(url(`/people/${id}/tokens`), { headers: pageHeaders(registrar) });
    expect(listed.status).toBe(200);
    const rows = await json<TokenRow[]>(listed);
    expect(rows.map((t) => [t.label, t.revoked])).toEqual([
      ['leaked one', false],
      ['kept one', false],
    ]);
    expect(JSON.stringify(rows)).not.toContain(leaked.token);

    const revoked = await fetch(url(`/people/${id}/tokens/${leaked.id}`), { method: 'DELETE', headers: pageHeaders(registrar) });
    expect(revoked.status, await revoked.clone().text()).toBe(200);
    expect((await meByToken(leaked.token)).status).toBe(401);
    expect((await meByToken(kept.token)).status).toBe(200);
    const after = await json<TokenRow[]>(await asServer(`/people/${id}/tokens`));
    expect(after.find((t) => t.id === leaked.id)).toMatchObject({ revoked: true, revoked_by: 'rana Person', revoked_because: 'revoked' });
    // Twice, or a token of someone else under this person: nothing to revoke.
    expect((await asServer(`/people/${id}/tokens/${leaked.id}`, { method: 'DELETE' })).status).toBe(404);
    const other = await addPerson('ola');
    expect((await asServer(`/people/${other}/tokens/${kept.id}`, { method: 'DELETE' })).status).toBe(404);
    expect((await meByToken(kept.token)).status).toBe(200);
    expect((await asServer('/people/9999/tokens')).status).toBe(404);
  });

  it("is the registrar's alone: a scheduler can neither list nor revoke another's tokens", async () => {
    const id = await addPerson('una');
    const token = await personalToken('una', 'script');
    await addPerson('sid');
    const scheduler = await personalToken('sid', 'mine');
    const as = { authorization: `Bearer ${scheduler.token}` };
    expect((await fetch(url(`/people/${id}/tokens`), { headers: as })).status).toBe(403);
    expect((await fetch(url(`/people/${id}/tokens/${token.id}`), { method: 'DELETE', headers: as })).status).toBe(403);
    expect((await meByToken(token.token)).status).toBe(200);
  });
});

describe('a lockout of failed sign-ins', () => {
  it("is announced as a change to people, so an open People list reads it again; the person's department hears it, another does not", async () => {
    await addPerson('lou');
    const other = await json<{ id: number }>(await asServer('/departments', { method: 'POST', json: { code: 'PHYS', name: 'Physics' } }));
    const physics = await asServer('/people', {
      method: 'POST',
      json: { login: 'phil', name: 'Phil', role: 'viewer', department_id: other.id, password: PASSWORD },
    });
    expect(physics.status).toBe(200);
    const phil = await personalToken('phil', 'reader');
    const registrarStream = followEvents<{ type: string; areas?: string[] }>(await fetch(url('/events'), { headers: { authorization: `Bearer ${TOKEN}` } }));
    const physicsStream = followEvents<{ type: string; areas?: string[] }>(await fetch(url('/events'), { headers: { authorization: `Bearer ${phil.token}` } }));
    await new Promise((resolve) => setTimeout(resolve, 100));
    for (let i = 0; i <= SIGN_IN_LOCK.after; i++) {
      const refused = await fetch(url('/session/token'), {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ login: 'lou', password: `wrong guess ${i}`, label: 'guess' }),
      });
      expect(refused.status).toBe(401);
    }
    const heard = await Promise.race([
      registrarStream.first((e) => e.type === 'changed' && (e.areas ?? []).includes('people')),
      new Promise((resolve) => setTimeout(() => resolve('nothing'), 3_000)),
    ]);
    expect(heard).toMatchObject({ type: 'changed', areas: ['people'] });
    const people = await json<{ login: string; locked_until: string | null }[]>(await asServer('/people'));
    expect(people.find((p) => p.login === 'lou')?.locked_until).not.toBeNull();
    expect(physicsStream.events.filter((e) => (e.areas ?? []).includes('people'))).toEqual([]);
  });
});
