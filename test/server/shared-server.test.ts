import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { createDatabase } from '../helpers/postgres';
import { startServeProcess, type ServeProcess } from '../helpers/serve-process';
import { TEST_SERVER } from '../helpers/server-bundle';
import { syntheticListing } from '../fixtures/synthetic-listing';
import type { ScheduleEntry } from '../../core/timetable/schema';
import { createdOnLaptop } from '../helpers/published-change';
import type { TimetableImportResult } from '../../core/timetable-import/service';
import { SIGN_IN_RATE } from '../../core/http/sign-in';
import { followEvents } from '../helpers/event-stream';

/**
 * A shared server: two `npm run serve` processes on one PostgreSQL database, as a campus runs them
 * behind one address. The rules of the timetable hold across them, a killed process leaves nothing
 * half-written, and a change through one reaches the screens of the other.
 */
const TOKEN = 'shared-server-token-0123456789abcdef0123456789';
let database: { url: string; drop: () => Promise<void> };
let dirs: string[] = [];
let a: ServeProcess;
let b: ServeProcess;

/** The address both processes answer by, as behind a round-robin proxy. */
const PUBLIC = 'campus.termwise.test';
let pageDir: string;

async function startProcess(): Promise<ServeProcess> {
  const dir = mkdtempSync(join(tmpdir(), 'termwise-shared-'));
  dirs.push(dir);
  return startServeProcess(
    dir,
    {
      TERMWISE_DATABASE_URL: database.url,
      TERMWISE_API_TOKEN: TOKEN,
      TERMWISE_PAGE_DIR: pageDir,
      TERMWISE_PUBLIC_URL: `http://${PUBLIC}`,
    },
    TEST_SERVER,
  );
}

beforeAll(async () => {
  database = await createDatabase(inject('postgresAdminUrl'), inject('postgresTemplate'));
  pageDir = mkdtempSync(join(tmpdir(), 'termwise-shared-page-'));
  dirs.push(pageDir);
  mkdirSync(join(pageDir, 'assets'));
  writeFileSync(join(pageDir, 'index.html'), '<!doctype html><title>Termwise</title>');
  [a, b] = await Promise.all([startProcess(), startProcess()]);
}, 60_000);

afterAll(async () => {
  for (const server of [a, b]) server.stop();
  await Promise.all([a.exited, b.exited]);
  await database.drop();
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  dirs = [];
});

