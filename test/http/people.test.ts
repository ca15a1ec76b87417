import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { json, startTestServer, type TestServer } from '../helpers/server';
import { ROUTES } from '../../core/http/routes';
import { handlers } from '../../core/handlers';
import { SIGN_IN_RATE } from '../../core/http/sign-in';
import { SIGN_IN_LOCK } from '../../core/people';
import { followEvents } from '../helpers/event-stream';

/**
 * People on a campus server: the registrar adds schedulers and viewers of a department; each signs
 * in with a login and password (a script gets a personal token that acts as them), sees their own
 * department only, and may do what their role allows. Everything here goes through REST as a
 * script or the page would.
 */
let server: TestServer;
let ece: number;
let phys: number;
const tokens: Record<string, string> = {};
let eceNote = 0;
let eceRoom = 0;
const PASSWORD = 'a long enough passphrase';

interface Me {
  person: { id: number; login: string; role: string; department_id: number | null } | null;
  role: string;
  department: number | null;
  acting_in: number;
}

const as = (who: string, path: string, init: RequestInit & { json?: unknown } = {}): Promise<Response> =>
  server.api(path, { ...init, headers: { ...(init.headers as Record<string, string> | undefined), authorization: `Bearer ${tokens[who] ?? 'missing'}` } });

const detail = async (response: Response): Promise<string> => (await json<{ detail: string }>(response)).detail;

