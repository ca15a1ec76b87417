import { existsSync, readFileSync, statSync, writeFileSync, mkdirSync, mkdtempSync, rmSync, chmodSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createCore, type Core } from '../../core/index';
import { TEST_STORE, testDatabase } from '../helpers/test-store';
import { LOGIN_URL_FILE, startApi, type StartedApi } from '../../core/http/start';
import { BrowserSessions, LOGIN_LINK_LIFETIME_MS } from '../../core/http/session';
import { loadApiToken } from '../../core/http/token';
import { identityOf } from '../../core/people';
import { json } from '../helpers/server';

let dataDir: string;
let core: Core;
let database: Awaited<ReturnType<typeof testDatabase>>;
let api: StartedApi;
let origin: string;

beforeEach(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'termwise-session-'));
  const rendererDir = join(dataDir, 'renderer');
  mkdirSync(join(rendererDir, 'assets'), { recursive: true });
  writeFileSync(join(rendererDir, 'index.html'), '<!doctype html><title>Termwise</title>');
  database = await testDatabase();
  core = await createCore({ dataDir, databaseUrl: database.databaseUrl });
  api = await startApi(core, { port: 0, rendererDir, env: {} });
  origin = new URL(api.url).origin;
});
afterEach(async () => {
  await api.close();
  await core.close();
  await database.drop();
  rmSync(dataDir, { recursive: true, force: true });
});

const url = (path: string): string => new URL(path, api.url).href;
const loginLink = (): string => readFileSync(join(dataDir, LOGIN_URL_FILE), 'utf8').trim();

interface Session {
  cookie: string;
  key: string;
}

async function signIn(link = loginLink()): Promise<Session> {
  const response = await fetch(link, { redirect: 'manual' });
  expect(response.status).toBe(303);
  const cookie = (response.headers.get('set-cookie') ?? '').split(';')[0] ?? '';
  const key = /#session=([0-9a-f]{64})$/.exec(response.headers.get('location') ?? '')?.[1] ?? '';
  expect(cookie).not.toBe('');
  expect(key).not.toBe('');
  return { cookie, key };
}

/** A request as the app's own page sends it. */
const asPage = (s: Session, extra: Record<string, string> = {}): Record<string, string> => ({
  cookie: s.cookie,
  'x-termwise': s.key,
  origin,
  'sec-fetch-site': 'same-origin',
  ...extra,
});

