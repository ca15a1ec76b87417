import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createCore, type Core } from '../../core/index';
import { CampusLink } from '../../electron/campus-link';
import { checkedServerUrl, loadConnection, saveConnection, type SecretBox } from '../../electron/campus';
import { dispatch } from '../../electron/ipc';
import { json, startTestServer, type TestServer } from '../helpers/server';

/**
 * The desktop app and a campus server: connecting with a sign-in (the token kept encrypted, the
 * password never), the screens' calls and change events going to the server while online, and a
 * term planned offline published (its changes replayed, refused whole with its clashes, then stored)
 * and the server's changes fetched back.
 * The server is a real Termwise server; the laptop a real core; only safeStorage is stood in for.
 * Each test makes both afresh.
 */

/** A reversible stand-in for Electron's safeStorage (the operating system's encryption). */
const box = (available = true): SecretBox => ({
  isEncryptionAvailable: () => available,
  encryptString: (text) => Buffer.from([...Buffer.from(text)].map((b) => b ^ 0x5a)),
  decryptString: (data) => Buffer.from([...data].map((b) => b ^ 0x5a)).toString(),
});

const TERM = { year: 2026, semester: 'Fall' } as const;
const appFrame = { url: 'app://termwise/index.html#/settings' };

let campus: TestServer;
let laptop: Core;
let dir: string;
let events: unknown[] = [];
let link: CampusLink;

beforeEach(async () => {
  events = [];
  campus = await startTestServer();
  dir = mkdtempSync(join(tmpdir(), 'termwise-desktop-'));
  laptop = await createCore({ dataDir: join(dir, 'laptop') });
  const ece = (await json<{ id: number }>(await campus.api('/departments', { method: 'POST', json: { code: 'ECE', name: 'Electrical Engineering' } }))).id;
  const phys = (await json<{ id: number }>(await campus.api('/departments', { method: 'POST', json: { code: 'PHYS', name: 'Physics' } }))).id;
  const booked = await campus.api('/scheduler/', {
    method: 'POST',
    headers: { 'x-termwise-department': String(ece) },
    json: { ...TERM, course_code: 'ECE310', section_name: 'A', day: 'MW', start_time: '10:00', duration_mins: 75, room: 'Lecture Hall' },
  });
  expect(booked.status).toBe(200);
  expect(
    (
      await campus.api('/people', {
        method: 'POST',
        json: { login: 'phys', name: 'Physics Scheduler', role: 'scheduler', department_id: phys, password: 'physics passphrase' },
      })
    ).status,
  ).toBe(200);
  // Planned offline on the laptop: one meeting clashes with ECE's booking of the shared lecture hall.
  await laptop.run('schedule-create', {
    ...TERM,
    course_code: 'PHYS211',
    section_name: '1',
    day: 'MW',
    start_time: '10:30',
    duration_mins: 50,
    room: 'Lecture Hall',
    doctor_id: 0,
  });
  await laptop.run('schedule-create', {
    ...TERM,
    course_code: 'PHYS212',
    section_name: '1',
    day: 'TR',
    start_time: '09:00',
    duration_mins: 75,
    room: 'Phys Lab',
    doctor_id: 0,
  });
  link = new CampusLink(join(dir, 'campus-server.json'), box(), (event) => events.push(event));
}, 120_000);

afterEach(async () => {
  link.close();
  await laptop.close();
  await campus.close();
  rmSync(dir, { recursive: true, force: true });
});

/** Signs the laptop in to the server as Physics' scheduler. */
async function connect(): Promise<void> {
  const connected = await link.handle(laptop, 'connect', { url: campus.url, login: 'phys', password: 'physics passphrase' });
  expect(connected).toEqual({ ok: true, value: { connected: true, online: true, url: `${campus.url}/` } });
}

/** The laptop's clash fixed (PHYS211 moved to 13:00, out of ECE's hour in the lecture hall). */
async function fixClash(): Promise<void> {
  const [clashing] = (await laptop.run('schedule-list', TERM)).filter((e) => e.course_code === 'PHYS211');
  await laptop.run('schedule-update', { entry_id: clashing?.id ?? 0, start_time: '13:00' });
}