async function personalToken(login: string, password = PASSWORD, label = 'test script'): Promise<Response> {
  return fetch(`${server.url}/session/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ login, password, label }),
  });
}

async function addPerson(login: string, role: string, department: number | null): Promise<number> {
  const response = await server.api('/people', {
    method: 'POST',
    json: { login, name: login.toUpperCase(), role, department_id: department, password: PASSWORD },
  });
  expect(response.status, await response.clone().text()).toBe(200);
  const id = (await json<{ id: number }>(response)).id;
  const token = await personalToken(login);
  expect(token.status, await token.clone().text()).toBe(200);
  tokens[login] = (await json<{ token: string }>(token)).token;
  return id;
}

const inEce = (path: string, init: RequestInit & { json?: unknown } = {}): Promise<Response> =>
  server.api(path, { ...init, headers: { 'x-termwise-department': String(ece) } });

beforeAll(async () => {
  // Many sign-ins from one address here: the per-address limit is tested on a server of its own below.
  server = await startTestServer({ signInRate: { attempts: 1000, windowMs: 60_000 } });
  ece = (await json<{ id: number }>(await server.api('/departments', { method: 'POST', json: { code: 'ECE', name: 'Electrical Engineering' } }))).id;
  phys = (await json<{ id: number }>(await server.api('/departments', { method: 'POST', json: { code: 'PHYS', name: 'Physics' } }))).id;
  // ECE's data, which nobody of Physics may see.
  const form = new FormData();
  form.append('file', new Blob([JSON.stringify([{ code: 'ECE210', name: 'Circuits Secret', type: 'core' }])]), 'c.json');
  expect((await server.api('/data/upload/courses', { method: 'POST', body: form, headers: { 'x-termwise-department': String(ece) } })).status).toBe(200);
  expect((await inEce('/scheduler/doctors', { method: 'POST', json: { name: 'Dr. Ece Only', allowed_courses: ['ECE210'] } })).status).toBe(200);
  const booked = await inEce('/scheduler/', {
    method: 'POST',
    json: { course_code: 'ECE210', section_name: 'A', day: 'MW', start_time: '10:00', duration_mins: 75, room: 'ECE Lab', year: 2026, semester: 'Fall' },
  });
  expect(booked.status, await booked.clone().text()).toBe(200);
  eceNote = (
    await json<{ id: number }>(
      await inEce('/predict/term-notes', {
        method: 'POST',
        json: { year: 2026, semester: 'Fall', kind: 'course_retired', course_code: 'ECE210', reason: 'Secret note' },
      }),
    )
  ).id;
  eceRoom = (
    await json<{ id: number }>(
      await server.api('/scheduler/rooms', { method: 'POST', json: { name: 'ECE Private Room', capacity: 12, campus: 'Beirut', department_id: ece } }),
    )
  ).id;
  await addPerson('ece-scheduler', 'scheduler', ece);
  await addPerson('ece-viewer', 'viewer', ece);
  await addPerson('phys-scheduler', 'scheduler', phys);
}, 120_000);

afterAll(async () => {
  await server.close();
});

describe('people and their roles', () => {
  it('each says who they are and acts in their own department', async () => {
    const me = await json<Me>(await as('ece-viewer', '/me'));
    expect(me).toMatchObject({ role: 'viewer', department: ece, acting_in: ece, person: { login: 'ece-viewer', role: 'viewer', department_id: ece } });
    expect(JSON.stringify(me)).not.toContain('password');
    expect(await json<Me>(await server.api('/me'))).toMatchObject({ person: null, role: 'registrar', department: null });
    expect((await json<{ code: string }[]>(await as('ece-viewer', '/data/courses'))).map((c) => c.code)).toEqual(['ECE210']);
    expect((await json<{ code: string }[]>(await as('phys-scheduler', '/departments'))).map((d) => d.code)).toEqual(['PHYS']);
  });

  it('are added by the registrar alone, with a role that fits: one department for schedulers and viewers, none for the registrar', async () => {
    const refused = await as('ece-scheduler', '/people', { method: 'POST', json: { login: 'sneaky', name: 'S', role: 'registrar', password: PASSWORD } });
    expect(refused.status).toBe(403);
    expect(await detail(refused)).toMatch(/registrar/);
    expect((await as('ece-scheduler', '/people')).status).toBe(403);
    const noDepartment = await server.api('/people', { method: 'POST', json: { login: 'lost', name: 'Lost', role: 'scheduler', password: PASSWORD } });
    expect(noDepartment.status).toBe(422);
    expect(await detail(noDepartment)).toMatch(/department/);
    const short = await server.api('/people', { method: 'POST', json: { login: 'short', name: 'Short', role: 'viewer', department_id: ece, password: 'abc' } });
    expect(short.status).toBe(422);
    const again = await server.api('/people', {
      method: 'POST',
      json: { login: 'ece-viewer', name: 'Twin', role: 'viewer', department_id: ece, password: PASSWORD },
    });
    expect(again.status).toBe(400);
    const listed = await json<Record<string, unknown>[]>(await server.api('/people'));
    expect(listed.map((p) => p.login)).toEqual(expect.arrayContaining(['ece-scheduler', 'ece-viewer', 'phys-scheduler']));
    for (const person of listed) expect(Object.keys(person).some((k) => k.includes('password'))).toBe(false);
  });

  it('a viewer reads but every write is refused, whatever it carries', async () => {
    const timetable = await as('ece-viewer', '/scheduler/?year=2026&semester=Fall');
    expect(timetable.status).toBe(200);
    const before = await json<unknown[]>(timetable);
    expect(before.length).toBeGreaterThan(0);
    // Every route that writes (a preview writes nothing; a viewer may preview an import).
    const writes = ROUTES.filter(
      (r) =>
        r.method !== 'GET' &&
        (typeof handlers[r.operation].writes === 'function' || handlers[r.operation].writes.length > 0) &&
        handlers[r.operation].access !== 'self',
    );
    for (const route of writes) {
      const path = route.path.replace(/:([a-z_]+)/g, '1');
      const init: RequestInit & { json?: unknown } = { method: route.method };
      if (route.input === 'multipart') {
        const form = new FormData();
        form.append('file', new Blob(['x']), 'x.csv');
        form.append('dry_run', 'false');
        init.body = form;
      } else if (route.input === 'json') init.json = { dry_run: false };
      const response = await as('ece-viewer', path, init);
      // Refused before its input is read: even one whose writes depend on it (not a dry run) says 403, not 422.
      expect(response.status, `${route.method} ${route.path}: ${await response.clone().text()}`).toBe(403);
    }
    // Nothing changed in the department's timetable.
    expect(await json<unknown[]>(await as('ece-viewer', '/scheduler/?year=2026&semester=Fall'))).toEqual(before);
  });

  it('a viewer sending an empty body to any route of /openapi.json, or to its /rpc twin, is refused as a viewer before the body is read, or answered as a read', async () => {
    const doc = await json<{ paths: Record<string, Record<string, { operationId?: string }>> }>(await server.api('/openapi.json'));
    // Routes whose writes depend on the input and that default to a preview: with an empty body they write nothing.
    const previews = new Set(['schedule-import', 'schedule-autofill']);
    let refused = 0;
    let uploads = 0;
    for (const [path, methods] of Object.entries(doc.paths)) {
      for (const [method, spec] of Object.entries(methods)) {
        const operation = spec.operationId;
        if (operation === undefined || method === 'get' || !(operation in handlers)) continue;
        const h = handlers[operation as keyof typeof handlers];
        const writes = typeof h.writes === 'function' || h.writes.length > 0;
        const address = path.replace(/\{[a-z_]+\}/g, '1');
        // An empty body of the kind the route takes: {} for JSON, an empty form for an upload, nothing otherwise.
        const input = ROUTES.find((r) => r.operation === operation)?.input;
        if (input === 'multipart') uploads++;
        const body = (): RequestInit & { json?: unknown } => (input === 'json' ? { json: {} } : input === 'multipart' ? { body: new FormData() } : {});
        // A viewer is refused every write, and every operation of the registrar's alone.
        const expectRefusal = (writes && h.access !== 'self' && !previews.has(operation)) || h.access === 'registrar';
        for (const [where, response] of [
          [`${method} ${path}`, await as('ece-viewer', address, { method: method.toUpperCase(), ...body() })],
          [
            `/rpc/${operation}`,
            await as('ece-viewer', `/rpc/${operation}`, { method: 'POST', ...(input === 'multipart' ? { body: new FormData() } : { json: {} }) }),
          ],
        ] as const) {
          const text = await response.clone().text();
          expect(response.status, `${where}: ${text}`).toBeLessThan(500);
          if (expectRefusal) expect(response.status, `${where}: ${text}`).toBe(403);
          else expect(response.status, `${where}: ${text}`).not.toBe(403);
        }
        if (expectRefusal) refused++;
      }
    }
    expect(refused).toBeGreaterThan(20);
    expect(uploads).toBeGreaterThan(3);
  });

  it('a scheduler of another department sees none of its data on any route, and cannot act in it or on what it holds', async () => {
    const timetableBefore = await json<unknown[]>(await as('ece-scheduler', '/scheduler/?year=2026&semester=Fall'));
    expect(timetableBefore.length).toBeGreaterThan(0);
    // What ECE holds (a room of the shared pool is the campus's: its name is no secret, its bookings' courses are).
    const leaks = (text: string): string[] =>
      ['ECE210', 'Dr. Ece Only', 'Circuits Secret', 'Secret note', 'ECE Private Room'].filter((marker) => text.includes(marker));
    const send = (route: (typeof ROUTES)[number], path: string, headers: Record<string, string> = {}): Promise<Response> => {
      const init: RequestInit & { json?: unknown } = { method: route.method, headers };
      if (route.input === 'multipart') {
        const form = new FormData();
        // A meeting in the room ECE's section holds at that time.
        form.append('file', new Blob(['Course,Section,Days,Start Time,End Time,Room\nPHYS900,A,MW,10:00,11:15,ECE Lab\n']), 'x.csv');
        form.append('year', '2026');
        form.append('semester', 'Fall');
        init.body = form;
      } else if (route.input === 'json') init.json = { year: 2026, semester: 'Fall' };
      return as('phys-scheduler', path, init);
    };
    // Path parameters name ECE's own things.
    const [entry] = await json<{ id: number }[]>(await as('ece-scheduler', '/scheduler/?year=2026&semester=Fall'));
    const eceIds: Record<string, string> = {
      entry_id: String(entry?.id),
      person_id: String((await json<Me>(await as('ece-scheduler', '/me'))).person?.id),
      token_id: String((await json<{ id: number }[]>(await as('ece-scheduler', '/me/tokens')))[0]?.id),
      department_id: String(ece),
      note_id: String(eceNote),
      room_id: String(eceRoom),
      run_id: '1',
      course_code: 'ECE210',
      code: 'A',
    };
    for (const route of ROUTES.filter((r) => !r.public)) {
      const path = route.path.replace(/:([a-z_]+)/g, (_m, name: string) => eceIds[name] ?? '1');
      // Asking to act in ECE is refused, whatever the route.
      const asked = await send(route, `${path}${path.includes('?') ? '&' : '?'}department=${ece}`);
      const askedText = await asked.text();
      expect(asked.status, `${route.method} ${route.path} in ECE: ${askedText}`).toBe(403);
      expect(leaks(askedText), `${route.method} ${route.path}`).toEqual([]);
      // In their own department: ECE's things named in the path are not found (or not theirs to change), and no answer names ECE's data.
      const own = await send(route, path);
      const text = new TextDecoder().decode(await own.arrayBuffer());
      expect(own.status, `${route.method} ${route.path}: ${text.slice(0, 300)}`).toBeLessThan(500);
      if (route.path.includes(':'))
        expect([403, 404, 422], `${route.method} ${route.path} on ECE's ${route.path}: ${text.slice(0, 300)}`).toContain(own.status);
      expect(leaks(text), `${route.method} ${route.path}: ${text.slice(0, 300)}`).toEqual([]);
    }
    // ECE's data is as it was.
    expect((await json<{ code: string }[]>(await as('ece-scheduler', '/data/courses'))).map((c) => c.code)).toEqual(['ECE210']);
    expect(await json<unknown[]>(await as('ece-scheduler', '/scheduler/?year=2026&semester=Fall'))).toEqual(timetableBefore);
    const byHeader = await as('phys-scheduler', '/data/courses', { headers: { 'x-termwise-department': 'ECE' } });
    expect(byHeader.status).toBe(403);
    expect(await detail(byHeader)).toMatch(/own department/);
  });

  it('hears of changes to their own department and the campus; of another department’s, only that something shared changed', async () => {
    const controller = new AbortController();
    const stream = await as('phys-scheduler', '/events', { signal: controller.signal });
    const followed = followEvents<{ type: string; department?: number }>(stream);
    try {
      // Another department's own plan (its profile) is not heard of at all; its instructors, whom rooms and calendars share, only as "campus".
      expect((await inEce('/settings/profile', { method: 'PATCH', json: { section_size: 35 } })).status).toBe(200);
      expect((await inEce('/scheduler/doctors', { method: 'POST', json: { name: 'Dr. Ece Event', allowed_courses: [] } })).status).toBe(200);
      expect((await as('phys-scheduler', '/scheduler/doctors', { method: 'POST', json: { name: 'Dr. Phys Event', allowed_courses: [] } })).status).toBe(200);
      await new Promise((r) => setTimeout(r, 200));
      expect(followed.events).toEqual([
        { type: 'changed', areas: ['campus'] },
        { type: 'changed', areas: ['doctors'], department: phys },
      ]);
    } finally {
      controller.abort();
    }
  });

  it('sees another department’s meetings in the campus week as booked, nothing more', async () => {
    const week = await json<{ bookings: { room: string; department: string | null; course_code: string | null; label: string }[] }>(
      await as('phys-scheduler', '/scheduler/campus?year=2026&semester=Fall'),
    );
    expect(week.bookings).toEqual([]);
    // ECE Lab is not a declared room of the pool here; declare one and let ECE book it.
    expect((await server.api('/scheduler/rooms', { method: 'POST', json: { name: 'Pool Room', capacity: 50, campus: 'Beirut' } })).status).toBe(200);
    expect(
      (
        await inEce('/scheduler/', {
          method: 'POST',
          json: {
            course_code: 'ECE210',
            section_name: 'P',
            day: 'TR',
            start_time: '09:00',
            duration_mins: 75,
            room: 'Pool Room',
            year: 2026,
            semester: 'Fall',
          },
        })
      ).status,
    ).toBe(200);
    const seen = await json<{ bookings: { room: string; department: string | null; course_code: string | null; label: string; own: boolean }[] }>(
      await as('phys-scheduler', '/scheduler/campus?year=2026&semester=Fall'),
    );
    expect(seen.bookings).toEqual([
      {
        // Not even its id: a meeting the caller may not read is a booking, nothing more.
        id: null,
        room: 'Pool Room',
        day: 'TR',
        start_time: '09:00',
        end_time: '10:15',
        part_of_term: '1',
        department: null,
        course_code: null,
        section_name: null,
        label: 'Booked by another department',
        own: false,
      },
    ]);
    expect(
      (await json<{ bookings: { course_code: string | null }[] }>(await as('ece-viewer', '/scheduler/campus?year=2026&semester=Fall'))).bookings.map(
        (b) => b.course_code,
      ),
    ).toEqual(expect.arrayContaining(['ECE210']));
  });

  it('a scheduler plans their department; the campus itself (people, departments, backups, the server token) is the registrar’s', async () => {
    const room = await as('ece-scheduler', '/scheduler/rooms', { method: 'POST', json: { name: 'ECE Seminar', capacity: 20, campus: 'Beirut' } });
    expect(room.status, await room.clone().text()).toBe(200);
    for (const [method, path] of [
      ['GET', '/data/backup'],
      ['POST', '/data/sample'],
      ['POST', '/settings/token'],
      ['POST', '/departments'],
      ['PATCH', `/departments/${ece}`],
    ] as const) {
      const response = await as('ece-scheduler', path, { method, ...(method === 'GET' ? {} : { json: { code: 'X', name: 'X' } }) });
      expect(response.status, `${method} ${path}`).toBe(403);
    }
    // The installation's token and where its data lives are never shown to a person.
    const info = await json<Record<string, unknown>>(await as('ece-scheduler', '/settings'));
    expect(info).toMatchObject({ api_token: null, data_dir: null, database: null });
    expect(JSON.stringify(info)).not.toContain(server.dataDir);
  });

  it('a revoked token, or a disabled account’s, is refused from the next request on', async () => {
    const second = await personalToken('ece-scheduler', PASSWORD, 'cron job');
    const { token, id } = await json<{ token: string; id: number }>(second);
    const call = (): Promise<Response> => fetch(`${server.url}/me`, { headers: { authorization: `Bearer ${token}` } });
    expect((await call()).status).toBe(200);
    const mine = await json<{ id: number; label: string; token?: string }[]>(await as('ece-scheduler', '/me/tokens'));
    expect(mine.map((t) => t.label)).toEqual(expect.arrayContaining(['test script', 'cron job']));
    expect(mine.every((t) => t.token === undefined)).toBe(true);
    // Another person cannot revoke it.
    expect((await as('phys-scheduler', `/me/tokens/${id}`, { method: 'DELETE' })).status).toBe(404);
    expect((await as('ece-scheduler', `/me/tokens/${id}`, { method: 'DELETE' })).status).toBe(200);
    const revoked = await call();
    expect(revoked.status).toBe(401);
    expect(await detail(revoked)).toMatch(/revoked/);

    const viewer = (await json<Me>(await as('ece-viewer', '/me'))).person?.id as number;
    expect((await server.api(`/people/${viewer}`, { method: 'PATCH', json: { disabled: true } })).status).toBe(200);
    expect((await as('ece-viewer', '/data/courses')).status).toBe(401);
    expect((await personalToken('ece-viewer')).status).toBe(401);
    expect((await server.api(`/people/${viewer}`, { method: 'PATCH', json: { disabled: false } })).status).toBe(200);
    expect((await as('ece-viewer', '/data/courses')).status).toBe(200);
  });

  it('a changed role counts from the next request', async () => {
    const viewer = (await json<Me>(await as('ece-viewer', '/me'))).person?.id as number;
    expect((await server.api(`/people/${viewer}`, { method: 'PATCH', json: { role: 'scheduler' } })).status).toBe(200);
    expect((await as('ece-viewer', '/scheduler/doctors', { method: 'POST', json: { name: 'Dr. Promoted', allowed_courses: [] } })).status).toBe(200);
    expect((await server.api(`/people/${viewer}`, { method: 'PATCH', json: { role: 'viewer' } })).status).toBe(200);
    expect((await as('ece-viewer', '/scheduler/doctors', { method: 'POST', json: { name: 'Dr. Demoted', allowed_courses: [] } })).status).toBe(403);
  });

  it('the last registrar who signs in cannot be demoted or disabled', async () => {
    const id = (
      await json<{ id: number }>(
        await server.api('/people', { method: 'POST', json: { login: 'registrar', name: 'Registrar', role: 'registrar', password: PASSWORD } }),
      )
    ).id;
    const demote = await server.api(`/people/${id}`, { method: 'PATCH', json: { role: 'viewer', department_id: ece } });
    expect(demote.status).toBe(400);
    expect(await detail(demote)).toMatch(/only registrar/);
    expect((await server.api(`/people/${id}`, { method: 'PATCH', json: { disabled: true } })).status).toBe(400);
  });
});