describe('signing in to the app page', () => {
  it('gives a session only for the one-time link, which then stops working and is replaced', async () => {
    const plain = await fetch(url('/'));
    expect(plain.headers.get('set-cookie')).toBeNull();
    const guessed = await fetch(url('/?login=0123456789abcdef'), { redirect: 'manual' });
    expect(guessed.status).toBe(303);
    expect(guessed.headers.get('set-cookie')).toBeNull();
    expect(guessed.headers.get('location')).toBe('/#signin=used');

    const link = loginLink();
    expect(link).toBe(await api.loginUrl());
    expect(statSync(join(dataDir, LOGIN_URL_FILE)).mode & 0o777).toBe(0o600);
    const response = await fetch(link, { redirect: 'manual' });
    const setCookie = response.headers.get('set-cookie') ?? '';
    const port = new URL(api.url).port;
    expect(setCookie).toMatch(new RegExp(`^termwise_session_${port}=[0-9a-f]{64}; HttpOnly; SameSite=Strict; Path=/; Max-Age=86400$`));
    expect(response.headers.get('cache-control')).toBe('no-store');

    const reused = await fetch(link, { redirect: 'manual' });
    expect(reused.headers.get('set-cookie')).toBeNull();
    expect(reused.headers.get('location')).toBe('/#signin=used');
    expect(loginLink()).not.toBe(link);
    await signIn(); // the new link works
  });

  it('opens the API to the page with the cookie and the key together, never with the cookie alone', async () => {
    const s = await signIn();
    expect((await fetch(url('/data/courses'), { headers: asPage(s) })).status).toBe(200);
    expect((await fetch(url('/data/courses'), { headers: { cookie: s.cookie } })).status).toBe(401);
    expect((await fetch(url('/data/courses'), { headers: asPage(s, { 'x-termwise': '1' }) })).status).toBe(401);
    const forgedCookie = s.cookie.replace(/=.*/, `=${'0'.repeat(64)}`);
    expect((await fetch(url('/data/courses'), { headers: asPage(s, { cookie: forgedCookie }) })).status).toBe(401);
    // A cookie replayed by another program with the key of another session.
    const other = await signIn();
    expect((await fetch(url('/data/courses'), { headers: asPage(s, { 'x-termwise': other.key }) })).status).toBe(401);
  });

  it('refuses requests from other sites and other local ports, and writes without an Origin', async () => {
    const s = await signIn();
    const post = (headers: Record<string, string>): Promise<Response> =>
      fetch(url('/rpc/doctors-create'), {
        method: 'POST',
        headers: { ...headers, 'content-type': 'application/json' },
        body: JSON.stringify({ name: 'Dr. Intruder', allowed_courses: [] }),
      });
    for (const bad of [
      'http://127.0.0.1:1',
      'http://localhost:1',
      'null',
      'https://evil.example',
      'http://[::1',
      '::',
      `${origin}.evil.example`,
      `${origin}/`,
    ]) {
      const response = await post(asPage(s, { origin: bad }));
      expect(response.status, bad).toBe(403);
      expect((await json<{ detail: string }>(response)).detail).toMatch(/not allowed/);
    }
    expect((await post(asPage(s, { 'sec-fetch-site': 'same-site' }))).status).toBe(403);
    expect((await post(asPage(s, { 'sec-fetch-site': 'cross-site' }))).status).toBe(403);
    const { origin: _dropped, ...withoutOrigin } = asPage(s);
    expect((await post(withoutOrigin)).status).toBe(403);
    expect((await fetch(url('/scheduler/doctors'), { headers: asPage(s) }).then((r) => json<unknown[]>(r))).length).toBe(0);
    expect((await post(asPage(s))).status).toBe(200);
  });

  it('never shows a browser session the API token, nor lets it regenerate the token', async () => {
    const s = await signIn();
    const info = await json<Record<string, unknown>>(await fetch(url('/settings'), { headers: asPage(s) }));
    expect(info.api_token).toBeNull();
    expect(info.token_source).toBe(join(dataDir, 'api-token'));
    const rpcInfo = await json<Record<string, unknown>>(
      await fetch(url('/rpc/settings-info'), { method: 'POST', headers: { ...asPage(s), 'content-type': 'application/json' }, body: '{}' }),
    );
    expect(rpcInfo.api_token).toBeNull();
    const regenerate = await fetch(url('/rpc/settings-regenerate-token'), {
      method: 'POST',
      headers: { ...asPage(s), 'content-type': 'application/json' },
      body: '{}',
    });
    expect(regenerate.status).toBe(403);
    const token = core.context.access?.token() ?? '';
    const scripted = await json<Record<string, unknown>>(await fetch(url('/settings'), { headers: { authorization: `Bearer ${token}` } }));
    expect(scripted.api_token).toBe(token);
  });

  it('ends a session on sign-out, and every session when the token is regenerated', async () => {
    const a = await signIn();
    const b = await signIn();
    const out = await fetch(url('/session/logout'), { method: 'POST', headers: asPage(a) });
    expect(out.status).toBe(200);
    expect(out.headers.get('set-cookie')).toMatch(/Max-Age=0/);
    expect((await fetch(url('/data/courses'), { headers: asPage(a) })).status).toBe(401);
    expect((await fetch(url('/data/courses'), { headers: asPage(b) })).status).toBe(200);
    const linkBefore = loginLink();
    const token = core.context.access?.token() ?? '';
    expect((await fetch(url('/settings/token'), { method: 'POST', headers: { authorization: `Bearer ${token}` } })).status).toBe(200);
    expect((await fetch(url('/data/courses'), { headers: asPage(b) })).status).toBe(401);
    expect(loginLink()).not.toBe(linkBefore);
  });

  it('streams events to the page with the key as a query parameter only there', async () => {
    const s = await signIn();
    const controller = new AbortController();
    const events = await fetch(url(`/events?session_key=${s.key}`), {
      headers: { cookie: s.cookie, 'sec-fetch-site': 'same-origin' },
      signal: controller.signal,
    });
    expect(events.status).toBe(200);
    controller.abort();
    expect((await fetch(url(`/data/courses?session_key=${s.key}`), { headers: { cookie: s.cookie } })).status).toBe(401);
    expect((await fetch(url('/events'), { headers: { cookie: s.cookie } })).status).toBe(401);
  });
});

