import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createElement, type ReactNode } from 'react';
import { act, cleanup, renderHook, waitFor } from '@testing-library/react';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { createCore, type Core } from '../../core/index';
import { dispatch } from '../../electron/ipc';
import type { TermwiseBridge } from '../../electron/bridge';
import { installPageWindow } from '../helpers/page-window';

// The page's window for React, beside Node's own globals (the core runs in this process, on Node's URL and timers).
const pageWindow = installPageWindow();

/**
 * The screens' controllers, through their hooks, against a real core reached the way the desktop
 * app reaches it (the preload's bridge: the IPC dispatch and the core's events): a refused write
 * shows the refusal and stores nothing; a write that succeeds reloads what it changed.
 */

let dir: string;
let core: Core;
/** The operations the page asked, in order. */
const asked: string[] = [];

const APP_FRAME = { url: 'app://termwise/index.html' };
/** The page's event listeners: each test's core sends them its events, as the main process forwards them. */
const pageListeners = new Set<(event: unknown) => void>();
/** While false, the core's events wait in `lateEvents` (over HTTP a change event can come after the write's answer). */
let deliverEvents = true;
const lateEvents: unknown[] = [];
const forward = (event: unknown): void => pageListeners.forEach((listener) => listener(event));
/** The next call of this operation is a slow load: answered by the core at once, handed to the page on `release`. */
let slowNext: string | null = null;
const slowAnswers: (() => void)[] = [];
const bridge: TermwiseBridge = {
  invoke: (operation, args) => {
    asked.push(operation);
    const answer = dispatch(core, APP_FRAME, operation, args);
    if (operation !== slowNext) return answer;
    slowNext = null;
    return answer.then((value) => new Promise((resolve) => slowAnswers.push(() => resolve(value))));
  },
  onEvent: (listener) => {
    pageListeners.add(listener);
    return () => pageListeners.delete(listener);
  },
  saveFile: (name) => Promise.resolve(name),
  campus: () => Promise.resolve({ ok: false, error: { code: 'invalid', message: 'no campus link in this test' } }),
};
(pageWindow as unknown as Window).termwise = bridge;

// The renderer's modules read the bridge when they load: they come after it.
const { QueryClientProvider } = await import('@tanstack/react-query');
const { notifications } = await import('@mantine/notifications');
const { followChanges, queryClient } = await import('../../renderer/src/api/live');
const { useDepartmentProfile } = await import('../../renderer/src/controllers/department-profile');
const { usePeople } = await import('../../renderer/src/controllers/people');
const { useTimetableSettings } = await import('../../renderer/src/controllers/settings');
const { useScheduleView } = await import('../../renderer/src/stores/schedule');
const { updateEntry, useTimetable } = await import('../../renderer/src/controllers/timetable');

const wrapper = ({ children }: { children: ReactNode }) => createElement(QueryClientProvider, { client: queryClient }, children);
const timesAsked = (operation: string): number => asked.filter((a) => a === operation).length;

let stopFollowing: () => void = () => undefined;
beforeAll(() => {
  // Every read follows the core's change events, as App.tsx has it.
  stopFollowing = followChanges();
});
afterAll(() => stopFollowing());

