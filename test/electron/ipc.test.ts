import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createCore, type Core } from '../../core/index';
import { dispatch, isTrustedSender, registerIpc } from '../../electron/ipc';
import { EVENT_CHANNEL, INVOKE_CHANNEL } from '../../electron/bridge';

let dir: string;
let core: Core;
beforeEach(async () => {
  dir = mkdtempSync(join(tmpdir(), 'termwise-ipc-'));
  core = await createCore({ dataDir: dir });
});
afterEach(async () => {
  await core.close();
  rmSync(dir, { recursive: true, force: true });
});

const appFrame = { url: 'app://termwise/index.html#/scheduler' };

describe('IPC dispatch', () => {
  it('checks the sender frame', () => {
    expect(isTrustedSender(appFrame)).toBe(true);
    expect(isTrustedSender({ url: 'https://evil.example/' })).toBe(false);
    expect(isTrustedSender(null)).toBe(false);
    expect(isTrustedSender(undefined)).toBe(false);
  });

  it('runs operations for the app page through the same handlers as REST', async () => {
    const created = await dispatch(core, appFrame, 'doctors-create', { name: 'Dr. Rana Haddad', available_days: 'MWF', available_time: '08:00-14:00' });
    expect(created).toMatchObject({ ok: true, value: { name: 'Dr. Rana Haddad' } });
    expect(await dispatch(core, appFrame, 'doctors-list', {})).toMatchObject({ ok: true, value: [{ name: 'Dr. Rana Haddad' }] });
  });

  it('refuses other senders without running anything', async () => {
    const result = await dispatch(core, { url: 'https://evil.example/' }, 'doctors-create', { name: 'X' });
    expect(result).toEqual({ ok: false, error: { code: 'unauthorized', message: expect.any(String) as string } });
    expect(await core.run('doctors-list', {})).toEqual([]);
  });

  it('returns core errors as data with their code, fields and conflicts', async () => {
    const invalid = await dispatch(core, appFrame, 'schedule-create', {
      course_code: 'CSC201',
      section_name: '1',
      day: 'XX',
      start_time: '09:00',
      duration_mins: 60,
    });
    expect(invalid).toMatchObject({ ok: false, error: { code: 'validation', details: { fields: [{ field: 'day' }] } } });
    const body = { course_code: 'CSC201', section_name: '1', doctor_id: 0, day: 'MW', start_time: '09:00', duration_mins: 60, room: 'A' };
    await dispatch(core, appFrame, 'schedule-create', body);
    const clash = await dispatch(core, appFrame, 'schedule-create', { ...body, section_name: '2' });
    expect(clash).toMatchObject({
      ok: false,
      error: { code: 'conflict', details: { conflicts: ['Room A is already booked by CSC201 section 1 on Monday and Wednesday 09:00-10:00'] } },
    });
    expect(await dispatch(core, appFrame, 'no-such-operation', {})).toMatchObject({ ok: false, error: { code: 'not_found' } });
    expect(await dispatch(core, appFrame, 42, {})).toMatchObject({ ok: false, error: { code: 'validation' } });
  });

  it('registers one invoke channel and forwards core events to the window', async () => {
    const handlers = new Map<string, (...args: unknown[]) => unknown>();
    const sent: [string, unknown][] = [];
    const ipcMain = {
      handle: (channel: string, fn: (...args: unknown[]) => unknown) => handlers.set(channel, fn),
      removeHandler: (channel: string) => handlers.delete(channel),
    };
    const window = { isDestroyed: () => false, webContents: { send: (channel: string, payload: unknown) => sent.push([channel, payload]) } };
    const dispose = registerIpc(ipcMain as never, {} as never, core, window as never);
    const invoke = handlers.get(INVOKE_CHANNEL);
    expect(await invoke?.({ senderFrame: appFrame }, 'courses-list', {})).toEqual({ ok: true, value: [] });
    expect(await invoke?.({ senderFrame: { url: 'https://evil.example' } }, 'courses-list', {})).toMatchObject({ ok: false });
    core.events.emit({ type: 'progress', task: 'train', stage: 'fit', percent: 50 });
    expect(sent).toEqual([[EVENT_CHANNEL, { type: 'progress', task: 'train', stage: 'fit', percent: 50 }]]);
    dispose();
    expect(handlers.size).toBe(0);
  });
});