describe('what a session and a sign-in link allow, and for how long', () => {
  /** Reads an event stream until `until` is seen or it ends; answers what was read and whether it ended. */
  async function readStream(response: Response, until: RegExp, ms: number): Promise<{ text: string; ended: boolean }> {
    const reader = (response.body as ReadableStream<Uint8Array>).getReader();
    const decoder = new TextDecoder();
    let text = '';
    const deadline = Date.now() + ms;
    while (Date.now() < deadline) {
      const chunk = await Promise.race([reader.read(), new Promise<null>((resolve) => setTimeout(() => resolve(null), deadline - Date.now()))]);
      if (chunk === null) break;
      if (chunk.done) return { text, ended: true };
      text += decoder.decode(chunk.value);
      if (until.test(text)) break;
    }
    await reader.cancel();
    return { text, ended: false };
  }

  it("closes the session's event stream on sign-out: nothing more reaches it", async () => {
    const s = await signIn();
    const events = await fetch(url(`/events?session_key=${s.key}`), { headers: { cookie: s.cookie, 'sec-fetch-site': 'same-origin' } });
    expect(events.status).toBe(200);
    expect((await fetch(url('/session/logout'), { method: 'POST', headers: asPage(s) })).status).toBe(200);
    // A write after sign-out: its "changed" event must not reach the signed-out page.
    const token = core.context.access?.token() ?? '';
    await fetch(url('/scheduler/rooms'), {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'R1', capacity: 10 }),
    });
    const read = await readStream(events, /"changed"/, 1_500);
    expect(read.text).not.toMatch(/"changed"/);
    expect(read.ended).toBe(true);
  });

  it('only a navigation to the sign-in link signs in: a HEAD (a link previewer) or a prefetch of the pasted address leaves it working', async () => {
    const link = loginLink();
    const head = await fetch(link, { method: 'HEAD', redirect: 'manual' });
    expect(head.status).toBe(200);
    expect(head.headers.get('set-cookie')).toBeNull();
    // A browser fetching the address ahead while it is typed or pasted (Chrome sends Sec-Purpose, Firefox Purpose).
    for (const headers of [{ 'sec-purpose': 'prefetch;prerender' }, { purpose: 'prefetch' }] as Record<string, string>[]) {
      const ahead = await fetch(link, { headers, redirect: 'manual' });
      expect(ahead.status).toBe(200);
      expect(ahead.headers.get('set-cookie')).toBeNull();
    }
    expect(loginLink()).toBe(link);
    await signIn(link);
  });

  it('lets a sign-in link expire after 10 minutes and writes a new one', async () => {
    let now = Date.parse('2031-01-06T08:00:00Z');
    const sessions = new BrowserSessions(identityOf(core.context.db, () => new Date(now), core.events));
    const written: string[] = [];
    sessions.onNonceChange((nonce) => written.push(nonce));
    const first = await sessions.loginNonce();
    now += LOGIN_LINK_LIFETIME_MS + 1;
    expect(await sessions.signIn(first)).toBeNull();
    expect(await sessions.loginNonce()).not.toBe(first);
    expect(written).toHaveLength(2);
    expect(await sessions.signIn(written[1] ?? '')).not.toBeNull();
  });
});