beforeEach(async () => {
  dir = mkdtempSync(join(tmpdir(), 'termwise-controllers-'));
  core = await createCore({ dataDir: dir });
  core.events.subscribe((event) => (deliverEvents ? forward(event) : lateEvents.push(event)));
  asked.length = 0;
  deliverEvents = true;
  lateEvents.length = 0;
  slowNext = null;
  slowAnswers.length = 0;
  // The page's client state starts afresh too (the term chosen on the Scheduler, the last refusal).
  useScheduleView.setState({ chosen: null, refusal: null });
});
afterEach(async () => {
  cleanup();
  queryClient.clear();
  vi.restoreAllMocks();
  await core.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('the Department profile controller', () => {
  it('shows a refused save beside the form and stores nothing; a save that succeeds reloads the stored profile', async () => {
    const { result } = renderHook(() => useDepartmentProfile(), { wrapper });
    await waitFor(() => expect(result.current.values).not.toBeNull());

    act(() => result.current.edit({ seats: 0 }));
    await act(() => result.current.save());
    expect(result.current.problem).toMatch(/^section_size: /);
    expect(result.current.values?.seats).toBe(0);
    expect((await core.run('profile-get', {})).section_size).toBeUndefined();

    const loads = timesAsked('profile-get');
    act(() => result.current.edit({ seats: 55, sizes: 'phys211 200' }));
    await act(() => result.current.save());
    expect(result.current.problem).toBeNull();
    expect(await core.run('profile-get', {})).toMatchObject({ section_size: 55, section_sizes: { PHYS211: 200 } });
    // The change event loads the profile again, and the form shows what is stored.
    await waitFor(() => expect(timesAsked('profile-get')).toBeGreaterThan(loads));
    await waitFor(() => expect(result.current.values).toMatchObject({ seats: 55, sizes: 'PHYS211 200' }));
  });

  it('refuses a line of sizes it cannot read before asking the core', async () => {
    const { result } = renderHook(() => useDepartmentProfile(), { wrapper });
    await waitFor(() => expect(result.current.values).not.toBeNull());
    const before = asked.length;
    act(() => result.current.edit({ sizes: 'PHYS211 two hundred' }));
    await act(() => result.current.save());
    expect(result.current.problem).toContain('"PHYS211 two hundred"');
    expect(asked.slice(before)).not.toContain('profile-update');
  });
});

describe('the People controller', () => {
  it('shows a refused person in words and keeps the draft; an added one clears it and the list loads again', async () => {
    const { result } = renderHook(() => usePeople(true), { wrapper });
    await waitFor(() => expect(timesAsked('people-list')).toBe(1));
    const listed = result.current.people.length;

    act(() => result.current.edit({ login: 'x', name: 'Maya Khoury', role: 'registrar', password: 'correct horse battery staple' }));
    await act(() => result.current.add());
    expect(result.current.problem).toMatch(/login/);
    expect(result.current.draft.name).toBe('Maya Khoury');

    const show = vi.spyOn(notifications, 'show');
    act(() => result.current.edit({ login: 'maya.k' }));
    await act(() => result.current.add());
    expect(result.current.problem).toBeNull();
    expect(result.current.draft.name).toBe('');
    expect(show).toHaveBeenCalledWith(expect.objectContaining({ title: 'Person added' }));
    await waitFor(() => expect(result.current.people.map((p) => p.login)).toContain('maya.k'));
    expect(result.current.people.length).toBe(listed + 1);
  });
});

describe('the timetable settings controller', () => {
  it('says why settings were not saved and keeps the stored ones; saved settings open the Scheduler on the new term', async () => {
    const { result } = renderHook(() => useTimetableSettings(), { wrapper });
    await waitFor(() => expect(result.current.values).not.toBeUndefined());
    const stored = await core.run('schedule-settings', {});

    const show = vi.spyOn(notifications, 'show');
    act(() => result.current.edit({ travel: -5 }));
    await act(() => result.current.save());
    expect(show).toHaveBeenCalledWith(
      expect.objectContaining({ color: 'red', title: 'Settings not saved', message: expect.stringMatching(/travel_minutes/) as unknown }),
    );
    expect((await core.run('schedule-settings', {})).travel_minutes).toBe(stored.travel_minutes);

    const loads = timesAsked('schedule-settings');
    const next = { year: stored.current_term.year + 1, semester: 'Spring' as const };
    act(() => result.current.edit({ term: next, travel: 25 }));
    await act(() => result.current.save());
    expect(await core.run('schedule-settings', {})).toMatchObject({ current_term: next, travel_minutes: 25 });
    expect(useScheduleView.getState().chosen).toEqual(next);
    await waitFor(() => expect(timesAsked('schedule-settings')).toBeGreaterThan(loads));
    await waitFor(() => expect(result.current.settings).toMatchObject({ current_term: next, travel_minutes: 25 }));
  });
});

describe('the timetable controller', () => {
  it('refuses a clashing move with the rule in words and leaves the meeting where it was; a stored move shows at once', async () => {
    await core.run('sample-load', {});
    const meeting = { course_code: 'CSC201', doctor_id: 0, day: 'MW', duration_mins: 60, room: 'R101' } as const;
    await core.run('schedule-create', { ...meeting, section_name: '1', start_time: '09:00' });
    const second = await core.run('schedule-create', { ...meeting, section_name: '2', start_time: '11:00' });
    const { result } = renderHook(() => useTimetable(), { wrapper });
    await waitFor(() => expect(result.current.entries).toHaveLength(2));
    const startOf = (): string | undefined => result.current.entries.find((e) => e.id === second.id)?.start_time;

    await expect(updateEntry({ entry_id: second.id, start_time: '09:00' })).rejects.toThrow(/R101/);
    expect(startOf()).toBe('11:00');
    expect((await core.run('schedule-list', {})).find((e) => e.id === second.id)?.start_time).toBe('11:00');

    useScheduleView.getState().refuse(second.id, 'an earlier refusal');
    // Shown from the write's own answer, its change event held back: nothing loads the timetable again.
    const loads = timesAsked('schedule-list');
    deliverEvents = false;
    await act(() => updateEntry({ entry_id: second.id, start_time: '13:00' }));
    await waitFor(() => expect(startOf()).toBe('13:00'));
    expect(useScheduleView.getState().refusal).toBeNull();
    expect(timesAsked('schedule-list')).toBe(loads);
    act(() => lateEvents.splice(0).forEach(forward));
    await waitFor(() => expect(timesAsked('schedule-list')).toBe(loads + 1));
    expect(startOf()).toBe('13:00');

    // The change event before the answer (as over IPC): its load is the write's only one.
    deliverEvents = true;
    await act(() => updateEntry({ entry_id: second.id, start_time: '15:00' }));
    await waitFor(() => expect(startOf()).toBe('15:00'));
    // Counted once nothing is loading, so a second load the write started would be counted too.
    await waitFor(() => expect(queryClient.isFetching()).toBe(0));
    expect(timesAsked('schedule-list')).toBe(loads + 2);

    // A second move sent while the first is on its way: the screen and the store end at the second.
    await act(() => Promise.all([updateEntry({ entry_id: second.id, start_time: '16:00' }), updateEntry({ entry_id: second.id, start_time: '17:00' })]));
    await waitFor(() => expect(startOf()).toBe('17:00'));
    expect((await core.run('schedule-list', {})).find((e) => e.id === second.id)?.start_time).toBe('17:00');
  });

  it('keeps a stored move on screen when a load asked before the write answers after it', async () => {
    await core.run('sample-load', {});
    const meeting = { course_code: 'CSC201', doctor_id: 0, day: 'MW', duration_mins: 60, room: 'R101' } as const;
    const second = await core.run('schedule-create', { ...meeting, section_name: '1', start_time: '11:00' });
    const { result } = renderHook(() => useTimetable(), { wrapper });
    await waitFor(() => expect(result.current.entries).toHaveLength(1));
    const startOf = (): string | undefined => result.current.entries.find((e) => e.id === second.id)?.start_time;

    // A script adds a meeting: the page loads the timetable again, read at once and slow to arrive.
    slowNext = 'schedule-list';
    await core.run('schedule-create', { ...meeting, section_name: '2', start_time: '15:00' });
    await waitFor(() => expect(slowAnswers).toHaveLength(1));
    // The page moves its meeting; the write's change event comes after its answer and the slow load's.
    deliverEvents = false;
    await act(() => updateEntry({ entry_id: second.id, start_time: '13:00' }));
    await act(async () => {
      slowAnswers.splice(0).forEach((release) => release());
      await new Promise((resolve) => setTimeout(resolve, 20));
    });
    expect(startOf()).toBe('13:00');
    // What the slow load was asked for is not lost: the page asked again.
    await waitFor(() => expect(result.current.entries).toHaveLength(2));
    expect(startOf()).toBe('13:00');
  });
});