describe('signing in', () => {
  it('a wrong password, an unknown login and a locked account are refused alike, and an account locks after repeated failures', async () => {
    await server.api('/people', { method: 'POST', json: { login: 'locked-out', name: 'Locked Out', role: 'viewer', department_id: phys, password: PASSWORD } });
    const unknown = await personalToken('nobody-here', 'whatever it is');
    const wrong = await personalToken('locked-out', 'not the password');
    expect(unknown.status).toBe(401);
    expect(wrong.status).toBe(401);
    expect(await detail(unknown)).toBe(await detail(wrong));
    for (let i = 1; i < SIGN_IN_LOCK.after; i += 1) expect((await personalToken('locked-out', 'still wrong')).status).toBe(401);
    // Locked: the right password is refused, in the same words, status and headers as a login that names nobody.
    const locked = await personalToken('locked-out');
    const stranger = await personalToken('nobody-at-all', PASSWORD);
    expect(locked.status).toBe(401);
    expect(await detail(locked)).toBe(await detail(stranger));
    const headers = (r: Response): string[] => [...r.headers.keys()].filter((k) => k !== 'date' && k !== 'content-length').sort();
    expect(headers(locked)).toEqual(headers(stranger));
    // The registrar sees the lock, and a new password lifts it.
    const people = await json<{ login: string; id: number; locked_until: string | null }[]>(await server.api('/people'));
    const person = people.find((p) => p.login === 'locked-out');
    expect(person?.locked_until).not.toBeNull();
    expect((await server.api(`/people/${person?.id ?? 0}`, { method: 'PATCH', json: { password: `${PASSWORD} anew` } })).status).toBe(200);
    expect((await personalToken('locked-out', `${PASSWORD} anew`)).status).toBe(200);
  });

  it('counts guesses sent at once before checking any: all refused, and the right password after them too, until unlocked', async () => {
    const proxied = await startTestServer({ trustedProxies: ['127.0.0.1'] });
    try {
      const id = (
        await json<{ id: number }>(
          await proxied.api('/people', { method: 'POST', json: { login: 'raced', name: 'Raced', role: 'registrar', password: PASSWORD } }),
        )
      ).id;
      const attempt = (password: string, client: string): Promise<Response> =>
        fetch(`${proxied.url}/session/token`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'x-forwarded-for': client },
          body: JSON.stringify({ login: 'raced', password, label: 'x' }),
        });
      const guesses = Array.from({ length: 30 }, (_, i) => attempt(`guess number ${i}`, `192.0.2.${i + 1}`));
      // The right password arrives while the guesses' passwords are still being checked (each check is slow by design).
      const counted = async (): Promise<number> =>
        Number((await proxied.core.context.db.selectFrom('people').select('failed_attempts').where('id', '=', id).executeTakeFirst())?.failed_attempts);
      await expect.poll(counted, { interval: 2, timeout: 10_000 }).toBeGreaterThanOrEqual(30);
      const right = attempt(PASSWORD, '192.0.2.200');
      const answers = await Promise.all([...guesses, right]);
      expect(answers.map((r) => r.status)).toEqual(Array.from({ length: 31 }, () => 401));
      expect((await attempt(PASSWORD, '192.0.2.201')).status).toBe(401);
      expect((await proxied.api(`/people/${id}`, { method: 'PATCH', json: { unlock: true } })).status).toBe(200);
      expect((await attempt(PASSWORD, '192.0.2.202')).status).toBe(200);
    } finally {
      await proxied.close();
    }
  });

  it('one address gets a bounded number of attempts, whatever the logins', async () => {
    const other = await startTestServer();
    try {
      const attempt = (i: number): Promise<Response> =>
        fetch(`${other.url}/session/token`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ login: `guess${i}`, password: 'guess', label: 'x' }),
        });
      for (let i = 0; i < SIGN_IN_RATE.attempts; i += 1) expect((await attempt(i)).status).toBe(401);
      const limited = await attempt(99);
      expect(limited.status).toBe(429);
      expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
    } finally {
      await other.close();
    }
  });

  it('behind a trusted proxy, counts attempts per client it names; an untrusted X-Forwarded-For changes nothing', async () => {
    const proxied = await startTestServer({ trustedProxies: ['127.0.0.1'] });
    const direct = await startTestServer();
    try {
      const attempt = (url: string, client: string): Promise<Response> =>
        fetch(`${url}/session/token`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'x-forwarded-for': client },
          body: JSON.stringify({ login: 'guess', password: 'guess', label: 'x' }),
        });
      for (let i = 0; i < SIGN_IN_RATE.attempts; i += 1) expect((await attempt(proxied.url, '203.0.113.7')).status).toBe(401);
      expect((await attempt(proxied.url, '203.0.113.7')).status).toBe(429);
      // Another client behind the same proxy is not held back by the first.
      expect((await attempt(proxied.url, '203.0.113.8')).status).toBe(401);
      // Without a trusted proxy, a client cannot escape the bound by naming other addresses.
      for (let i = 0; i < SIGN_IN_RATE.attempts; i += 1) expect((await attempt(direct.url, `198.51.100.${i}`)).status).toBe(401);
      expect((await attempt(direct.url, '198.51.100.250')).status).toBe(429);
    } finally {
      await Promise.all([proxied.close(), direct.close()]);
    }
  });

  it('bad input is refused with a clear error', async () => {
    const bad = await fetch(`${server.url}/session/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ login: 'x'.repeat(5000), password: 7 }),
    });
    expect(bad.status).toBe(422);
    expect(await detail(bad)).toMatch(/login|password/);
    // The page's sign-in is for the page only (it sets a cookie): a request from elsewhere is refused.
    const fromElsewhere = await fetch(`${server.url}/session/signin`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: 'http://evil.example' },
      body: JSON.stringify({ login: 'ece-scheduler', password: PASSWORD }),
    });
    expect([403, 404]).toContain(fromElsewhere.status);
  });
});