describe('the desktop app on a campus server', () => {
  it('reaches a server over https, or over http only on this computer', () => {
    expect(checkedServerUrl('https://termwise.campus.example')).toBe('https://termwise.campus.example/');
    expect(checkedServerUrl('http://127.0.0.1:4610/#x')).toBe('http://127.0.0.1:4610/');
    expect(() => checkedServerUrl('http://termwise.campus.example/')).toThrow(/over https/);
    expect(() => checkedServerUrl('file:///etc/passwd')).toThrow(/https/);
    expect(() => checkedServerUrl('https://user:pw@termwise.campus.example/')).toThrow(/not in the address/);
    expect(() => checkedServerUrl('not a url')).toThrow(/not a server address/);
  });

  it('keeps a token only encrypted, and refuses to keep it where the computer cannot encrypt', () => {
    const file = join(dir, 'kept.json');
    saveConnection(file, { url: 'https://x.example/', token: 'tw_secret_token_value', tokenId: 7 }, box());
    const stored = JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>;
    expect(Object.keys(stored).sort()).toEqual(['token', 'token_id', 'url']);
    expect(stored.token).not.toContain('tw_');
    expect(loadConnection(file, box())).toEqual({ url: 'https://x.example/', token: 'tw_secret_token_value', tokenId: 7 });
    expect(() => saveConnection(join(dir, 'plain.json'), { url: 'https://x.example/', token: 't' }, box(false))).toThrow(/no encrypted storage/);
    // Linux without a keyring: Electron "encrypts" with a key of its own, which is no protection.
    const basicText: SecretBox = { ...box(), getSelectedStorageBackend: () => 'basic_text' };
    expect(() => saveConnection(join(dir, 'basic.json'), { url: 'https://x.example/', token: 't' }, basicText)).toThrow(/no encrypted storage/);
    expect(loadConnection(file, basicText)).toBeNull();
  });

  it('refuses a wrong password in words, keeping nothing', async () => {
    const refused = await link.handle(laptop, 'connect', { url: campus.url, login: 'phys', password: 'wrong' });
    expect(refused).toMatchObject({ ok: false, error: { message: expect.stringMatching(/login or password/i) as string } });
    expect(link.status()).toEqual({ connected: false, online: false, url: null });
    expect(existsSync(join(dir, 'campus-server.json'))).toBe(false);
  });

  it('connects with a sign-in; the screens then call the server as the person, and its changes arrive as events', async () => {
    await connect();
    const kept = JSON.parse(readFileSync(join(dir, 'campus-server.json'), 'utf8')) as Record<string, unknown>;
    expect(Object.keys(kept).sort()).toEqual(['token', 'token_id', 'url']);
    expect(JSON.stringify(kept)).not.toContain('physics passphrase');
    expect(loadConnection(join(dir, 'campus-server.json'), box())?.token).toMatch(/^tw_/);
    const me = await dispatch(laptop, appFrame, 'me', {}, link);
    expect(me).toMatchObject({ ok: true, value: { person: { login: 'phys' }, role: 'scheduler' } });
    // A refusal from the server reads as one from the local core.
    expect(await dispatch(laptop, appFrame, 'people-list', {}, link)).toMatchObject({ ok: false, error: { code: 'forbidden' } });
    // A change made on the server by someone else reaches the window.
    events.length = 0;
    await new Promise((resolve) => setTimeout(resolve, 200));
    const other = await campus.api('/scheduler/', {
      method: 'POST',
      headers: { 'x-termwise-department': 'PHYS' },
      json: { ...TERM, course_code: 'PHYS100', section_name: 'X', day: 'F', start_time: '16:00', duration_mins: 50, room: 'Phys Lab' },
    });
    expect(other.status).toBe(200);
    await expect.poll(() => events.some((e) => (e as { type?: string; areas?: string[] }).areas?.includes('timetable')), { timeout: 5_000 }).toBe(true);
    expect((await campus.api(`/scheduler/${(await json<{ id: number }>(other)).id}?department=PHYS`, { method: 'DELETE' })).status).toBe(200);
    // Offline, the screens read the laptop's own timetable again.
    expect(await link.handle(laptop, 'offline', {})).toMatchObject({ ok: true, value: { connected: true, online: false } });
    const local = await dispatch(laptop, appFrame, 'schedule-list', TERM, link);
    expect(local.ok && (local.value as { course_code: string }[]).map((e) => e.course_code).sort()).toEqual(['PHYS211', 'PHYS212']);
  });

  it('publishes a term planned offline: refused whole with the clash listed, then fixed and stored', async () => {
    await connect();
    const refused = await link.handle(laptop, 'publish', { ...TERM });
    expect(refused).toMatchObject({
      ok: true,
      value: {
        stored: false,
        status: 'refused',
        refused: [{ course_code: 'PHYS211', reason: expect.stringMatching(/Lecture Hall.*another department/) as string }],
      },
    });
    expect(JSON.stringify(refused)).not.toContain('ECE310');
    const onServer = async () =>
      json<{ course_code: string; start_time: string }[]>(
        await campus.api(`/scheduler/?year=${TERM.year}&semester=${TERM.semester}`, { headers: { 'x-termwise-department': 'PHYS' } }),
      );
    expect(await onServer()).toEqual([]);
    await fixClash();
    expect(await link.handle(laptop, 'publish', { ...TERM, dry_run: true })).toMatchObject({
      ok: true,
      value: { stored: false, status: 'preview', published: 2 },
    });
    expect(await onServer()).toEqual([]);
    expect(await link.handle(laptop, 'sync-counts', { ...TERM })).toMatchObject({ ok: true, value: { not_published: 2 } });
    expect(await link.handle(laptop, 'publish', { ...TERM })).toMatchObject({ ok: true, value: { stored: true, status: 'published', published: 2 } });
    expect(await link.handle(laptop, 'sync-counts', { ...TERM })).toMatchObject({ ok: true, value: { not_published: 0, server_changes: 0 } });
    expect((await onServer()).map((m) => `${m.course_code} ${m.start_time}`).sort()).toEqual(['PHYS211 13:00', 'PHYS212 09:00']);
  });

  it("fetches the server's term back to plan offline, and forgets the server when disconnected", async () => {
    await connect();
    await fixClash();
    expect(await link.handle(laptop, 'publish', { ...TERM })).toMatchObject({ ok: true, value: { stored: true, published: 2 } });
    const [first] = await json<{ id: number }[]>(await campus.api(`/scheduler/?year=${TERM.year}&semester=${TERM.semester}&department=PHYS`));
    expect((await campus.api(`/scheduler/${first?.id ?? 0}?department=PHYS`, { method: 'PATCH', json: { start_time: '15:00' } })).status).toBe(200);
    expect(await link.handle(laptop, 'sync-counts', { ...TERM })).toMatchObject({ ok: true, value: { not_published: 0, server_changes: 1 } });
    expect(await link.handle(laptop, 'fetch', { ...TERM })).toMatchObject({ ok: true, value: { stored: true, fetched: 1 } });
    expect((await laptop.run('schedule-list', TERM)).map((m) => m.start_time).sort()).toContain('15:00');
    expect(await link.handle(laptop, 'fetch', { year: 'soon' })).toMatchObject({
      ok: false,
      error: { message: expect.stringMatching(/Name the term/) as string },
    });
    const token = loadConnection(join(dir, 'campus-server.json'), box())?.token ?? '';
    expect((await fetch(`${campus.url}/me`, { headers: { authorization: `Bearer ${token}` } })).status).toBe(200);
    expect(await link.handle(laptop, 'disconnect', {})).toEqual({ ok: true, value: { connected: false, online: false, url: null } });
    // Disconnecting revokes the computer's token on the server, not only here.
    expect((await fetch(`${campus.url}/me`, { headers: { authorization: `Bearer ${token}` } })).status).toBe(401);
    expect(existsSync(join(dir, 'campus-server.json'))).toBe(false);
    expect(await link.handle(laptop, 'publish', { ...TERM })).toMatchObject({
      ok: false,
      error: { message: expect.stringMatching(/Connect to a campus server first/) as string },
    });
  });
});
