import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createCore, type Core } from '../../core/index';
import { testDatabase } from '../helpers/test-store';
import { startApi, type StartedApi } from '../../core/http/start';
import { json } from '../helpers/server';
import type { CoreEvent } from '../../core/events';

let dataDir: string;
let rendererDir: string;
let core: Core;
let database: Awaited<ReturnType<typeof testDatabase>>;
let api: StartedApi;
let token: string;

beforeEach(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'termwise-app-'));
  rendererDir = join(dataDir, 'renderer');
  mkdirSync(join(rendererDir, 'assets'), { recursive: true });
  writeFileSync(join(rendererDir, 'index.html'), '<!doctype html><title>Termwise</title>');
  writeFileSync(join(rendererDir, 'assets', 'app.js'), 'console.log(1)');
  database = await testDatabase();
  core = await createCore({ dataDir, databaseUrl: database.databaseUrl });
  api = await startApi(core, { port: 0, rendererDir, env: {} });
  token = core.context.access?.token() ?? '';
});
afterEach(async () => {
  await api.close();
  await core.close();
  await database.drop();
  rmSync(dataDir, { recursive: true, force: true });
});

const url = (path: string): string => new URL(path, api.url).href;
const bearer = (): Record<string, string> => ({ authorization: `Bearer ${token}` });

describe('renderer page and session', () => {
  it('serves the page and its assets without a token, and without handing out a session', async () => {
    const page = await fetch(url('/'));
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('<title>Termwise</title>');
    expect(page.headers.get('set-cookie')).toBeNull();
    expect((await fetch(url('/assets/app.js'))).status).toBe(200);
  });

  it('runs any operation by name over /rpc with JSON or multipart, with the same errors', async () => {
    const form = new FormData();
    form.append('file', new Blob([JSON.stringify([{ code: 'CSC201', name: 'Programming' }])]), 'c.json');
    const upload = await fetch(url('/rpc/courses-upload'), { method: 'POST', headers: bearer(), body: form });
    expect(await json(upload)).toMatchObject({ status: 'success', processed: 1 });
    const list = await fetch(url('/rpc/courses-list'), { method: 'POST', headers: { ...bearer(), 'content-type': 'application/json' }, body: '{}' });
    expect(await json(list)).toMatchObject([{ code: 'CSC201' }]);
    const unknown = await fetch(url('/rpc/nope'), { method: 'POST', headers: { ...bearer(), 'content-type': 'application/json' }, body: '{}' });
    expect(unknown.status).toBe(404);
    const invalid = await fetch(url('/rpc/schedule-create'), {
      method: 'POST',
      headers: { ...bearer(), 'content-type': 'application/json' },
      body: '{"day":"X"}',
    });
    expect(invalid.status).toBe(422);
  });

  it('streams progress events over Server-Sent Events', async () => {
    const controller = new AbortController();
    const response = await fetch(url('/events'), { headers: bearer(), signal: controller.signal });
    expect(response.headers.get('content-type')).toBe('text/event-stream');
    const reader = (response.body as ReadableStream<Uint8Array>).getReader();
    const event: CoreEvent = { type: 'progress', task: 'train', campus: 'Beirut', stage: 'fit', percent: 60 };
    setTimeout(() => core.events.emit(event), 50);
    let text = '';
    while (!text.includes('data:')) text += new TextDecoder().decode((await reader.read()).value);
    expect(JSON.parse(text.slice(text.indexOf('data:') + 5).trim())).toEqual(event);
    controller.abort();
  });
});