const api = (server: ServeProcess, path: string, init: RequestInit & { json?: unknown } = {}): Promise<Response> =>
  fetch(new URL(path.replace(/^\//, ''), server.url), {
    ...init,
    headers: {
      authorization: `Bearer ${TOKEN}`,
      ...(init.json === undefined ? {} : { 'content-type': 'application/json' }),
      ...(init.headers as Record<string, string> | undefined),
    },
    body: init.json === undefined ? init.body : JSON.stringify(init.json),
  });

const post = (server: ServeProcess, path: string, json: unknown): Promise<Response> => api(server, path, { method: 'POST', json });

async function importListing(server: ServeProcess, csv: string): Promise<Response> {
  const form = new FormData();
  form.append('dry_run', 'false');
  form.append('file', new Blob([csv]), 'listing.csv');
  return api(server, '/scheduler/import', { method: 'POST', body: form });
}

const publishedMeeting = (uid: string, course: string, start: string) =>
  createdOnLaptop(uid, { course_code: course, section_name: '1', day: 'MW', start_time: start });

/** The count a query answers (its column `n`). */
const count = async (client: pg.Client, query: string): Promise<number> => (await client.query<{ n: number }>(query)).rows[0]?.n ?? 0;

/**
 * Kills a server process (kill -9) once `writing` counts its write under way, then waits until
 * PostgreSQL has rolled the killed transaction back (its connection gone).
 */
async function killWhileWriting(
  victim: ServeProcess,
  watcher: pg.Client,
  request: Promise<unknown>,
  what: string,
  writing: () => Promise<number>,
): Promise<void> {
  const deadline = Date.now() + 60_000;
  while ((await writing()) === 0) {
    if (Date.now() > deadline) throw new Error(`${what} never started writing`);
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
  victim.child.kill('SIGKILL');
  await victim.exited;
  await request;
  await expect
    .poll(() => count(watcher, `SELECT COUNT(*)::int AS n FROM pg_stat_activity WHERE datname = current_database() AND state = 'idle in transaction'`), {
      timeout: 10_000,
    })
    .toBe(0);
}

const entriesOf = async (server: ServeProcess, year: number, semester: string): Promise<ScheduleEntry[]> =>
  (await (await api(server, `/scheduler/?year=${year}&semester=${semester}`)).json()) as ScheduleEntry[];

/** 50 bookings sent at once, alternating between the two processes. */
async function atOnce(bodies: readonly Record<string, unknown>[]): Promise<{ status: number; detail: string }[]> {
  const responses = await Promise.all(bodies.map((body, i) => post(i % 2 === 0 ? a : b, '/scheduler/', body)));
  return Promise.all(responses.map(async (r) => ({ status: r.status, detail: r.status === 200 ? '' : ((await r.json()) as { detail: string }).detail })));
}

/** A request as a browser sends it through the proxy: addressed to the public name, whichever process answers. */
function viaProxy(
  server: ServeProcess,
  path: string,
  init: { method?: string; headers?: Record<string, string>; body?: string; from?: string } = {},
): Promise<{ status: number; headers: Record<string, string | string[] | undefined>; body: string }> {
  const target = new URL(path.replace(/^\//, ''), server.url);
  return new Promise((resolve, reject) => {
    const request = httpRequest(
      {
        host: target.hostname,
        port: target.port,
        path: target.pathname + target.search,
        method: init.method ?? 'GET',
        headers: { host: PUBLIC, ...init.headers },
        ...(init.from ? { localAddress: init.from } : {}),
      },
      (response) => {
        let body = '';
        response.on('data', (chunk: Buffer) => (body += chunk.toString()));
        response.on('end', () => resolve({ status: response.statusCode ?? 0, headers: response.headers, body }));
      },
    );
    request.on('error', reject);
    request.end(init.body);
  });
}

let clients = 1;
/**
 * Another client's address for a sign-in (127.0.0.2, 127.0.0.3, …: all of 127/8 is this machine): the
 * servers bound each address's sign-in attempts, and a test that signs in must not wait out the
 * attempts of the tests before it (the test of that bound spends 127.0.0.1's).
 */
const freshClient = (): string => `127.0.0.${++clients}`;

/** A script's sign-in for a personal token, from an address of its own (see freshClient), through either process. */
async function tokenFor(server: ServeProcess, login: string, label: string): Promise<string> {
  const made = await viaProxy(server, '/session/token', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ login, password: `${login} password long`, label }),
    from: freshClient(),
  });
  expect(made.status, made.body).toBe(200);
  return (JSON.parse(made.body) as { token: string }).token;
}

/** What the page sends with every API call: the cookie, the key, its own origin. */
const pageHeaders = (session: { cookie: string; key: string }): Record<string, string> => ({
  cookie: session.cookie,
  'x-termwise': session.key,
  origin: `http://${PUBLIC}`,
  'sec-fetch-site': 'same-origin',
});

describe('two server processes behind one address, as a round-robin proxy sends to them', () => {
  it('serve a sign-in link, a browser session and a sign-out made on either process', async () => {
    // Process a's link, used through process b: one cookie for the public address, whatever port answers.
    const link = new URL(readFileSync(join(a.dataDir, 'login-url'), 'utf8').trim());
    const used = await viaProxy(b, `/${link.search}`);
    expect(used.status).toBe(303);
    const cookie = String(used.headers['set-cookie'] ?? '').split(';')[0] ?? '';
    expect(cookie).toMatch(/^termwise_session=[0-9a-f]{64}$/);
    const registrar = { cookie, key: /#session=([0-9a-f]{64})$/.exec(String(used.headers.location))?.[1] ?? '' };
    for (let i = 0; i < 6; i++) expect((await viaProxy(i % 2 === 0 ? a : b, '/data/courses', { headers: pageHeaders(registrar) })).status).toBe(200);
    // The link worked once, on every process.
    for (const server of [a, b]) {
      const again = await viaProxy(server, `/${link.search}`);
      expect(again.headers['set-cookie']).toBeUndefined();
      expect(again.headers.location).toBe('/#signin=used');
    }

    // A person signs in on one process and works on both; signing out on one ends it on both.
    const created = await post(a, '/people', {
      login: 'proxied',
      name: 'Proxied Person',
      role: 'registrar',
      department_id: null,
      password: 'proxied password long',
    });
    expect(created.status).toBe(200);
    const signedIn = await viaProxy(a, '/session/signin', {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: `http://${PUBLIC}`, 'sec-fetch-site': 'same-origin' },
      body: JSON.stringify({ login: 'proxied', password: 'proxied password long' }),
      from: freshClient(),
    });
    expect(signedIn.status).toBe(200);
    const person = { cookie: String(signedIn.headers['set-cookie'] ?? '').split(';')[0] ?? '', key: (JSON.parse(signedIn.body) as { key: string }).key };
    for (let i = 0; i < 4; i++) expect((await viaProxy(i % 2 === 0 ? b : a, '/me', { headers: pageHeaders(person) })).status).toBe(200);
    expect((await viaProxy(b, '/session/logout', { method: 'POST', headers: pageHeaders(person) })).status).toBe(200);
    for (const server of [a, b]) {
      const after = await viaProxy(server, '/data/courses', { headers: pageHeaders(person) });
      expect(after.status).toBe(401);
      expect((JSON.parse(after.body) as { detail: string }).detail).toMatch(/session has ended/);
    }
    // The registrar's session, opened by the link, is untouched.
    expect((await viaProxy(a, '/data/courses', { headers: pageHeaders(registrar) })).status).toBe(200);
  });

  it("keep the registrar's link out of their consoles and name its changes; a new password on one ends the person's session and stream on the other", async () => {
    for (const server of [a, b]) {
      await expect.poll(() => server.output(), { timeout: 5_000 }).toMatch(/Data kept in/);
      expect(server.output()).not.toMatch(/[?&]login=/);
      expect(server.output()).toMatch(/sign-in link is in .*login-url/);
    }
    // Process a's current link. One used through the other process (the test above) is replaced in a's file within seconds.
    const fileLink = (): string => readFileSync(join(a.dataDir, 'login-url'), 'utf8').trim();
    const before = fileLink();
    let used = await viaProxy(a, `/${new URL(before).search}`);
    if (String(used.headers.location).endsWith('signin=used')) {
      await expect.poll(fileLink, { timeout: 10_000 }).not.toBe(before);
      used = await viaProxy(a, `/${new URL(fileLink()).search}`);
    }
    const registrar = {
      cookie: String(used.headers['set-cookie'] ?? '').split(';')[0] ?? '',
      key: /#session=([0-9a-f]{64})$/.exec(String(used.headers.location))?.[1] ?? '',
    };
    const booked = await viaProxy(b, '/scheduler/', {
      method: 'POST',
      headers: { ...pageHeaders(registrar), 'content-type': 'application/json' },
      body: JSON.stringify({ year: 2039, semester: 'Fall', course_code: 'LNK101', section_name: '1', day: 'M', start_time: '09:00', duration_mins: 50 }),
    });
    expect(booked.status, booked.body).toBe(200);
    const history = (await (await api(a, '/scheduler/history?year=2039&semester=Fall')).json()) as { changes: { who: string }[] };
    expect(history.changes.map((change) => change.who)).toEqual(["registrar (the server's sign-in link)"]);

    const created = await post(a, '/people', { login: 'resetme', name: 'Reset Me', role: 'scheduler', department_id: 1, password: 'old password long' });
    const { id } = (await created.json()) as { id: number };
    const signedIn = await viaProxy(b, '/session/signin', {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: `http://${PUBLIC}`, 'sec-fetch-site': 'same-origin' },
      body: JSON.stringify({ login: 'resetme', password: 'old password long' }),
      from: freshClient(),
    });
    expect(signedIn.status, signedIn.body).toBe(200);
    const person = { cookie: String(signedIn.headers['set-cookie'] ?? '').split(';')[0] ?? '', key: (JSON.parse(signedIn.body) as { key: string }).key };
    // fetch cannot name the public host: the stream is opened at b's own address, with the cookie named for its port.
    const local = new URL(b.url);
    const stream = await fetch(new URL(`events?session_key=${person.key}`, b.url), {
      headers: {
        cookie: person.cookie.replace(/^termwise_session=/, `termwise_session_${local.port}=`),
        origin: local.origin,
        'sec-fetch-site': 'same-origin',
      },
    });
    expect(stream.status).toBe(200);
    const followed = followEvents<{ type: string }>(stream);
    expect((await api(a, `/people/${id}`, { method: 'PATCH', json: { password: 'new password long' } })).status).toBe(200);
    for (const server of [a, b]) {
      const after = await viaProxy(server, '/me', { headers: pageHeaders(person) });
      expect(after.status).toBe(401);
      expect(after.headers['x-termwise-signed-out']).toBe('password');
    }
    // The stream on b ended at the change announced from a (nothing more reaches it).
    await expect(Promise.race([followed.first(() => false), new Promise((resolve) => setTimeout(() => resolve('open'), 10_000))])).resolves.toBeNull();
  }, 60_000);

  it('follow, stop and apply an auto-fill draft on the process that did not make it, once', async () => {
    const term = { year: 2037, semester: 'Fall' };
    for (let i = 0; i < 8; i++) {
      const booked = await post(a, '/scheduler/', {
        ...term,
        course_code: `DRF${100 + i}`,
        section_name: '1',
        doctor_id: 0,
        day: i % 2 === 0 ? 'MW' : 'TR',
        start_time: `${String(8 + i).padStart(2, '0')}:00`,
        duration_mins: 50,
      });
      expect(booked.status).toBe(200);
    }
    const started = await post(a, '/scheduler/auto/drafts', { source: 'term', rebuild: true, seed: 2, ...term });
    expect(started.status).toBe(200);
    const id = ((await started.json()) as { draft_id: string }).draft_id;
    const state = async (server: ServeProcess): Promise<{ status: string; applied: number | null; result: { moved: unknown[] } | null }> =>
      (await (await api(server, `/scheduler/auto/drafts/${id}`)).json()) as { status: string; applied: number | null; result: { moved: unknown[] } | null };
    await expect.poll(async () => (await state(b)).status, { timeout: 30_000 }).toBe('done');
    expect((await state(b)).result?.moved.length).toBeGreaterThan(0);
    // Applied once, whichever process is asked, however many ask at once.
    const applies = await Promise.all([a, b, a, b].map((server) => post(server, `/scheduler/auto/drafts/${id}/apply`, {})));
    expect(applies.map((r) => r.status).sort()).toEqual([200, 400, 400, 400]);
    expect((await state(a)).applied).toBeGreaterThan(0);

    // A long draft started on b is stopped through a: the best draft so far is kept.
    const long = await post(b, '/scheduler/auto/drafts', { source: 'term', rebuild: true, seed: 3, time_budget_ms: 60_000, moves: 5_000_000, ...term });
    expect(long.status).toBe(200);
    const longId = ((await long.json()) as { draft_id: string }).draft_id;
    expect((await post(a, `/scheduler/auto/drafts/${longId}/cancel`, {})).status).toBe(200);
    await expect
      .poll(async () => ((await (await api(a, `/scheduler/auto/drafts/${longId}`)).json()) as { status: string }).status, { timeout: 15_000 })
      .toBe('cancelled');
  }, 90_000);
});

