import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { ScheduleEntry } from '../../core/timetable/schema';
import { createCore, type Core } from '../../core/index';
import { CampusServer, fetchTerm, publishTerm } from '../../electron/campus';
import type { MeetingState, TermChange } from '../../core/domain/meeting-changes';
import { json, startTestServer, TEST_TOKEN, type TestServer } from '../helpers/server';
import { FIRST_DEPARTMENT } from '../../core/departments';

/**
 * The write gate, as planning offline and together meets it: a laptop (a real core on its own
 * SQLite file, driven as the desktop app drives it, electron/campus.ts) and a campus server (a real
 * server, on SQLite and again on PostgreSQL). Every change to a meeting goes through one path that
 * holds what it touches before it reads, checks, writes and records: nothing a person wrote is lost
 * unless a person chose it, and a meeting is named by its id and its term.
 */
const FALL = { year: 2027, semester: 'Fall' } as const;
const SPRING = { year: 2028, semester: 'Spring' } as const;
type TermArgs = typeof FALL | typeof SPRING;
const query = (term: TermArgs): string => `year=${term.year}&semester=${term.semester}`;

/** A meeting as the timetable answers it. */
type Meeting = ScheduleEntry;

interface Booked {
  course_code: string;
  section_name?: string;
  day?: string;
  start_time: string;
  room?: string;
}

const book = (term: TermArgs, body: Booked) => ({ ...term, section_name: '1', day: 'MWF', duration_mins: 50, room: 'TBD', ...body });

/** A campus server with one department, a colleague planning online, and a laptop linked to it as the desktop app links. */
interface Campus {
  server: TestServer;
  /** The department's id on the server. */
  department: number;
  laptop: Core;
  link: CampusServer;
  colleague: (path: string, init?: RequestInit & { json?: unknown }) => Promise<Response>;
  colleagueBooks: (term: TermArgs, body: Booked) => Promise<Meeting>;
  laptopBooks: (term: TermArgs, body: Booked) => Promise<Meeting>;
  onServer: (term: TermArgs) => Promise<Meeting[]>;
  onLaptop: (term: TermArgs) => Promise<Meeting[]>;
  close: () => Promise<void>;
}

