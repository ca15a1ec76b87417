import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCore, type Core } from '../../core/index';
import { CampusServer, fetchTerm, publishTerm } from '../../electron/campus';
import type { TermChange } from '../../core/domain/history';
import { json, startTestServer, type TestServer } from '../helpers/server';
import { createdOnLaptop } from '../helpers/published-change';

/**
 * Planning offline and together, losing nothing: a laptop (a real core on its own SQLite file) and a
 * campus server (a real server, on SQLite and again on PostgreSQL) where a colleague plans online.
 * Publish and fetch replay changes, list conflicts with both versions, and store all or nothing;
 * every change is in the history with its person, and can be undone.
 */
const TERM = { year: 2027, semester: 'Fall' } as const;
/** How history names the colleague: their name, and the label of the token their script uses. */
const COLLEAGUE = 'Colleague Online (token "script")';
const Q = `year=${TERM.year}&semester=${TERM.semester}`;

let campus: TestServer;
let laptop: Core;
let dir: string;
let server: CampusServer;
let colleagueToken = '';
let otherToken = '';

interface Meeting {
  id: number;
  course_code: string;
  section_name: string;
  day: string;
  start_time: string;
  room: string;
}

const asColleague = (path: string, init: RequestInit & { json?: unknown } = {}): Promise<Response> =>
  campus.api(path, { ...init, headers: { authorization: `Bearer ${colleagueToken}` } });

const onServer = async (): Promise<Meeting[]> => json<Meeting[]>(await asColleague(`/scheduler/?${Q}`));
const onLaptop = async (): Promise<Meeting[]> => laptop.run('schedule-list', TERM);
const labels = (meetings: readonly Meeting[]): string[] => meetings.map((m) => `${m.course_code} ${m.section_name} ${m.day} ${m.start_time}`).sort();

interface Booked {
  course_code: string;
  section_name: string;
  day: string;
  start_time: string;
  room?: string;
}

const book = (body: Booked) => ({ ...TERM, duration_mins: 50, room: 'TBD', ...body });

async function colleagueBooks(body: Booked): Promise<Meeting> {
  const response = await asColleague('/scheduler/', { method: 'POST', json: book(body) });
  expect(response.status, await response.clone().text()).toBe(200);
  return json<Meeting>(response);
}

async function laptopBooks(body: Booked): Promise<Meeting> {
  return laptop.run('schedule-create', book(body));
}

const find = (meetings: readonly Meeting[], course: string): Meeting => {
  const found = meetings.find((m) => m.course_code === course);
  if (!found) throw new Error(`${course} is not in ${labels(meetings).join(', ')}`);
  return found;
};