describe('two server processes on one PostgreSQL database', () => {
  it('store exactly one of 50 simultaneous bookings of one room and slot, and of one instructor and slot; the rest are refused in words', async () => {
    const term = { year: 2031, semester: 'Fall' };
    const room = await atOnce(
      Array.from({ length: 50 }, (_, i) => ({
        ...term,
        course_code: `CSC${300 + i}`,
        section_name: '1',
        doctor_id: 0,
        day: 'MW',
        start_time: '10:00',
        duration_mins: 75,
        room: 'Hall 7',
      })),
    );
    expect(room.filter((r) => r.status >= 500)).toEqual([]);
    expect(room.filter((r) => r.status === 200)).toHaveLength(1);
    const refused = room.filter((r) => r.status !== 200);
    expect(
      refused.every((r) => r.status === 400 && /^Room Hall 7 is already booked by CSC\d+ section 1 on Monday and Wednesday 10:00-11:15/.test(r.detail)),
    ).toBe(true);

    const doctor = (await (await post(a, '/scheduler/doctors', { name: 'Dr. Shared' })).json()) as { id: number };
    const teacher = await atOnce(
      Array.from({ length: 50 }, (_, i) => ({
        ...term,
        course_code: `MTH${300 + i}`,
        section_name: '1',
        doctor_id: doctor.id,
        day: 'TR',
        start_time: '13:00',
        duration_mins: 60,
        room: `Room ${i}`,
      })),
    );
    expect(teacher.filter((r) => r.status >= 500)).toEqual([]);
    expect(teacher.filter((r) => r.status === 200)).toHaveLength(1);
    expect(
      teacher
        .filter((r) => r.status !== 200)
        .every((r) => r.status === 400 && /^Dr\. Shared already teaches MTH\d+ section 1 on Tuesday and Thursday 13:00-14:00/.test(r.detail)),
    ).toBe(true);

    const stored = await entriesOf(b, term.year, term.semester);
    expect(stored).toHaveLength(2);
  }, 60_000);

  it('imports 20,000 rows through one process while the other writes and reads, with no 5xx', async () => {
    const term = { year: 2032, semester: 'Spring' };
    const other = { year: 2032, semester: 'Fall' };
    const importing = importListing(a, syntheticListing(20_000, term));
    let busy = true;
    const writes: number[] = [];
    const meanwhile = (async () => {
      for (let i = 0; busy; i++) {
        writes.push(
          (
            await post(b, '/scheduler/', {
              ...other,
              course_code: `ENG${100 + (i % 800)}`,
              section_name: String(Math.floor(i / 800) + 1),
              doctor_id: 0,
              day: 'MWF',
              start_time: '08:00',
              duration_mins: 50,
              room: `Lab ${i}`,
            })
          ).status,
        );
        writes.push((await api(b, '/health')).status);
      }
    })();
    const response = await importing;
    busy = false;
    await meanwhile;
    expect(response.status, await response.clone().text()).toBe(200);
    expect(((await response.json()) as TimetableImportResult).meetings).toBe(20_000);
    expect(writes.length).toBeGreaterThan(2);
    expect(writes.filter((s) => s !== 200)).toEqual([]);
    expect(await entriesOf(b, term.year, term.semester)).toHaveLength(20_000);
    expect(await entriesOf(a, other.year, other.semester)).toHaveLength(writes.length / 2);
  }, 120_000);

  it('leaves nothing half-written when a process is killed (kill -9) in the middle of an import, and the other keeps serving', async () => {
    // A term of this test's own: what is in it afterwards, the killed import left.
    const term = { year: 2043, semester: 'Spring' };
    const victim = await startProcess();
    const watcher = new pg.Client({ connectionString: database.url });
    await watcher.connect();
    try {
      const importing = importListing(victim, syntheticListing(20_000, term)).catch(() => null);
      // Killed once the import is writing its meetings (its inserts are under way on the server).
      await killWhileWriting(victim, watcher, importing, 'the import', async () =>
        count(watcher, `SELECT COUNT(*)::int AS n FROM pg_stat_activity WHERE datname = current_database() AND query ILIKE 'insert into "schedule_entries"%'`),
      );
    } finally {
      await watcher.end();
    }
    expect(await entriesOf(b, term.year, term.semester)).toEqual([]);
    expect((await api(b, '/health')).status).toBe(200);
    const booked = await post(b, '/scheduler/', {
      ...term,
      course_code: 'CSC201',
      section_name: '1',
      doctor_id: 0,
      day: 'MW',
      start_time: '09:00',
      duration_mins: 60,
      room: 'Hall 1',
    });
    expect(booked.status, await booked.clone().text()).toBe(200);
    // The terms the import held are free again: the same listing imports whole through the other process.
    const again = await importListing(b, syntheticListing(2_000, { year: 2043, semester: 'Fall' }));
    expect(again.status).toBe(200);
  }, 120_000);

  it('replays a publish through one process on a term another process changed, keeps both, and applies a retried key once on either', async () => {
    const term = { year: 2034, semester: 'Fall' };
    const colleague = await post(b, '/scheduler/', { ...term, course_code: 'MTH201', section_name: '9', day: 'TR', start_time: '10:00', duration_mins: 50 });
    expect(colleague.status).toBe(200);
    const body = { ...term, base_revision: 0, key: 'two-processes-publish', changes: [publishedMeeting('laptop-uid-1', 'MTH300', '13:00')] };
    const first = await post(a, '/scheduler/terms/publish-changes', body);
    expect(await first.json()).toMatchObject({ status: 'published', revision: 2, replayed: false });
    const again = await post(b, '/scheduler/terms/publish-changes', body);
    expect(await again.json()).toMatchObject({ status: 'published', revision: 2, replayed: true });
    expect((await entriesOf(a, term.year, term.semester)).map((e) => e.course_code).sort()).toEqual(['MTH201', 'MTH300']);
  });

  it('keeps both of a PATCH through one process and a publish through the other of one meeting, round after round, or lists the publish as a conflict; its history a chain', async () => {
    const term = { year: 2035, semester: 'Fall' };
    const created = await post(a, '/scheduler/', {
      ...term,
      course_code: 'MTH777',
      section_name: '1',
      day: 'MWF',
      start_time: '08:00',
      duration_mins: 50,
      room: 'R0',
    });
    expect(created.status).toBe(200);
    const meeting = (await created.json()) as ScheduleEntry;
    const query = `year=${term.year}&semester=${term.semester}`;
    type Change = { before: Record<string, unknown> | null; after: Record<string, unknown> | null };
    const changesOf = async (): Promise<Change[]> =>
      [...((await (await api(a, `/scheduler/history?${query}&meeting_uid=${meeting.uid}`)).json()) as { changes: Change[] }).changes].reverse();
    let bothKept = 0;
    for (let round = 1; round <= 20; round++) {
      const base = ((await (await api(b, `/scheduler/revision?${query}`)).json()) as { revision: number }).revision;
      const latest = (await changesOf()).at(-1)?.after as Record<string, unknown>;
      const start = `${String(9 + (round % 8)).padStart(2, '0')}:00`;
      const [published, patched] = await Promise.all([
        post(b, '/scheduler/terms/publish-changes', {
          ...term,
          base_revision: base,
          key: `two-process-race-${round}`,
          changes: [{ meeting_uid: meeting.uid, after: { ...latest, start_time: start }, operation: 'move' }],
        }),
        api(a, `/scheduler/${meeting.id}`, { method: 'PATCH', json: { room: `R${round}` } }),
      ]);
      expect(patched.status).toBe(200);
      const outcome = (await published.json()) as { status: string; stored: boolean };
      const now = (await entriesOf(a, term.year, term.semester))[0] as ScheduleEntry;
      expect(now.room, `round ${round}`).toBe(`R${round}`);
      if (outcome.stored) {
        bothKept++;
        expect(now.start_time, `round ${round}`).toBe(start);
      } else expect(outcome.status, `round ${round}`).toBe('conflicts');
    }
    const changes = await changesOf();
    const version = (m: Record<string, unknown> | null): string => JSON.stringify(m === null ? null : [m.day, m.start_time, m.room]);
    for (let i = 1; i < changes.length; i++) expect(version(changes[i]?.before ?? null), `change ${i}`).toBe(version(changes[i - 1]?.after ?? null));
    expect(bothKept).toBeGreaterThan(0);
  });

  it('stores none of a publish whose process is killed (kill -9) while it replays, and the same publish then applies whole', async () => {
    const term = { year: 2035, semester: 'Spring' };
    const victim = await startProcess();
    const watcher = new pg.Client({ connectionString: database.url });
    await watcher.connect();
    const changes = Array.from({ length: 1_000 }, (_, i) =>
      publishedMeeting(`killed-${i}`, `K${String(1000 + i)}`, `${String(7 + (i % 14)).padStart(2, '0')}:00`),
    );
    const body = { ...term, base_revision: 0, key: 'killed-publish', changes };
    try {
      const publishing = post(victim, '/scheduler/terms/publish-changes', body).catch(() => null);
      // Killed once the publish is recording its replayed changes.
      await killWhileWriting(victim, watcher, publishing, 'the publish', async () =>
        count(
          watcher,
          `SELECT COUNT(*)::int AS n FROM pg_stat_activity WHERE datname = current_database() AND query ILIKE '%schedule_changes%' AND pid <> pg_backend_pid()`,
        ),
      );
    } finally {
      await watcher.end();
    }
    expect(await entriesOf(b, term.year, term.semester)).toEqual([]);
    expect(await (await api(b, `/scheduler/revision?year=${term.year}&semester=${term.semester}`)).json()).toMatchObject({ revision: 0 });
    const whole = await post(b, '/scheduler/terms/publish-changes', body);
    expect(await whole.json()).toMatchObject({ status: 'published', applied: 1_000, replayed: false });
    expect(await entriesOf(a, term.year, term.semester)).toHaveLength(1_000);
  }, 120_000);

  it("keeps a change's department across processes, and narrows an open stream when its person is demoted", async () => {
    const dept = async (code: string): Promise<number> =>
      ((await (await post(a, '/departments', { code, name: `Department ${code}` })).json()) as { id: number }).id;
    const [deptA, deptB] = [await dept('EVA'), await dept('EVB')];
    const person = async (login: string, role: string, department: number | null): Promise<{ id: number; token: string }> => {
      const created = (await (
        await post(a, '/people', { login, name: login, role, department_id: department, password: `${login} password long` })
      ).json()) as {
        id: number;
      };
      return { id: created.id, token: await tokenFor(b, login, 'events') };
    };
    const viewerB = await person('viewer-b', 'viewer', deptB);
    await person('stays-registrar', 'registrar', null);
    const demoted = await person('was-registrar', 'registrar', null);
    /** Every event a stream opened on process b with `token` receives until `stop`. */
    const follow = async (token: string): Promise<{ events: { type: string; areas?: string[] }[]; stop: () => void }> => {
      const controller = new AbortController();
      const response = await fetch(new URL('events', b.url), { headers: { authorization: `Bearer ${token}` }, signal: controller.signal });
      const { events } = followEvents<{ type: string; areas?: string[] }>(response);
      return { events, stop: () => controller.abort() };
    };
    const viewerStream = await follow(viewerB.token);
    const registrarStream = await follow(demoted.token);
    try {
      const inA = (path: string, json: unknown): Promise<Response> =>
        api(a, path, { method: 'POST', json, headers: { 'x-termwise-department': String(deptA) } });
      const courses = new FormData();
      courses.append('file', new Blob([JSON.stringify([{ code: 'EVA101', name: 'Secret Course', type: 'core' }])]), 'courses.json');
      expect((await api(a, '/data/upload/courses', { method: 'POST', body: courses, headers: { 'x-termwise-department': String(deptA) } })).status).toBe(200);
      await expect.poll(() => registrarStream.events.some((e) => e.areas?.includes('catalog')), { timeout: 10_000 }).toBe(true);
      // The demotion reaches the open stream: from then on it is a viewer of B's.
      expect((await api(a, `/people/${demoted.id}`, { method: 'PATCH', json: { role: 'viewer', department_id: deptB } })).status).toBe(200);
      // (The change to people is the registrar's, which a viewer of B is not shown; what follows it reaches the stream as B's viewer.)
      const seenBefore = registrarStream.events.length;
      expect(
        (await inA('/scheduler/', { year: 2036, semester: 'Fall', course_code: 'EVA101', section_name: '1', day: 'M', start_time: '09:00', duration_mins: 50 }))
          .status,
      ).toBe(200);
      // Both B streams learn of A's booking as a bare campus change only (what was booked, and by whom, stays with A).
      for (const stream of [viewerStream, registrarStream])
        await expect
          .poll(() => stream.events.slice(stream === registrarStream ? seenBefore : 0).some((e) => e.areas?.includes('campus')), { timeout: 10_000 })
          .toBe(true);
      for (const events of [viewerStream.events, registrarStream.events.slice(seenBefore)]) {
        expect(events.filter((e) => e.areas?.includes('catalog') || e.areas?.includes('timetable'))).toEqual([]);
        expect(events.some((e) => e.areas?.includes('campus'))).toBe(true);
      }
    } finally {
      viewerStream.stop();
      registrarStream.stop();
    }
  }, 60_000);

  it("counts an address's sign-in attempts across both processes: the bound holds whichever process answers", async () => {
    // Attempts earlier tests made from this address count too, while their window (a minute from
    // its first attempt) lasts. A window that could end during the test's 12 attempts (about 2 s)
    // is waited out first.
    const watcher = new pg.Client({ connectionString: database.url });
    await watcher.connect();
    let before = 0;
    try {
      const { rows } = await watcher.query<{ attempts: number; window_start: string }>(
        `SELECT attempts, window_start FROM sign_in_addresses WHERE address = '127.0.0.1'`,
      );
      const window = rows[0];
      const endsInMs = window ? Date.parse(window.window_start) + SIGN_IN_RATE.windowMs - Date.now() : 0;
      if (endsInMs > 8_000) before = window?.attempts ?? 0;
      else if (endsInMs > 0) await new Promise((resolve) => setTimeout(resolve, endsInMs + 100));
    } finally {
      await watcher.end();
    }
    const attempt = (server: ServeProcess): Promise<Response> =>
      fetch(new URL('session/token', server.url), {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ login: 'nobody-signs-in-as-this', password: 'a guess at it', label: 'x' }),
      });
    for (let i = before; i < 10; i++) expect((await attempt(i % 2 === 0 ? a : b)).status).toBe(401);
    for (const server of [a, b]) {
      const limited = await attempt(server);
      expect(limited.status).toBe(429);
      expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
    }
  }, 60_000);

  it("answers from a department's new campuses on both processes once it is changed on one (each keeps the department's row until a change is announced)", async () => {
    const server = (await (await api(a, '/campuses')).json()) as string[];
    expect(server.length).toBeGreaterThan(1);
    const created = await post(a, '/departments', { code: 'KEPT', name: 'Kept department' });
    expect(created.status).toBe(200);
    const { id } = (await created.json()) as { id: number };
    const campusesOn = async (process: ServeProcess): Promise<string[]> =>
      (await (await api(process, '/campuses', { headers: { 'x-termwise-department': 'KEPT' } })).json()) as string[];
    // Both processes read the department, and keep it.
    expect(await campusesOn(a)).toEqual(server);
    expect(await campusesOn(b)).toEqual(server);
    const changed = await api(a, `/departments/${id}`, { method: 'PATCH', json: { campuses: [server[0]] } });
    expect(changed.status).toBe(200);
    // The process that made the change answers from it at once; the other once its change message
    // arrives, well before the few seconds a kept row lasts at most.
    expect(await campusesOn(a)).toEqual([server[0]]);
    await expect.poll(() => campusesOn(b), { timeout: 2_000, interval: 20 }).toEqual([server[0]]);
  });

  it('books by the settings as they are under the booking, not as a process last read them: the current term and the travel time changed on the other process', async () => {
    const settings = (server: ServeProcess, json: unknown): Promise<Response> => api(server, '/scheduler/settings', { method: 'PATCH', json });
    const book = async (server: ServeProcess, meeting: Record<string, unknown>): Promise<{ status: number; body: ScheduleEntry & { detail?: string } }> => {
      const response = await post(server, '/scheduler/', { section_name: '1', duration_mins: 60, ...meeting });
      return { status: response.status, body: (await response.json()) as ScheduleEntry & { detail?: string } };
    };
    const campuses = (await (await api(a, '/campuses')).json()) as string[];
    expect(campuses.length).toBeGreaterThan(1);
    expect((await settings(b, { current_term: { year: 2032, semester: 'Fall' }, travel_minutes: 0 })).status).toBe(200);
    // Process a books in the current term: it reads the settings, and keeps them.
    const doctor = (await (await post(a, '/scheduler/doctors', { name: 'Dr. Two Campuses' })).json()) as { id: number };
    const first = await book(a, { course_code: 'KPT101', doctor_id: doctor.id, day: 'M', start_time: '09:00', room: 'TBD', campus: campuses[0] });
    expect(first.status).toBe(200);
    expect([first.body.year, first.body.semester]).toEqual([2032, 'Fall']);
    // Process b moves the current term and asks for an hour between campuses; a's next bookings follow both at once.
    expect((await settings(b, { current_term: { year: 2033, semester: 'Spring' }, travel_minutes: 60 })).status).toBe(200);
    const second = await book(a, { course_code: 'KPT102', doctor_id: doctor.id, day: 'M', start_time: '09:00', room: 'TBD', campus: campuses[0] });
    expect(second.status).toBe(200);
    expect([second.body.year, second.body.semester]).toEqual([2033, 'Spring']);
    const tooClose = await book(a, { course_code: 'KPT103', doctor_id: doctor.id, day: 'M', start_time: '10:30', room: 'TBD', campus: campuses[1] });
    expect(tooClose.status).toBe(400);
    expect(tooClose.body.detail).toMatch(/Dr\. Two Campuses/);
  });

  it('sends a change made through one process to the event stream opened on the other', async () => {
    const controller = new AbortController();
    const stream = await api(b, '/events', { signal: controller.signal });
    const changed = followEvents<{ type: string; areas?: string[] }>(stream).first((e) => e.type === 'changed' && e.areas?.includes('rooms') === true);
    const created = await post(a, '/scheduler/rooms', { name: 'Shared Hall', capacity: 90 });
    expect(created.status).toBe(200);
    const timeout = new Promise<null>((resolve) => setTimeout(() => resolve(null), 10_000));
    expect(await Promise.race([changed, timeout])).toMatchObject({ type: 'changed', areas: ['rooms'] });
    controller.abort();
  }, 30_000);
});