async function signIn(server: TestServer, login: string, department: number): Promise<string> {
  const password = `${login} long passphrase`;
  const created = await server.api('/people', {
    method: 'POST',
    json: { login, name: `${login} planner`, role: 'scheduler', department_id: department, password },
  });
  expect(created.status, await created.clone().text()).toBe(200);
  const token = await fetch(`${server.url}/session/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ login, password, label: 'script' }),
  });
  return (await json<{ token: string }>(token)).token;
}

/**
 * The colleague plans with the server's own token (the registrar, in the first department); the
 * laptop is linked with it too, as the desktop app links with a token. No password is hashed: each
 * test makes its own campus quickly.
 */
async function openCampus(): Promise<Campus> {
  const server = await startTestServer();
  const dir = mkdtempSync(join(tmpdir(), 'termwise-gate-'));
  const laptop = await createCore({ dataDir: join(dir, 'laptop') });
  const link = new CampusServer({ url: `${server.url}/`, token: TEST_TOKEN });
  const colleague: Campus['colleague'] = (path, init = {}) => server.api(path, init);
  return {
    server,
    department: FIRST_DEPARTMENT,
    laptop,
    link,
    colleague,
    colleagueBooks: async (term, body) => {
      const response = await colleague('/scheduler/', { method: 'POST', json: book(term, body) });
      expect(response.status, await response.clone().text()).toBe(200);
      return json<Meeting>(response);
    },
    laptopBooks: (term, body) => laptop.run('schedule-create', book(term, body)),
    onServer: async (term) => json<Meeting[]>(await colleague(`/scheduler/?${query(term)}`)),
    onLaptop: async (term) => await laptop.run('schedule-list', term),
    close: async () => {
      await laptop.close();
      await server.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** Runs a test on a campus of its own, closed whatever happens. */
async function onCampus(test: (campus: Campus) => Promise<void>): Promise<void> {
  const campus = await openCampus();
  try {
    await test(campus);
  } finally {
    await campus.close();
  }
}

const labels = (meetings: readonly Meeting[]): string[] => meetings.map((m) => `${m.course_code} §${m.section_name} ${m.day} ${m.start_time} ${m.room}`).sort();
const find = (meetings: readonly Meeting[], course: string): Meeting => {
  const found = meetings.find((m) => m.course_code === course);
  if (!found) throw new Error(`${course} is not in ${labels(meetings).join(', ')}`);
  return found;
};

async function history(campus: Campus, term: TermArgs): Promise<TermChange[]> {
  return (await json<{ changes: TermChange[] }>(await campus.colleague(`/scheduler/history?${query(term)}`))).changes;
}

describe('a first fetch of a term both sides planned', () => {
  it('matches the same meeting, keeps its history with it, and publishes the rest: no refusal, no second copy', () =>
    onCampus(async (campus) => {
      await campus.colleagueBooks(FALL, { course_code: 'MTH150', start_time: '10:00' });
      await campus.laptopBooks(FALL, { course_code: 'MTH150', start_time: '10:00' });
      await campus.laptopBooks(FALL, { course_code: 'MTH151', start_time: '11:00' });
      expect(await publishTerm(campus.laptop, campus.link, FALL)).toMatchObject({ stored: true, status: 'published' });
      expect(labels(await campus.onServer(FALL))).toEqual(['MTH150 §1 MWF 10:00 TBD', 'MTH151 §1 MWF 11:00 TBD']);
      // The laptop's own record of MTH150 now names the server's id: the next publish is not refused.
      await campus.laptop.run('schedule-update', { entry_id: find(await campus.onLaptop(FALL), 'MTH151').id, start_time: '12:00' });
      expect(await publishTerm(campus.laptop, campus.link, FALL)).toMatchObject({ stored: true, status: 'published', published: 1 });
      expect(labels(await campus.onServer(FALL))).toEqual(['MTH150 §1 MWF 10:00 TBD', 'MTH151 §1 MWF 12:00 TBD']);
      expect(labels(await campus.onLaptop(FALL))).toEqual(labels(await campus.onServer(FALL)));
      const uids = (meetings: Meeting[]): string[] => meetings.map((m) => m.uid).sort();
      expect(uids(await campus.onLaptop(FALL))).toEqual(uids(await campus.onServer(FALL)));
    }));

  it('lists what the two copies disagree on as a conflict, never an overwrite; once chosen, one copy is stored', () =>
    onCampus(async (campus) => {
      await campus.colleagueBooks(FALL, { course_code: 'MTH150', start_time: '10:00', room: 'Hall A' });
      await campus.laptopBooks(FALL, { course_code: 'MTH150', start_time: '10:00', room: 'Hall B' });
      const outcome = await publishTerm(campus.laptop, campus.link, FALL);
      expect(outcome).toMatchObject({
        stored: false,
        status: 'conflicts',
        conflicts: [{ course_code: 'MTH150', yours: { room: 'Hall B' }, theirs: { room: 'Hall A' } }],
      });
      // Nothing was overwritten on either side.
      expect(find(await campus.onLaptop(FALL), 'MTH150').room).toBe('Hall B');
      expect(find(await campus.onServer(FALL), 'MTH150').room).toBe('Hall A');
      const [conflict] = outcome.conflicts;
      const settled = await publishTerm(campus.laptop, campus.link, FALL, {
        choices: { [conflict?.meeting_uid ?? '']: { choice: 'mine', seen_change_id: conflict?.their_change?.id ?? null } },
      });
      expect(settled).toMatchObject({ stored: true, status: 'published' });
      expect(labels(await campus.onServer(FALL))).toEqual(['MTH150 §1 MWF 10:00 Hall B']);
      expect(labels(await campus.onLaptop(FALL))).toEqual(['MTH150 §1 MWF 10:00 Hall B']);
    }));
});

describe('a meeting moved to another term', () => {
  it('is one change naming both terms; undoing it puts the meeting back in its term, once', () =>
    onCampus(async (campus) => {
      const meeting = await campus.colleagueBooks(FALL, { course_code: 'MTH210', start_time: '09:00' });
      const moved = await campus.colleague(`/scheduler/${meeting.id}`, { method: 'PATCH', json: { ...SPRING, start_time: '13:00' } });
      expect(moved.status, await moved.clone().text()).toBe(200);
      expect(await campus.onServer(FALL)).toEqual([]);
      const [change] = await history(campus, SPRING);
      expect(change).toMatchObject({ before: { ...FALL, start_time: '09:00' }, after: { ...SPRING, start_time: '13:00' } });
      expect(change?.summary).toMatch(/term Fall 2027 → Spring 2028/);
      expect((await history(campus, FALL))[0]).toMatchObject({ id: expect.any(Number) as number, before: { ...FALL }, after: { ...SPRING } });
      const undone = await campus.colleague('/scheduler/history/undo', { method: 'POST', json: { change_id: change?.id } });
      expect(undone.status, await undone.clone().text()).toBe(200);
      expect(await json(undone)).toMatchObject({ undone: 1 });
      expect(labels(await campus.onServer(FALL))).toEqual(['MTH210 §1 MWF 09:00 TBD']);
      expect(await campus.onServer(SPRING)).toEqual([]);
      expect(find(await campus.onServer(FALL), 'MTH210').uid).toBe(meeting.uid);
    }));

  it('undone by its batch, the same', () =>
    onCampus(async (campus) => {
      const meeting = await campus.colleagueBooks(FALL, { course_code: 'MTH211', start_time: '09:00' });
      expect((await campus.colleague(`/scheduler/${meeting.id}`, { method: 'PATCH', json: { ...SPRING } })).status).toBe(200);
      const [change] = await history(campus, FALL);
      const undone = await campus.colleague('/scheduler/history/undo', { method: 'POST', json: { batch: change?.batch } });
      expect(undone.status, await undone.clone().text()).toBe(200);
      expect(labels(await campus.onServer(FALL))).toEqual(['MTH211 §1 MWF 09:00 TBD']);
      expect(await campus.onServer(SPRING)).toEqual([]);
    }));

  it('moved on the laptop and published term by term, in either order, is in the new term on both sides', async () => {
    for (const order of [
      [FALL, SPRING],
      [SPRING, FALL],
    ] as const) {
      await onCampus(async (campus) => {
        await campus.colleagueBooks(FALL, { course_code: 'MTH220', start_time: '09:00' });
        expect(await fetchTerm(campus.laptop, campus.link, FALL)).toMatchObject({ stored: true });
        expect(await fetchTerm(campus.laptop, campus.link, SPRING)).toMatchObject({ stored: true });
        await campus.laptop.run('schedule-update', { entry_id: find(await campus.onLaptop(FALL), 'MTH220').id, ...SPRING, start_time: '14:00' });
        const first = await publishTerm(campus.laptop, campus.link, order[0]);
        if (order[0] === SPRING) {
          // Spring cannot change what the server holds in Fall: said in words, and nothing stored.
          expect(first).toMatchObject({
            stored: false,
            status: 'refused',
            refused: [{ course_code: 'MTH220', reason: expect.stringMatching(/publish Fall 2027 first/) as string }],
          });
          expect(await publishTerm(campus.laptop, campus.link, FALL)).toMatchObject({ stored: true });
          expect(await publishTerm(campus.laptop, campus.link, SPRING)).toMatchObject({ stored: true });
        } else {
          expect(first).toMatchObject({ stored: true });
          expect(await publishTerm(campus.laptop, campus.link, SPRING)).toMatchObject({ stored: true });
        }
        for (const side of [campus.onServer, campus.onLaptop]) {
          expect(await side(FALL)).toEqual([]);
          expect(labels(await side(SPRING))).toEqual(['MTH220 §1 MWF 14:00 TBD']);
        }
      });
    }
  });

  it('moved there and back on the laptop, then edited, publishes both terms: the term it left has nothing left to do', () =>
    onCampus(async (campus) => {
      await campus.colleagueBooks(FALL, { course_code: 'MTH225', start_time: '09:00' });
      await fetchTerm(campus.laptop, campus.link, FALL);
      await fetchTerm(campus.laptop, campus.link, SPRING);
      const id = find(await campus.onLaptop(FALL), 'MTH225').id;
      await campus.laptop.run('schedule-update', { entry_id: id, ...SPRING });
      await campus.laptop.run('schedule-update', { entry_id: id, ...FALL });
      await campus.laptop.run('schedule-update', { entry_id: id, start_time: '10:00' });
      expect(await publishTerm(campus.laptop, campus.link, FALL)).toMatchObject({ stored: true });
      expect(await publishTerm(campus.laptop, campus.link, SPRING)).toMatchObject({ stored: true });
      expect(labels(await campus.onServer(FALL))).toEqual(['MTH225 §1 MWF 10:00 TBD']);
      expect(await campus.onServer(SPRING)).toEqual([]);
      expect(labels(await campus.onLaptop(FALL))).toEqual(['MTH225 §1 MWF 10:00 TBD']);
    }));

  it('fetched while this computer changed it in the other term is a conflict, not an overwrite', () =>
    onCampus(async (campus) => {
      const meeting = await campus.colleagueBooks(FALL, { course_code: 'MTH230', start_time: '09:00' });
      await fetchTerm(campus.laptop, campus.link, FALL);
      await fetchTerm(campus.laptop, campus.link, SPRING);
      expect((await campus.colleague(`/scheduler/${meeting.id}`, { method: 'PATCH', json: { ...SPRING } })).status).toBe(200);
      await campus.laptop.run('schedule-update', { entry_id: find(await campus.onLaptop(FALL), 'MTH230').id, start_time: '15:00' });
      const outcome = await fetchTerm(campus.laptop, campus.link, SPRING);
      expect(outcome).toMatchObject({ stored: false, status: 'conflicts', conflicts: [{ course_code: 'MTH230', yours: { start_time: '15:00' } }] });
      expect(find(await campus.onLaptop(FALL), 'MTH230').start_time).toBe('15:00');
    }));

  it('a publish for one term that names a meeting of another is refused, the other term untouched', () =>
    onCampus(async (campus) => {
      const meeting = await campus.colleagueBooks(FALL, { course_code: 'MTH240', start_time: '09:00' });
      const [created] = await history(campus, FALL);
      const after = { ...(created?.after as MeetingState), start_time: '16:00' };
      delete after.year;
      delete after.semester;
      const revision = (await json<{ revision: number }>(await campus.colleague(`/scheduler/revision?${query(SPRING)}`))).revision;
      const response = await campus.colleague('/scheduler/terms/publish-changes', {
        method: 'POST',
        json: { ...SPRING, base_revision: revision, key: 'spring-names-fall-1', changes: [{ meeting_uid: meeting.uid, after, operation: 'move' }] },
      });
      expect(response.status, await response.clone().text()).toBe(200);
      expect(await json(response)).toMatchObject({ stored: false, status: 'refused' });
      expect(labels(await campus.onServer(FALL))).toEqual(['MTH240 §1 MWF 09:00 TBD']);
    }));

  it('undoing an import that spanned two terms is refused when a meeting was moved later in the second term', () =>
    onCampus(async (campus) => {
      const csv = ['Course,Section,Days,Start Time,Duration,Room,Term', 'MTH250,1,MWF,09:00,50,TBD,Fall 2027', 'MTH251,1,TR,10:00,75,TBD,Spring 2028'].join(
        '\n',
      );
      const form = new FormData();
      form.append('dry_run', 'false');
      form.append('file', new Blob([csv]), 'listing.csv');
      const imported = await campus.colleague('/scheduler/import', { method: 'POST', body: form });
      expect(imported.status, await imported.clone().text()).toBe(200);
      const spring = find(await campus.onServer(SPRING), 'MTH251');
      expect((await campus.colleague(`/scheduler/${spring.id}`, { method: 'PATCH', json: { start_time: '13:00' } })).status).toBe(200);
      const batch = (await history(campus, FALL)).find((c) => c.course_code === 'MTH250')?.batch;
      const undo = await campus.colleague('/scheduler/history/undo', { method: 'POST', json: { batch } });
      expect(undo.status).toBe(400);
      expect((await json<{ detail: string }>(undo)).detail).toMatch(/MTH251 section 1 was changed after it/);
      expect(labels(await campus.onServer(SPRING))).toEqual(['MTH251 §1 TR 13:00 TBD']);
      expect(labels(await campus.onServer(FALL))).toEqual(['MTH250 §1 MWF 09:00 TBD']);
    }));
});

describe('a person’s choice in a conflict', () => {
  it('names the version they saw: kept over a version changed again since, it is a new conflict', () =>
    onCampus(async (campus) => {
      const meeting = await campus.colleagueBooks(FALL, { course_code: 'MTH300', start_time: '09:00' });
      await fetchTerm(campus.laptop, campus.link, FALL);
      expect((await campus.colleague(`/scheduler/${meeting.id}`, { method: 'PATCH', json: { start_time: '11:00' } })).status).toBe(200);
      await campus.laptop.run('schedule-update', { entry_id: find(await campus.onLaptop(FALL), 'MTH300').id, start_time: '14:00' });
      const shown = await publishTerm(campus.laptop, campus.link, FALL);
      expect(shown).toMatchObject({ status: 'conflicts', conflicts: [{ theirs: { start_time: '11:00' } }] });
      const [conflict] = shown.conflicts;
      const choice = { choice: 'mine' as const, seen_change_id: conflict?.their_change?.id ?? null };
      // The colleague moves it again before the laptop's person has decided.
      expect((await campus.colleague(`/scheduler/${meeting.id}`, { method: 'PATCH', json: { start_time: '16:00' } })).status).toBe(200);
      const again = await publishTerm(campus.laptop, campus.link, FALL, { choices: { [meeting.uid]: choice } });
      expect(again).toMatchObject({ stored: false, status: 'conflicts', conflicts: [{ theirs: { start_time: '16:00' } }] });
      expect(find(await campus.onServer(FALL), 'MTH300').start_time).toBe('16:00');
      // Chosen against the version now shown, it holds.
      const seen = again.conflicts[0]?.their_change?.id ?? null;
      expect(await publishTerm(campus.laptop, campus.link, FALL, { choices: { [meeting.uid]: { choice: 'mine', seen_change_id: seen } } })).toMatchObject({
        stored: true,
      });
      expect(find(await campus.onServer(FALL), 'MTH300').start_time).toBe('14:00');
    }));

  it('on the server, "keep mine" against an older version of theirs is a conflict', () =>
    onCampus(async (campus) => {
      const meeting = await campus.colleagueBooks(FALL, { course_code: 'MTH301', start_time: '09:00' });
      const base = (await json<{ revision: number }>(await campus.colleague(`/scheduler/revision?${query(FALL)}`))).revision;
      const [created] = await history(campus, FALL);
      expect((await campus.colleague(`/scheduler/${meeting.id}`, { method: 'PATCH', json: { start_time: '11:00' } })).status).toBe(200);
      const [seen] = await history(campus, FALL);
      expect((await campus.colleague(`/scheduler/${meeting.id}`, { method: 'PATCH', json: { start_time: '16:00' } })).status).toBe(200);
      const mine = { ...(created?.after as MeetingState), start_time: '14:00' };
      const publish = (key: string, seenId: number) =>
        campus.colleague('/scheduler/terms/publish-changes', {
          method: 'POST',
          json: {
            ...FALL,
            base_revision: base,
            key,
            changes: [{ meeting_uid: meeting.uid, after: mine, operation: 'move' }],
            keep_mine: [{ meeting_uid: meeting.uid, seen_change_id: seenId }],
          },
        });
      expect(await json(await publish('keep-mine-older-1', seen?.id ?? 0))).toMatchObject({
        stored: false,
        status: 'conflicts',
        conflicts: [{ theirs: { start_time: '16:00' } }],
      });
      const latest = (await history(campus, FALL))[0]?.id ?? 0;
      expect(await json(await publish('keep-mine-latest-1', latest))).toMatchObject({ stored: true, status: 'published' });
      expect(find(await campus.onServer(FALL), 'MTH301').start_time).toBe('14:00');
    }));
});

/** Another scheduler of the campus's department, calling as themselves. */
async function personOf(campus: Campus, login: string): Promise<Campus['colleague']> {
  const token = await signIn(campus.server, login, campus.department);
  return (path, init = {}) => campus.server.api(path, { ...init, headers: { authorization: `Bearer ${token}` } });
}

describe('an idempotency key', () => {
  it('answers again only the request it was sent for: another term, body or person is refused in words', () =>
    onCampus(async (campus) => {
      const created = (uid: string, course: string) => ({
        meeting_uid: uid,
        operation: 'create',
        after: {
          uid,
          course_code: course,
          section_name: '1',
          day: 'MW',
          start_time: '09:00',
          duration_mins: 50,
          room: 'TBD',
          part_of_term: '1',
          joint_group: null,
          campus: 'Beirut',
          instructors: [],
          locked: false,
        },
      });
      const publish = (term: TermArgs, changes: unknown[], as = campus.colleague) =>
        as('/scheduler/terms/publish-changes', { method: 'POST', json: { ...term, base_revision: 0, key: 'key-bound-to-request', changes } });
      const first = await publish(FALL, [created('keyedmeeting1', 'MTH400')]);
      expect(await json(first)).toMatchObject({ stored: true, replayed: false, applied: 1 });
      // The same request again: answered as the first time, applied once.
      expect(await json(await publish(FALL, [created('keyedmeeting1', 'MTH400')]))).toMatchObject({ stored: true, replayed: true });
      for (const [refused, words] of [
        [await publish(SPRING, [created('keyedmeeting1', 'MTH400')]), /for Fall 2027/],
        [await publish(FALL, [created('keyedmeeting2', 'MTH401')]), /with other changes/],
        [await publish(FALL, [created('keyedmeeting1', 'MTH400')], await personOf(campus, 'second')), /by another person/],
      ] as const) {
        expect(refused.status).toBe(400);
        expect((await json<{ detail: string }>(refused)).detail).toMatch(words);
      }
      expect(labels(await campus.onServer(FALL))).toEqual(['MTH400 §1 MW 09:00 TBD']);
      expect(await campus.onServer(SPRING)).toEqual([]);
    }));
});

describe("the desktop app's own sync operations", () => {
  it('are not served by a server, over REST or by name', () =>
    onCampus(async (campus) => {
      for (const [path, init] of [
        ['/scheduler/sync?year=2027&semester=Fall', { method: 'GET' }],
        ['/scheduler/sync/rebase', { method: 'POST', json: { ...FALL, server: { ...FALL, revision: 0, complete: true, meetings: [] } } }],
        ['/scheduler/sync/published', { method: 'POST', json: { ...FALL, through: 1 } }],
        ['/rpc/schedule-sync-rebase', { method: 'POST', json: { ...FALL, server: { ...FALL, revision: 0, complete: true, meetings: [] } } }],
        ['/rpc/schedule-sync-status', { method: 'POST', json: FALL }],
        ['/rpc/schedule-sync-published', { method: 'POST', json: { ...FALL, through: 1 } }],
      ] as const) {
        for (const as of [campus.colleague, (at: string, asked: RequestInit & { json?: unknown }) => campus.server.api(at, asked)]) {
          const response = await as(path, init);
          expect(response.status, path).toBe(404);
          expect((await json<{ detail: string }>(response)).detail, path).toMatch(/No such endpoint|a server does not serve it/);
        }
      }
      // The laptop's own copy answers them.
      expect(await campus.laptop.run('schedule-sync-status', FALL)).toMatchObject({ base_revision: null, pending: [] });
    }));
});

describe('inputs of the write path', () => {
  it('take revisions and change ids as whole numbers only', () =>
    onCampus(async (campus) => {
      for (const base of [null, true, [], '', '3', 1.5, -1]) {
        const response = await campus.colleague('/scheduler/terms/publish-changes', {
          method: 'POST',
          json: { ...FALL, base_revision: base, key: 'strict-revision-key', changes: [] },
        });
        expect(response.status, JSON.stringify(base)).toBe(422);
        expect(JSON.stringify(await json(response))).toMatch(/base_revision/);
      }
      await campus.colleagueBooks(FALL, { course_code: 'MTH500', start_time: '09:00' });
      for (const id of [[72], true, '1', null, 0]) {
        const response = await campus.colleague('/scheduler/history/undo', { method: 'POST', json: { change_id: id } });
        expect(response.status, JSON.stringify(id)).toBe(422);
      }
      expect(await campus.onServer(FALL)).toHaveLength(1);
      // A query string still names a revision by its digits.
      expect((await campus.colleague(`/scheduler/terms/changes?${query(FALL)}&since_revision=0`)).status).toBe(200);
      expect((await campus.colleague(`/scheduler/terms/changes?${query(FALL)}&since_revision=true`)).status).toBe(422);
    }));

  it('refuse a NUL in any text of a meeting, joint groups included, and store nothing', () =>
    onCampus(async (campus) => {
      const response = await campus.colleague('/scheduler/', {
        method: 'POST',
        json: {
          ...book(FALL, { course_code: 'MTH510', start_time: '09:00' }),
          joint_group: 'X\u0000Y',
        },
      });
      expect(response.status).toBe(422);
      expect(JSON.stringify(await json(response))).toMatch(/joint_group.*NUL/);
      expect(await campus.onServer(FALL)).toEqual([]);
      expect(await history(campus, FALL)).toEqual([]);
    }));

  it('give a section without a time the same campus check as a meeting', () =>
    onCampus(async (campus) => {
      const uid = 'untimedelsewhere1';
      const response = await campus.colleague('/scheduler/terms/publish-changes', {
        method: 'POST',
        json: {
          ...FALL,
          base_revision: 0,
          key: 'untimed-campus-key',
          changes: [
            {
              meeting_uid: uid,
              operation: 'create',
              after: {
                uid,
                course_code: 'MTH520',
                section_name: '1',
                day: '',
                start_time: '',
                duration_mins: 0,
                room: 'TBD',
                part_of_term: '1',
                joint_group: null,
                campus: 'Atlantis',
                instructors: [],
                locked: false,
              },
            },
          ],
        },
      });
      const answer = await json<{ status: string; refused: { reason: string }[] }>(response);
      expect(answer.status).toBe('refused');
      expect(answer.refused[0]?.reason).toMatch(/campus\): must be/);
      expect(await json(await campus.colleague(`/scheduler/unscheduled?${query(FALL)}`))).toEqual([]);
    }));
});

describe("a laptop's base on a server", () => {
  /** A laptop of its own, linked with the server's own token (the registrar, in the first department). */
  async function registrarLaptop(server: TestServer, dir: string): Promise<{ laptop: Core; link: CampusServer }> {
    const laptop = await createCore({ dataDir: join(dir, `laptop-${Math.random().toString(36).slice(2)}`) });
    return { laptop, link: new CampusServer({ url: `${server.url}/`, token: TEST_TOKEN }) };
  }
  const registrarBooks = async (server: TestServer, course: string, start: string): Promise<void> => {
    const response = await server.api('/scheduler/', { method: 'POST', json: book(FALL, { course_code: course, start_time: start }) });
    expect(response.status, await response.clone().text()).toBe(200);
  };
  const courses = async (core: Core): Promise<string[]> => (await core.run('schedule-list', FALL)).map((m) => m.course_code).sort();
  const revisionOf = async (server: TestServer): Promise<number> =>
    (await json<{ revision: number }>(await server.api(`/scheduler/revision?${query(FALL)}`))).revision;

  it("survives a laptop's backup restored into the server: changes after it are numbered after it, and laptops fetch them", async () => {
    const server = await startTestServer();
    const dir = mkdtempSync(join(tmpdir(), 'termwise-gate-restore-'));
    const planner = await createCore({ dataDir: join(dir, 'planner') });
    try {
      for (const [course, start] of [
        ['MTH600', '08:00'],
        ['MTH601', '09:00'],
        ['MTH602', '10:00'],
      ] as const)
        await planner.run('schedule-create', book(FALL, { course_code: course, start_time: start }));
      const backup = (await planner.run('database-backup', {})) as { content: Uint8Array };
      const restored = await server.upload('/data/restore', 'laptop.db', backup.content);
      expect(restored.status, await restored.clone().text()).toBe(200);
      expect(await revisionOf(server)).toBe(3);
      const other = await registrarLaptop(server, dir);
      expect(await fetchTerm(other.laptop, other.link, FALL)).toMatchObject({ stored: true, base_revision: 3 });
      await registrarBooks(server, 'MTH603', '11:00');
      expect(await revisionOf(server)).toBe(4);
      const history = await json<{ changes: TermChange[] }>(await server.api(`/scheduler/history?${query(FALL)}`));
      expect(history.changes.map((c) => c.revision)).toEqual([4, 3, 2, 1]);
      expect(await fetchTerm(other.laptop, other.link, FALL)).toMatchObject({ stored: true, fetched: 1, base_revision: 4 });
      expect(await courses(other.laptop)).toEqual(['MTH600', 'MTH601', 'MTH602', 'MTH603']);

      // The server restored to an older state: the laptop is told to fetch the term whole, and does.
      const again = await server.upload('/data/restore', 'laptop.db', backup.content);
      expect(again.status, await again.clone().text()).toBe(200);
      await registrarBooks(server, 'MTH604', '12:00');
      expect(await revisionOf(server)).toBe(4);
      expect(await fetchTerm(other.laptop, other.link, FALL)).toMatchObject({ stored: true, status: 'fetched' });
      // MTH603 came from the server as it was, and this computer never changed it: the copy is the server's term again.
      expect(await courses(other.laptop)).toEqual(['MTH600', 'MTH601', 'MTH602', 'MTH604']);
      expect((await other.laptop.run('schedule-sync-status', FALL)) as { pending: unknown[] }).toMatchObject({ pending: [] });
      await other.laptop.close();
    } finally {
      await planner.close();
      await server.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('names its server and department: another server or department starts afresh', async () => {
    const first = await startTestServer();
    const second = await startTestServer();
    const dir = mkdtempSync(join(tmpdir(), 'termwise-gate-servers-'));
    try {
      const { laptop, link } = await registrarLaptop(first, dir);
      await registrarBooks(first, 'MTH700', '08:00');
      await registrarBooks(first, 'MTH701', '09:00');
      expect(await fetchTerm(laptop, link, FALL)).toMatchObject({ stored: true, base_revision: 2 });
      const status = (await laptop.run('schedule-sync-status', FALL)) as { server_id: string | null; server_department: string | null };
      expect(status.server_id).toMatch(/^[0-9a-f]{32}(-\d+)?$/);
      expect(status.server_department).toEqual(expect.any(String));
      // Another server, at a higher revision: its term is fetched whole, not from revision 2.
      for (const [course, start] of [
        ['MTH710', '10:00'],
        ['MTH711', '11:00'],
        ['MTH712', '12:00'],
      ] as const)
        await registrarBooks(second, course, start);
      const elsewhere = new CampusServer({ url: `${second.url}/`, token: TEST_TOKEN });
      expect(await fetchTerm(laptop, elsewhere, FALL)).toMatchObject({ stored: true, base_revision: 3 });
      expect(await courses(laptop)).toEqual(expect.arrayContaining(['MTH710', 'MTH711', 'MTH712']));
      expect(((await laptop.run('schedule-sync-status', FALL)) as { server_id: string }).server_id).not.toBe(status.server_id);
      // Another department of that server, at a lower revision: fetched whole, not refused.
      const chem = (await json<{ id: number }>(await second.api('/departments', { method: 'POST', json: { code: 'CHEM', name: 'Chemistry' } }))).id;
      await signIn(second, 'chemist', chem);
      const asChemist = await CampusServer.signIn(second.url, 'chemist', 'chemist long passphrase', 'Laptop');
      const chemistry = await asChemist.run('schedule-create', book(FALL, { course_code: 'CHM100', start_time: '08:00' }));
      expect(chemistry).toMatchObject({ course_code: 'CHM100' });
      expect(await fetchTerm(laptop, asChemist, FALL)).toMatchObject({ stored: true, base_revision: 1 });
      expect(await courses(laptop)).toEqual(['CHM100']);
      expect(((await laptop.run('schedule-sync-status', FALL)) as { server_department: string }).server_department).toBe('CHEM');
      await laptop.close();
    } finally {
      await first.close();
      await second.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('an import on a campus', () => {
  it('checks an instructor another department lists against that department’s meetings, as a booking is', () =>
    onCampus(async (campus) => {
      const hist = (await json<{ id: number }>(await campus.server.api('/departments', { method: 'POST', json: { code: 'HIST', name: 'History' } }))).id;
      const historian = await personOf({ ...campus, department: hist }, 'historian');
      const listing = (course: string, start: string): FormData => {
        const form = new FormData();
        form.append('dry_run', 'false');
        const csv = ['Course,Section,Days,Start Time,Duration,Room,Instructor,Term', `${course},1,MWF,${start},50,TBD,"King, E",Fall 2027`].join('\n');
        form.append('file', new Blob([csv]), 'listing.csv');
        return form;
      };
      const first = await campus.colleague('/scheduler/import', { method: 'POST', body: listing('MTH231', '09:00') });
      expect(first.status, await first.clone().text()).toBe(200);
      const second = await historian('/scheduler/import', { method: 'POST', body: listing('HIST100', '09:00') });
      expect(second.status, await second.clone().text()).toBe(200);
      const report = await json<{ meetings: number; conflicts: { course_code: string; detail: string; with: { course_code: string }[] }[] }>(second);
      expect(report.meetings).toBe(0);
      expect(report.conflicts).toEqual([expect.objectContaining({ course_code: 'HIST100', detail: expect.stringMatching(/King, E/) as string })]);
      expect(await json(await historian(`/scheduler/?${query(FALL)}`))).toEqual([]);
      // At another hour the same person is free: stored, and listed in History as the one instructor they are.
      const later = await historian('/scheduler/import', { method: 'POST', body: listing('HIST100', '11:00') });
      expect(later.status, await later.clone().text()).toBe(200);
      const [mth] = await campus.onServer(FALL);
      const [his] = await json<Meeting[]>(await historian(`/scheduler/?${query(FALL)}`));
      expect(his?.doctors.map((d) => d.name)).toEqual(['King, E']);
      expect(mth?.doctors.map((d) => d.name)).toEqual(['King, E']);
      // A booking over the import's meeting is refused across the departments, either way.
      const clash = await historian('/scheduler/', {
        method: 'POST',
        json: {
          ...book(FALL, { course_code: 'HIST101', start_time: '09:00' }),
          doctors: [{ id: (his?.doctors[0] as { id: number } | undefined)?.id, role: 'teaches' }],
        },
      });
      expect(clash.status).toBe(400);
    }));
});