describe('the session cookie on a campus server reached over https', () => {
  it('is Secure when the page is reached by an https public address, and not on this computer', async () => {
    const campusDir = mkdtempSync(join(tmpdir(), 'termwise-secure-'));
    const rendererDir = join(campusDir, 'renderer');
    mkdirSync(join(rendererDir, 'assets'), { recursive: true });
    writeFileSync(join(rendererDir, 'index.html'), '<!doctype html><title>Termwise</title>');
    const campusDatabase = await testDatabase();
    const campusCore = await createCore({ dataDir: campusDir, databaseUrl: campusDatabase.databaseUrl });
    const campus = await startApi(campusCore, { port: 0, rendererDir, env: { TERMWISE_PUBLIC_URL: 'https://termwise.campus.example' } });
    try {
      const link = new URL(readFileSync(join(campusDir, LOGIN_URL_FILE), 'utf8').trim());
      // The proxy in front passes the public host on: the browser reached https://termwise.campus.example.
      const viaProxy = await new Promise<string>((resolve, reject) => {
        const request = httpRequest(
          { host: '127.0.0.1', port: Number(new URL(campus.url).port), path: `${link.pathname}${link.search}`, headers: { host: 'termwise.campus.example' } },
          (response) => {
            response.resume();
            resolve(String(response.headers['set-cookie'] ?? ''));
          },
        );
        request.on('error', reject);
        request.end();
      });
      expect(viaProxy).toMatch(/; Secure/);
      const local = await fetch(readFileSync(join(campusDir, LOGIN_URL_FILE), 'utf8').trim(), { redirect: 'manual' });
      expect(local.headers.get('set-cookie') ?? '').not.toMatch(/Secure/);
    } finally {
      await campus.close();
      await campusCore.close();
      await campusDatabase.drop();
      rmSync(campusDir, { recursive: true, force: true });
    }
  });
});

describe('answers to malformed requests', () => {
  it('answers a bad or over-long address with {"detail"}, without echoing it whole', async () => {
    const token = core.context.access?.token() ?? '';
    for (const [path, status] of [
      ['/%', 400],
      [`/predict/runs/${'9'.repeat(15_000)}`, 414],
      [`/scheduler/${'x'.repeat(15_000)}`, 404],
    ] as const) {
      const response = await fetch(url(path), { headers: { authorization: `Bearer ${token}` } });
      expect(response.status, path.slice(0, 40)).toBe(status);
      const text = await response.text();
      expect(Object.keys(JSON.parse(text) as object)).toEqual(['detail']);
      expect(text.length).toBeLessThan(600);
    }
  });

  it('refuses an import "roles" field over 10,000 bytes as too large (413), not as bad JSON', async () => {
    const token = core.context.access?.token() ?? '';
    const form = new FormData();
    form.append('roles', JSON.stringify(Object.fromEntries(Array.from({ length: 600 }, (_, i) => [`Instructor number ${i}`, 'coordinates']))));
    form.append('file', new Blob(['Course,Days,Start Time,Duration\nCSC310,MWF,09:00,50\n']), 'l.csv');
    const response = await fetch(url('/scheduler/import'), { method: 'POST', headers: { authorization: `Bearer ${token}` }, body: form });
    expect(response.status).toBe(413);
    expect((await json<{ detail: string }>(response)).detail).toMatch(/form field "roles" is longer than 10,000 bytes/);
  });
});

describe('files of the data folder', () => {
  it('keeps the data folder 0700, the database and the token 0600, fixing wider modes on start', async () => {
    // On PostgreSQL the data is on the server: the folder holds no database file at all.
    const files = TEST_STORE === 'sqlite' ? ['termwise.db', 'api-token'] : ['api-token'];
    expect(existsSync(join(dataDir, 'termwise.db'))).toBe(TEST_STORE === 'sqlite');
    expect(statSync(dataDir).mode & 0o777).toBe(0o700);
    for (const file of files) expect(statSync(join(dataDir, file)).mode & 0o777).toBe(0o600);
    await api.close();
    await core.close();
    chmodSync(dataDir, 0o755);
    for (const file of files) chmodSync(join(dataDir, file), 0o644);
    const token = readFileSync(join(dataDir, 'api-token'), 'utf8').trim();
    core = await createCore({ dataDir, databaseUrl: database.databaseUrl });
    api = await startApi(core, { port: 0, env: {} });
    expect(statSync(dataDir).mode & 0o777).toBe(0o700);
    for (const file of files) expect(statSync(join(dataDir, file)).mode & 0o777).toBe(0o600);
    expect(core.context.access?.token()).toBe(token);
  });

  it('refuses a TERMWISE_API_TOKEN shorter than 32 characters, saying how to make one', () => {
    expect(() => loadApiToken(dataDir, { TERMWISE_API_TOKEN: 'x' })).toThrow(/at least 32 characters.*openssl rand -hex 32/);
    expect(loadApiToken(dataDir, { TERMWISE_API_TOKEN: 'a'.repeat(32) }).token).toBe('a'.repeat(32));
  });
});