async function signIn(login: string, name: string, department: number): Promise<string> {
  const password = `${login} long passphrase`;
  const created = await campus.api('/people', { method: 'POST', json: { login, name, role: 'scheduler', department_id: department, password } });
  expect(created.status, await created.clone().text()).toBe(200);
  const token = await fetch(`${campus.url}/session/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ login, password, label: 'script' }),
  });
  return (await json<{ token: string }>(token)).token;
}

beforeAll(async () => {
  campus = await startTestServer();
  dir = mkdtempSync(join(tmpdir(), 'termwise-sync-'));
  laptop = await createCore({ dataDir: join(dir, 'laptop') });
  const mth = (await json<{ id: number }>(await campus.api('/departments', { method: 'POST', json: { code: 'MTH', name: 'Mathematics' } }))).id;
  const chem = (await json<{ id: number }>(await campus.api('/departments', { method: 'POST', json: { code: 'CHEM', name: 'Chemistry' } }))).id;
  colleagueToken = await signIn('colleague', 'Colleague Online', mth);
  otherToken = await signIn('chemist', 'Chemistry Scheduler', chem);
  await campus.api('/people', {
    method: 'POST',
    json: { login: 'laptop', name: 'Laptop Planner', role: 'scheduler', department_id: mth, password: 'laptop long passphrase' },
  });
  server = await CampusServer.signIn(campus.url, 'laptop', 'laptop long passphrase', 'Laptop');
  await colleagueBooks({ course_code: 'MTH101', section_name: '1', day: 'MWF', start_time: '09:00', room: 'Hall A' });
  await json(await campus.api(`/scheduler/doctors`, { method: 'GET' }));
}, 120_000);

afterAll(async () => {
  await laptop.close();
  await campus.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('publish and fetch between a laptop and the campus', () => {
  it("fetches the server's term into a laptop that has none", async () => {
    const outcome = await fetchTerm(laptop, server, TERM);
    expect(outcome).toMatchObject({ stored: true, status: 'fetched', fetched: 1, conflicts: [] });
    expect(labels(await onLaptop())).toEqual(['MTH101 1 MWF 09:00']);
    expect(await laptop.run('schedule-sync-status', TERM)).toMatchObject({ pending: [] });
  });

  it('keeps both meetings when the laptop publishes after a colleague added one online', async () => {
    await colleagueBooks({ course_code: 'MTH201', section_name: '9', day: 'TR', start_time: '10:00', room: 'Hall B' });
    await laptopBooks({ course_code: 'MTH300', section_name: '1', day: 'MW', start_time: '13:00', room: 'Hall C' });
    const outcome = await publishTerm(laptop, server, TERM);
    expect(outcome).toMatchObject({ stored: true, status: 'published', published: 1, conflicts: [], refused: [], pending: 0 });
    const expected = ['MTH101 1 MWF 09:00', 'MTH201 9 TR 10:00', 'MTH300 1 MW 13:00'];
    expect(labels(await onServer())).toEqual(expected);
    expect(labels(await onLaptop())).toEqual(expected);
  });

  it('lists a meeting both moved as a conflict with both versions and stores nothing; once chosen, the publish stores', async () => {
    const theirs = find(await onServer(), 'MTH101');
    expect((await asColleague(`/scheduler/${theirs.id}`, { method: 'PATCH', json: { start_time: '11:00' } })).status).toBe(200);
    await laptop.run('schedule-update', { entry_id: find(await onLaptop(), 'MTH101').id, start_time: '14:00' });
    const outcome = await publishTerm(laptop, server, TERM);
    expect(outcome.stored).toBe(false);
    expect(outcome.status).toBe('conflicts');
    expect(outcome.conflicts).toHaveLength(1);
    const [conflict] = outcome.conflicts;
    expect(conflict).toMatchObject({
      course_code: 'MTH101',
      yours: { start_time: '14:00' },
      theirs: { start_time: '11:00' },
      their_change: { who: COLLEAGUE },
    });
    expect(conflict?.message).toMatch(/yours is MWF 14:00.*on the server, by Colleague Online \(token "script"\) at .* it is MWF 11:00/);
    // Nothing stored on either side.
    expect(find(await onServer(), 'MTH101').start_time).toBe('11:00');
    expect(find(await onLaptop(), 'MTH101').start_time).toBe('14:00');
    // A check lists the same and stores nothing either.
    expect(await publishTerm(laptop, server, TERM, { dryRun: true })).toMatchObject({ stored: false, status: 'conflicts' });
    const settled = await publishTerm(laptop, server, TERM, { choices: { [conflict?.meeting_uid ?? '']: 'mine' } });
    expect(settled).toMatchObject({ stored: true, status: 'published' });
    expect(find(await onServer(), 'MTH101').start_time).toBe('14:00');
    expect(find(await onLaptop(), 'MTH101').start_time).toBe('14:00');
  });

  it('lists a conflict when the colleague deleted a meeting the laptop moved; keeping theirs deletes it on the laptop', async () => {
    const gone = find(await onServer(), 'MTH201');
    expect((await asColleague(`/scheduler/${gone.id}`, { method: 'DELETE' })).status).toBe(200);
    await laptop.run('schedule-update', { entry_id: find(await onLaptop(), 'MTH201').id, start_time: '15:00' });
    const outcome = await publishTerm(laptop, server, TERM);
    expect(outcome).toMatchObject({ stored: false, status: 'conflicts', conflicts: [{ course_code: 'MTH201', yours: { start_time: '15:00' }, theirs: null }] });
    expect(outcome.conflicts[0]?.message).toMatch(/on the server, by Colleague Online .* it is deleted/);
    expect(labels(await onServer())).not.toContain('MTH201 9 TR 15:00');
    const settled = await publishTerm(laptop, server, TERM, { choices: { [outcome.conflicts[0]?.meeting_uid ?? '']: 'theirs' } });
    expect(settled).toMatchObject({ stored: true });
    expect((await onLaptop()).map((m) => m.course_code)).not.toContain('MTH201');
    expect((await onServer()).map((m) => m.course_code)).not.toContain('MTH201');
  });

  it("keeps the laptop's unpublished work when it fetches the server's", async () => {
    await laptopBooks({ course_code: 'MTH400', section_name: '1', day: 'F', start_time: '08:00' });
    await colleagueBooks({ course_code: 'MTH500', section_name: '1', day: 'R', start_time: '16:00' });
    const outcome = await fetchTerm(laptop, server, TERM);
    expect(outcome).toMatchObject({ stored: true, status: 'fetched', fetched: 1, pending: 1 });
    expect((await onLaptop()).map((m) => m.course_code).sort()).toEqual(['MTH101', 'MTH300', 'MTH400', 'MTH500']);
    expect((await onServer()).map((m) => m.course_code).sort()).toEqual(['MTH101', 'MTH300', 'MTH500']);
    const status = (await laptop.run('schedule-sync-status', TERM)) as { pending: { after: { course_code: string } | null }[] };
    expect(status.pending.map((c) => c.after?.course_code)).toEqual(['MTH400']);
    expect(await publishTerm(laptop, server, TERM)).toMatchObject({ stored: true, published: 1 });
    expect((await onServer()).map((m) => m.course_code).sort()).toEqual(['MTH101', 'MTH300', 'MTH400', 'MTH500']);
  });

  it('lists a change the rules refuse in words, and stores none of the others', async () => {
    // Another department books the room at the time the laptop is about to use.
    const chem = await campus.api('/scheduler/', {
      method: 'POST',
      json: book({ course_code: 'CHM110', section_name: '1', day: 'W', start_time: '15:00', room: 'Hall Z' }),
      headers: { authorization: `Bearer ${otherToken}` },
    });
    expect(chem.status).toBe(200);
    await laptopBooks({ course_code: 'MTH610', section_name: '1', day: 'W', start_time: '15:00', room: 'Hall Z' });
    await laptopBooks({ course_code: 'MTH620', section_name: '1', day: 'T', start_time: '15:00', room: 'Hall Y' });
    const outcome = await publishTerm(laptop, server, TERM);
    expect(outcome).toMatchObject({ stored: false, status: 'refused' });
    expect(outcome.refused).toEqual([expect.objectContaining({ course_code: 'MTH610', reason: expect.stringMatching(/Hall Z/) as string })]);
    expect(JSON.stringify(outcome)).not.toContain('CHM110');
    expect((await onServer()).map((m) => m.course_code)).not.toContain('MTH620');
    await laptop.run('schedule-delete', { entry_id: find(await onLaptop(), 'MTH610').id });
    expect(await publishTerm(laptop, server, TERM)).toMatchObject({ stored: true });
    expect((await onServer()).map((m) => m.course_code)).toContain('MTH620');
    expect((await onServer()).map((m) => m.course_code)).not.toContain('MTH610');
  });
});

describe('publishing changes over REST', () => {
  const change = (uid: string, start: string) => createdOnLaptop(uid, { course_code: 'MTH700', section_name: uid.slice(-1), day: 'S', start_time: start });
  const publish = async (body: Record<string, unknown>): Promise<Response> =>
    asColleague('/scheduler/terms/publish-changes', { method: 'POST', json: { ...TERM, ...body } });

  it('applies a publish retried with the same key once', async () => {
    const { revision } = await json<{ revision: number }>(await asColleague(`/scheduler/revision?${Q}`));
    const body = { base_revision: revision, key: 'retry-after-lost-answer', changes: [change('restuidA', '08:00')] };
    const first = await json<{ status: string; revision: number; replayed: boolean }>(await publish(body));
    expect(first).toMatchObject({ status: 'published', revision: revision + 1, replayed: false });
    const again = await json<{ status: string; revision: number; replayed: boolean }>(await publish(body));
    expect(again).toMatchObject({ status: 'published', revision: revision + 1, replayed: true });
    expect((await onServer()).filter((m) => m.course_code === 'MTH700')).toHaveLength(1);
    expect((await json<{ revision: number }>(await asColleague(`/scheduler/revision?${Q}`))).revision).toBe(revision + 1);
  });

  it('stores nothing when one change conflicts, and answers 4xx in words for a hostile body', async () => {
    const { revision } = await json<{ revision: number }>(await asColleague(`/scheduler/revision?${Q}`));
    const stale = revision - 1;
    const answer = await json<{ stored: boolean; status: string; conflicts: { course_code: string }[] }>(
      await publish({ base_revision: stale, key: 'conflicting-publish-1', changes: [change('restuidB', '10:00'), change('restuidA', '09:00')] }),
    );
    expect(answer).toMatchObject({ stored: false, status: 'conflicts', conflicts: [{ course_code: 'MTH700' }] });
    expect((await onServer()).filter((m) => m.course_code === 'MTH700').map((m) => m.start_time)).toEqual(['08:00']);
    for (const body of [
      { base_revision: -1, key: 'hostile-key-1', changes: [] },
      { base_revision: 0, key: 'x', changes: [] },
      { base_revision: 0, key: 'hostile-key-2', changes: [{ meeting_uid: 'a b', after: null }] },
      { base_revision: 0, key: 'hostile-key-3', changes: [{ ...change('restuidC', '25:00') }] },
      { base_revision: 0, key: 'hostile-key-4', changes: [{ ...change('restuidD', '10:00'), meeting_uid: 'another' }] },
      { base_revision: 10 ** 9, key: 'hostile-key-5', changes: [] },
    ]) {
      const response = await publish(body);
      expect([400, 422], `${JSON.stringify(body)}: ${await response.clone().text()}`).toContain(response.status);
      expect(await json<{ detail: string }>(response)).toHaveProperty('detail');
    }
  });

  it("cannot reach another department's meeting by its id: refused in words, nothing changed", async () => {
    const theirs = (await json<(Meeting & { uid: string })[]>(await asColleague(`/scheduler/?${Q}`)))[0];
    const hijack = { ...change(theirs?.uid ?? '', '06:00'), meeting_uid: theirs?.uid ?? '' };
    hijack.after.uid = theirs?.uid ?? '';
    const response = await campus.api('/scheduler/terms/publish-changes', {
      method: 'POST',
      json: { ...TERM, base_revision: 0, key: 'hijack-attempt-1', changes: [hijack] },
      headers: { authorization: `Bearer ${otherToken}` },
    });
    expect(response.status).toBe(200);
    expect(await json(response)).toMatchObject({
      stored: false,
      status: 'refused',
      refused: [{ reason: expect.stringMatching(/taken by another meeting/) as string }],
    });
    expect(find(await onServer(), theirs?.course_code ?? '').start_time).toBe(theirs?.start_time);
    const deleting = await campus.api('/scheduler/terms/publish-changes', {
      method: 'POST',
      json: { ...TERM, base_revision: 0, key: 'hijack-attempt-2', changes: [{ meeting_uid: theirs?.uid, after: null }] },
      headers: { authorization: `Bearer ${otherToken}` },
    });
    expect(await json(deleting)).toMatchObject({ stored: true, applied: 0 });
    expect((await onServer()).map((m) => m.id)).toContain(theirs?.id);
  });

  it('replaces a term with a whole listing only with replace and the revision it replaces', async () => {
    const listing = ['Course,Section,Days,Start Time,End Time,Room', 'MTH900,1,MW,08:00,08:50,TBD'].join('\n');
    const upload = (fields: Record<string, string>): Promise<Response> => {
      const form = new FormData();
      for (const [k, v] of Object.entries({ year: String(TERM.year), semester: TERM.semester, ...fields })) form.append(k, v);
      form.append('file', new Blob([listing]), 'term.csv');
      return asColleague('/scheduler/terms/publish', { method: 'POST', body: form });
    };
    const withoutReplace = await upload({ base_revision: '0' });
    expect(withoutReplace.status).toBe(422);
    expect((await json<{ detail: string }>(withoutReplace)).detail).toMatch(/replace/);
    const stale = await upload({ replace: 'true', base_revision: '1' });
    expect(stale.status).toBe(400);
    expect((await json<{ detail: string }>(stale)).detail).toMatch(/Nothing was published: Fall 2027 is at revision \d+ on the server, not 1/);
    expect((await onServer()).map((m) => m.course_code)).toContain('MTH101');
  });
});

describe('the history of a term', () => {
  const history = async (query = '', token = colleagueToken): Promise<{ revision: number; changes: TermChange[] }> =>
    json(await campus.api(`/scheduler/history?${Q}${query}`, { headers: { authorization: `Bearer ${token}` } }));

  it('shows each change with its person, its values before and after, and the change in words', async () => {
    const { changes, revision } = await history();
    expect(revision).toBeGreaterThan(0);
    const move = changes.find((c) => c.course_code === 'MTH101' && c.who === COLLEAGUE && c.operation === 'move');
    expect(move).toMatchObject({ before: { start_time: '09:00' }, after: { start_time: '11:00' } });
    expect(move?.summary).toBe('moved MTH101 §1 from MWF 09:00 to MWF 11:00');
    const published = changes.find((c) => c.operation === 'publish' && c.course_code === 'MTH300');
    expect(published).toMatchObject({ who: 'Laptop Planner (token "Laptop")', before: null, after: { day: 'MW', start_time: '13:00', room: 'Hall C' } });
    // Filtered by person: the laptop's person made none of the colleague's moves.
    const byLaptop = await history(`&person_id=${published?.person_id ?? 0}`);
    expect(byLaptop.changes.length).toBeGreaterThan(0);
    expect(byLaptop.changes.every((c) => c.who.startsWith('Laptop Planner'))).toBe(true);
    // Filtered by person and by section.
    const mine = await history(`&course_code=MTH101&section_name=1`);
    expect(mine.changes.every((c) => c.course_code === 'MTH101')).toBe(true);
    // Another department sees none of these changes.
    expect((await history('', otherToken)).changes.map((c) => c.course_code)).toEqual(['CHM110']);
  });

  it('undoes a move, and refuses an undo when a later change touched the same meeting', async () => {
    const created = await colleagueBooks({ course_code: 'MTH810', section_name: '1', day: 'M', start_time: '17:00' });
    expect((await asColleague(`/scheduler/${created.id}`, { method: 'PATCH', json: { start_time: '18:00' } })).status).toBe(200);
    const [moved] = (await history('&course_code=MTH810')).changes;
    expect(moved).toMatchObject({ operation: 'move', after: { start_time: '18:00' } });
    const undo = await asColleague('/scheduler/history/undo', { method: 'POST', json: { change_id: moved?.id } });
    expect(undo.status, await undo.clone().text()).toBe(200);
    expect(find(await onServer(), 'MTH810').start_time).toBe('17:00');
    const [restored] = (await history('&course_code=MTH810')).changes;
    expect(restored).toMatchObject({ operation: 'restore', before: { start_time: '18:00' }, after: { start_time: '17:00' } });
    // The creation cannot be undone now: the move and its undo came after it.
    const creation = (await history('&course_code=MTH810')).changes.find((c) => c.operation === 'create');
    const refused = await asColleague('/scheduler/history/undo', { method: 'POST', json: { change_id: creation?.id } });
    expect(refused.status).toBe(400);
    expect((await json<{ detail: string }>(refused)).detail).toMatch(
      /Cannot undo: MTH810 section 1 was changed after it, by Colleague Online \(token "script"\)/,
    );
    // Another department cannot undo (or see) it.
    const foreign = await campus.api('/scheduler/history/undo', {
      method: 'POST',
      json: { change_id: restored?.id },
      headers: { authorization: `Bearer ${otherToken}` },
    });
    expect(foreign.status).toBe(404);
  });

  it('carries a section without a time: published with its id, given a time on the server, fetched back as that meeting', async () => {
    const listing = [
      'Course,Section,Days,Start Time,End Time,Room,Instructors,Term,Type,Part of Term',
      'MTH450,W,,ARRANGED,,,Dr. Online,Fall 2027,Online,1',
    ].join('\n');
    await laptop.run('schedule-import', { file: { filename: 'listing.csv', content: new TextEncoder().encode(listing) }, dry_run: false });
    const [section] = (await laptop.run('schedule-unscheduled', TERM)) as { uid: string; course_code: string }[];
    expect(section).toMatchObject({ course_code: 'MTH450' });
    expect(await publishTerm(laptop, server, TERM)).toMatchObject({ stored: true, published: 1 });
    expect(await json(await asColleague(`/scheduler/unscheduled?${Q}`))).toMatchObject([
      { course_code: 'MTH450', section_name: 'W', uid: section?.uid, kind: 'Online', doctors: [{ name: 'Dr. Online' }] },
    ]);
    // Online, the colleague gives it a time with auto-fill.
    const placed = await asColleague('/scheduler/auto', {
      method: 'POST',
      json: { source: 'unscheduled', ...TERM, slots: [{ day: 'T', start_time: '19:00', duration_mins: 50 }], dry_run: false },
    });
    expect(placed.status, await placed.clone().text()).toBe(200);
    // The laptop fetches it: the meeting takes the section's place, under the same id.
    expect(await fetchTerm(laptop, server, TERM)).toMatchObject({ stored: true, conflicts: [] });
    expect(await laptop.run('schedule-unscheduled', TERM)).toEqual([]);
    expect(find(await onLaptop(), 'MTH450')).toMatchObject({ day: 'T', start_time: '19:00', uid: section?.uid });
    const [given] = (await history('&course_code=MTH450')).changes;
    expect(given?.summary).toBe('gave MTH450 §W a time: T 19:00 by auto-fill');
  });

  it('publishes two meetings swapping their times in one room (refused one by one, stored together), and undoes the swap as one batch', async () => {
    const a = await laptopBooks({ course_code: 'MTH661', section_name: '1', day: 'U', start_time: '08:00', room: 'Swap Hall' });
    const b = await laptopBooks({ course_code: 'MTH662', section_name: '1', day: 'U', start_time: '09:00', room: 'Swap Hall' });
    expect(await publishTerm(laptop, server, TERM)).toMatchObject({ stored: true, published: 2 });
    // On the laptop the swap takes three steps; what it publishes is each meeting's last version.
    await laptop.run('schedule-update', { entry_id: a.id, start_time: '10:00' });
    await laptop.run('schedule-update', { entry_id: b.id, start_time: '08:00' });
    await laptop.run('schedule-update', { entry_id: a.id, start_time: '09:00' });
    expect(await publishTerm(laptop, server, TERM)).toMatchObject({ stored: true, published: 2, refused: [], conflicts: [] });
    const swapped = async (): Promise<(Meeting & { uid: string })[]> =>
      (await onServer()).filter((m) => m.course_code === 'MTH661' || m.course_code === 'MTH662') as (Meeting & { uid: string })[];
    expect(labels(await swapped())).toEqual(['MTH661 1 U 09:00', 'MTH662 1 U 08:00']);
    // Undoing that publish swaps them back, which one by one the rules would refuse too.
    const batch = (await history('&course_code=MTH661')).changes[0]?.batch;
    const undo = await asColleague('/scheduler/history/undo', { method: 'POST', json: { batch } });
    expect(undo.status, await undo.clone().text()).toBe(200);
    expect(labels(await swapped())).toEqual(['MTH661 1 U 08:00', 'MTH662 1 U 09:00']);
    // Two that need each other's places but still overlap once both are in are refused in words; nothing is stored.
    const [m661, m662] = await swapped();
    const { revision } = await json<{ revision: number }>(await asColleague(`/scheduler/revision?${Q}`));
    const moved = (m: (Meeting & { uid: string }) | undefined, start: string) => ({
      ...createdOnLaptop(m?.uid ?? '', { course_code: m?.course_code ?? '', section_name: '1', day: 'U', start_time: start, room: 'Swap Hall' }),
      operation: 'move' as const,
    });
    const overlapping = await asColleague('/scheduler/terms/publish-changes', {
      method: 'POST',
      json: { ...TERM, base_revision: revision, key: 'swap-that-overlaps', changes: [moved(m661, '09:00'), moved(m662, '08:30')] },
    });
    expect(overlapping.status, await overlapping.clone().text()).toBe(200);
    expect(await json(overlapping)).toMatchObject({ status: 'refused', stored: false });
    expect(labels(await swapped())).toEqual(['MTH661 1 U 08:00', 'MTH662 1 U 09:00']);
  });

  it('undoes a whole publish as one batch', async () => {
    await laptopBooks({ course_code: 'MTH910', section_name: '1', day: 'T', start_time: '07:00' });
    await laptopBooks({ course_code: 'MTH920', section_name: '1', day: 'R', start_time: '07:00' });
    expect(await publishTerm(laptop, server, TERM)).toMatchObject({ stored: true, published: 2 });
    const batch = (await history()).changes.find((c) => c.course_code === 'MTH920')?.batch;
    const undo = await asColleague('/scheduler/history/undo', { method: 'POST', json: { batch } });
    expect(undo.status, await undo.clone().text()).toBe(200);
    expect(await json<{ undone: number }>(undo)).toMatchObject({ undone: 2 });
    expect((await onServer()).map((m) => m.course_code)).not.toContain('MTH910');
    expect((await onServer()).map((m) => m.course_code)).not.toContain('MTH920');
    // The laptop fetches the undo: its meetings go too, nothing left pending.
    expect(await fetchTerm(laptop, server, TERM)).toMatchObject({ stored: true, pending: 0 });
    expect((await onLaptop()).map((m) => m.course_code)).not.toContain('MTH910');
  });
});

describe("the desktop's campus link, as the screens use it", () => {
  it('uploads a file with its fields, and reads an export back as a file', async () => {
    const courses = new TextEncoder().encode(JSON.stringify([{ code: 'MTH240', name: 'Linear Algebra', type: 'core' }]));
    await server.run('courses-upload', { file: { filename: 'courses.json', content: courses } });
    const catalog = await json<{ code: string; name: string }[]>(await asColleague('/data/courses'));
    expect(catalog).toContainEqual(expect.objectContaining({ code: 'MTH240', name: 'Linear Algebra' }));
    const file = (await server.run('schedule-export', { ...TERM, format: 'csv' })) as { filename: string; contentType: string; content: Uint8Array };
    expect(file.filename).toMatch(/\.csv$/);
    expect(file.contentType).toMatch(/^text\/csv/);
    expect(new TextDecoder().decode(file.content)).toContain('MTH101');
  });

  it("follows the server's change stream: a colleague's booking reaches the laptop's screens", async () => {
    const heard: unknown[] = [];
    const stop = server.subscribe((event) => heard.push(event), 100);
    let booked = 0;
    try {
      // The stream is open once its first event could arrive: book until one is heard (the first booking may race the opening).
      await expect
        .poll(
          async () => {
            await colleagueBooks({ course_code: `MTH${310 + booked++}`, section_name: '1', day: 'TR', start_time: '13:00' });
            return heard;
          },
          { timeout: 15_000, interval: 300 },
        )
        .toContainEqual(expect.objectContaining({ type: 'changed', areas: expect.arrayContaining(['timetable']) as unknown }));
    } finally {
      stop();
    }
  });
});