describe('settings, backup, restore and sample data', () => {
  it('shows the data folder, URL and token, and regenerates the token', async () => {
    const info = await json<Record<string, string>>(await fetch(url('/settings'), { headers: bearer() }));
    expect(info).toMatchObject({ data_dir: dataDir, api_url: api.url, api_token: token, token_source: join(dataDir, 'api-token'), token_regenerable: true });
    const renewed = await json<{ api_token: string }>(await fetch(url('/settings/token'), { method: 'POST', headers: bearer() }));
    expect(renewed.api_token).toMatch(/^[0-9a-f]{64}$/);
    expect(renewed.api_token).not.toBe(token);
    expect((await fetch(url('/data/courses'), { headers: bearer() })).status).toBe(401);
    expect((await fetch(url('/data/courses'), { headers: { authorization: `Bearer ${renewed.api_token}` } })).status).toBe(200);
  });

  it('offers no new token when TERMWISE_API_TOKEN fixes it, and refuses one asked for anyway', async () => {
    const fixed = 'f'.repeat(64);
    const pinned = await startApi(core, { port: 0, rendererDir, env: { TERMWISE_API_TOKEN: fixed } });
    try {
      const headers = { authorization: `Bearer ${fixed}` };
      const info = await json<Record<string, unknown>>(await fetch(new URL('settings', pinned.url), { headers }));
      expect(info).toMatchObject({ api_token: fixed, token_source: 'the TERMWISE_API_TOKEN environment variable', token_regenerable: false });
      const refused = await fetch(new URL('settings/token', pinned.url), { method: 'POST', headers });
      expect(refused.status).toBe(400);
      expect(await refused.json()).toEqual({ detail: 'The token is set by TERMWISE_API_TOKEN; change that variable instead' });
    } finally {
      await pinned.close();
    }
  });

  it('loads the sample data, backs it up, and restores the backup over later changes', async () => {
    const loaded = await json<Record<string, { processed: number }>>(await fetch(url('/data/sample'), { method: 'POST', headers: bearer() }));
    expect(loaded.courses?.processed).toBe(117);
    expect(loaded.doctors?.processed).toBe(30);
    const backup = await fetch(url('/data/backup'), { headers: bearer() });
    expect(backup.headers.get('content-disposition')).toMatch(/^attachment; filename=termwise-backup-\d{4}-\d\d-\d\d\.db$/);
    const bytes = new Uint8Array(await backup.arrayBuffer());
    await core.run('schedule-create', { course_code: 'CSC201', section_name: '1', doctor_id: 0, day: 'MW', start_time: '09:00', duration_mins: 60, room: 'A' });
    await core.context.db.deleteFrom('courses').execute();
    const form = new FormData();
    form.append('file', new Blob([bytes]), 'backup.db');
    const restored = await json<{ status: string; tables: Record<string, number> }>(
      await fetch(url('/data/restore'), { method: 'POST', headers: bearer(), body: form }),
    );
    expect(restored).toMatchObject({ status: 'restored', tables: { courses: 117, schedule_entries: 0, doctors: 30 } });
    expect(await core.run('schedule-list', {})).toEqual([]);
  });

  it('restores a backup taken before the migrations were run by the Migrator (no Migrator tables in it)', async () => {
    await core.run('sample-load', {});
    const taken = new Uint8Array(await (await fetch(url('/data/backup'), { headers: bearer() })).arrayBuffer());
    const dir = mkdtempSync(join(tmpdir(), 'termwise-old-backup-'));
    try {
      const file = join(dir, 'backup.db');
      writeFileSync(file, taken);
      const old = new Database(file);
      old.exec('DROP TABLE kysely_migration; DROP TABLE kysely_migration_lock;');
      old.close();
      await core.context.db.deleteFrom('courses').execute();
      const form = new FormData();
      form.append('file', new Blob([readFileSync(file)]), 'backup.db');
      const restored = await json<{ status: string; tables: Record<string, number> }>(
        await fetch(url('/data/restore'), { method: 'POST', headers: bearer(), body: form }),
      );
      expect(restored).toMatchObject({ status: 'restored', tables: { courses: 117, doctors: 30 } });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('refuses a file that is not a backup and changes nothing', async () => {
    await core.run('sample-load', {});
    const form = new FormData();
    form.append('file', new Blob(['not a database']), 'x.db');
    const response = await fetch(url('/data/restore'), { method: 'POST', headers: bearer(), body: form });
    expect(response.status).toBe(400);
    expect((await json<{ detail: string }>(response)).detail).toMatch(/not a Termwise database backup/);
    expect(await core.run('courses-list', {})).toHaveLength(117);
  });
});