describe('rules on people and rooms that read, then write, raced through both processes', () => {
  const ROUNDS = 15;
  const person = async (login: string, role: string, department: number | null): Promise<number> => {
    const created = await post(a, '/people', { login, name: login, role, department_id: department, password: `${login} password long` });
    expect(created.status, await created.clone().text()).toBe(200);
    return ((await created.json()) as { id: number }).id;
  };
  const personalToken = (login: string): Promise<string> => tokenFor(a, login, 'race');
  const registrarsNow = async (): Promise<number> =>
    ((await (await api(a, '/people')).json()) as { role: string; disabled: boolean }[]).filter((p) => p.role === 'registrar' && !p.disabled).length;

  it(`two registrars demoting each other at once leave one registrar, round after round (${ROUNDS} rounds)`, async () => {
    // Every registrar of earlier tests steps down first, but the last: the rounds start from one.
    const everyone = (await (await api(a, '/people')).json()) as { id: number; role: string; disabled: boolean }[];
    const registrars = everyone.filter((p) => p.role === 'registrar' && !p.disabled);
    for (const extra of registrars.slice(1)) expect((await api(a, `/people/${extra.id}`, { method: 'PATCH', json: { disabled: true } })).status).toBe(200);
    let survivor = registrars[0]?.id ?? (await person('race-first', 'registrar', null));
    for (let round = 0; round < ROUNDS; round++) {
      const [x, y] = [await person(`race-x${round}`, 'registrar', null), await person(`race-y${round}`, 'registrar', null)];
      expect((await api(a, `/people/${survivor}`, { method: 'PATCH', json: { role: 'viewer', department_id: 1 } })).status).toBe(200);
      const [one, two] = await Promise.all([
        api(a, `/people/${x}`, { method: 'PATCH', json: { role: 'viewer', department_id: 1 } }),
        api(b, `/people/${y}`, { method: 'PATCH', json: { disabled: true } }),
      ]);
      expect([one.status, two.status].sort(), `round ${round}`).toEqual([200, 400]);
      expect(await registrarsNow()).toBe(1);
      survivor = one.status === 200 ? y : x;
    }
  }, 120_000);

  it(`a room moved to a department while another department books it: one of the two, never both (${ROUNDS} rounds)`, async () => {
    const dept = async (code: string): Promise<number> => ((await (await post(a, '/departments', { code, name: code })).json()) as { id: number }).id;
    const [owner, other] = [await dept('RMA'), await dept('RMB')];
    let moves = 0;
    for (let round = 0; round < ROUNDS; round++) {
      const room = `Race Hall ${round}`;
      const created = await post(a, '/scheduler/rooms', { name: room, capacity: 40 });
      expect(created.status).toBe(200);
      const { id } = (await created.json()) as { id: number };
      const move = (): Promise<Response> => api(a, `/scheduler/rooms/${id}`, { method: 'PATCH', json: { department_id: owner } });
      const book = (): Promise<Response> =>
        api(b, '/scheduler/', {
          method: 'POST',
          json: { year: 2041, semester: 'Fall', course_code: `RMB${100 + round}`, section_name: '1', day: 'M', start_time: '09:00', duration_mins: 50, room },
          headers: { 'x-termwise-department': String(other) },
        });
      // Either sent first, the other a few milliseconds behind: each order meets the other's write under way.
      const lead = round % 3;
      const later = (send: () => Promise<Response>): Promise<Response> => new Promise((resolve) => setTimeout(() => resolve(send()), lead));
      const [moved, booked]: Response[] = round % 2 === 0 ? await Promise.all([move(), later(book)]) : (await Promise.all([book(), later(move)])).reverse();
      if (moved === undefined || booked === undefined) throw new Error('both answered');
      const outcome = [moved.status, booked.status];
      expect(outcome, `round ${round}: ${await moved.clone().text()} / ${await booked.clone().text()}`).not.toEqual([200, 200]);
      expect(
        outcome.filter((s) => s === 200),
        `round ${round}`,
      ).toHaveLength(1);
      if (moved.status === 200) moves++;
    }
    console.log(`Room moved ${moves} of ${ROUNDS} rounds, booked the others`);
  }, 120_000);

  it(`two departments uploading the same new room at once: it is one department's, as that department declared it (${ROUNDS} rounds)`, async () => {
    const dept = async (code: string): Promise<number> => ((await (await post(a, '/departments', { code, name: code })).json()) as { id: number }).id;
    const [first, second] = [await dept('UPA'), await dept('UPB')];
    await person('up-a', 'scheduler', first);
    await person('up-b', 'scheduler', second);
    const tokens = [await personalToken('up-a'), await personalToken('up-b')];
    const upload = (server: ServeProcess, token: string, csv: string): Promise<Response> => {
      const form = new FormData();
      form.append('file', new Blob([csv]), 'rooms.csv');
      return fetch(new URL('data/upload/rooms', server.url), { method: 'POST', body: form, headers: { authorization: `Bearer ${token}` } });
    };
    for (let round = 0; round < ROUNDS; round++) {
      const room = `Upload Race ${round}`;
      const answers = await Promise.all([upload(a, tokens[0] ?? '', `name,capacity\n${room},11\n`), upload(b, tokens[1] ?? '', `name,capacity\n${room},22\n`)]);
      for (const answer of answers) expect(answer.status, await answer.clone().text()).toBe(200);
      const roomsOf = async (department: number) =>
        (await (await api(a, '/scheduler/rooms', { headers: { 'x-termwise-department': String(department) } })).json()) as {
          id: number;
          name: string;
          capacity: number;
          department_id: number | null;
        }[];
      const seen = [...(await roomsOf(first)), ...(await roomsOf(second))].filter((r) => r.name === room);
      const stored = [...new Map(seen.map((r) => [r.id, r])).values()];
      expect(stored, `round ${round}`).toHaveLength(1);
      // Its seats are its owner's: the other department's upload changed nothing of it.
      expect(stored[0]?.capacity, `round ${round}`).toBe(stored[0]?.department_id === first ? 11 : 22);
      expect([first, second]).toContain(stored[0]?.department_id);
    }
  }, 120_000);
});
