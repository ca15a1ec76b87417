import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import { createCore, type Core } from '../../core/index';
import { CampusServer, fetchTerm, publishTerm } from '../../electron/campus';
import type { TermChange } from '../../core/domain/meeting-changes';
import { json, startTestServer, type TestServer } from '../helpers/server';
import { createdOnLaptop } from '../helpers/published-change';

/**
 * Planning offline and together, losing nothing: a laptop (a real core on its own SQLite file) and a
 * campus server (a real server, on SQLite and again on PostgreSQL) where a colleague plans online.
 * Publish and fetch replay changes, list conflicts with both versions, and store all or nothing;
 * every change is in the history with its person, and can be undone.
 *
 * The campus server, its two departments and their people are made once for the file; each test
 * plans a term of its own on it, with a laptop of its own (startPlanning), so that any one runs alone.
 */
/** How history names the colleague: their name, and the label of the token their script uses. */
const COLLEAGUE = 'Colleague Online (token "script")';

interface Meeting {
  id: number;
  uid: string;
  course_code: string;
  section_name: string;
  day: string;
  start_time: string;
  room: string;
}

interface Booked {
  course_code: string;
  section_name: string;
  day: string;
  start_time: string;
  room?: string;
}

const labels = (meetings: readonly Meeting[]): string[] => meetings.map((m) => `${m.course_code} ${m.section_name} ${m.day} ${m.start_time}`).sort();
const codes = (meetings: readonly Meeting[]): string[] => meetings.map((m) => m.course_code).sort();

const find = (meetings: readonly Meeting[], course: string): Meeting => {
  const found = meetings.find((m) => m.course_code === course);
  if (!found) throw new Error(`${course} is not in ${labels(meetings).join(', ')}`);
  return found;
};

async function department(campus: TestServer, code: string, name: string): Promise<number> {
  const made = await campus.api('/departments', { method: 'POST', json: { code, name } });
  expect(made.status, await made.clone().text()).toBe(200);
  return (await json<{ id: number }>(made)).id;
}

async function addScheduler(campus: TestServer, login: string, name: string, department: number): Promise<void> {
  const created = await campus.api('/people', {
    method: 'POST',
    json: { login, name, role: 'scheduler', department_id: department, password: `${login} long passphrase` },
  });
  expect(created.status, await created.clone().text()).toBe(200);
}

async function scriptToken(campus: TestServer, login: string): Promise<string> {
  const token = await fetch(`${campus.url}/session/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ login, password: `${login} long passphrase`, label: 'script' }),
  });
  expect(token.status, await token.clone().text()).toBe(200);
  return (await json<{ token: string }>(token)).token;
}

/** The campus: a mathematics department where a colleague plans online, a laptop's person, and a chemistry department. */
interface Campus {
  server: TestServer;
  /** The laptop's sign-in (a personal token labelled "Laptop"). */
  link: CampusServer;
  colleagueToken: string;
  chemistToken: string;
}

let campus: Campus;
/** Terms given to tests so far: each test plans a term of its own. */
let termsGiven = 0;

beforeAll(async () => {
  const server = await startTestServer();
  const mth = await department(server, 'MTH', 'Mathematics');
  await addScheduler(server, 'colleague', 'Colleague Online', mth);
  await addScheduler(server, 'laptop', 'Laptop Planner', mth);
  await addScheduler(server, 'chemist', 'Chemistry Scheduler', await department(server, 'CHEM', 'Chemistry'));
  campus = {
    server,
    link: await CampusServer.signIn(server.url, 'laptop', 'laptop long passphrase', 'Laptop'),
    colleagueToken: await scriptToken(server, 'colleague'),
    chemistToken: await scriptToken(server, 'chemist'),
  };
}, 60_000);

afterAll(async () => {
  await campus.server.close();
});

/** One test's world: its term on the campus, and a laptop of its own signed in to the mathematics department. */
interface Planning {
  term: { year: number; semester: 'Fall' };
  /** The term as a query string. */
  q: string;
  campus: TestServer;
  laptop: Core;
  server: CampusServer;
  colleagueToken: string;
  chemistToken: string;
  book: (body: Booked) => Booked & { year: number; semester: 'Fall'; duration_mins: number };
  asColleague: (path: string, init?: RequestInit & { json?: unknown }) => Promise<Response>;
  onServer: () => Promise<Meeting[]>;
  onLaptop: () => Promise<Meeting[]>;
  colleagueBooks: (body: Booked) => Promise<Meeting>;
  laptopBooks: (body: Booked) => Promise<Meeting>;
}

/**
 * A term of the test's own on the campus, and a fresh laptop: the colleague has booked MTH101 §1
 * (MWF 09:00 in Hall A), and the laptop has fetched it unless `fetched` is false. The laptop is
 * closed when the test ends.
 */
async function startPlanning({ fetched = true } = {}): Promise<Planning> {
  const term = { year: 2030 + ++termsGiven, semester: 'Fall' } as const;
  const dir = mkdtempSync(join(tmpdir(), 'termwise-sync-'));
  const laptop = await createCore({ dataDir: join(dir, 'laptop') });
  onTestFinished(async () => {
    await laptop.close();
    rmSync(dir, { recursive: true, force: true });
  });
  const { server, link, colleagueToken, chemistToken } = campus;
  const q = `year=${term.year}&semester=${term.semester}`;
  const book: Planning['book'] = (body) => ({ ...term, duration_mins: 50, room: 'TBD', ...body });
  const asColleague: Planning['asColleague'] = (path, init = {}) => server.api(path, { ...init, headers: { authorization: `Bearer ${colleagueToken}` } });
  const planning: Planning = {
    term,
    q,
    campus: server,
    laptop,
    server: link,
    colleagueToken,
    chemistToken,
    book,
    asColleague,
    onServer: async () => json<Meeting[]>(await asColleague(`/scheduler/?${q}`)),
    onLaptop: async () => laptop.run('schedule-list', term),
    colleagueBooks: async (body) => {
      const response = await asColleague('/scheduler/', { method: 'POST', json: book(body) });
      expect(response.status, await response.clone().text()).toBe(200);
      return json<Meeting>(response);
    },
    laptopBooks: async (body) => laptop.run('schedule-create', book(body)),
  };
  await planning.colleagueBooks({ course_code: 'MTH101', section_name: '1', day: 'MWF', start_time: '09:00', room: 'Hall A' });
  if (fetched) expect(await fetchTerm(laptop, link, term)).toMatchObject({ stored: true, fetched: 1 });
  return planning;
}

describe('publish and fetch between a laptop and the campus', () => {
  it("fetches the server's term into a laptop that has none", async () => {
    const { term, laptop, server, onLaptop } = await startPlanning({ fetched: false });
    const outcome = await fetchTerm(laptop, server, term);
    expect(outcome).toMatchObject({ stored: true, status: 'fetched', fetched: 1, conflicts: [] });
    expect(labels(await onLaptop())).toEqual(['MTH101 1 MWF 09:00']);
    expect(await laptop.run('schedule-sync-status', term)).toMatchObject({ pending: [] });
  });

  it('keeps both meetings when the laptop publishes after a colleague added one online', async () => {
    const { term, laptop, server, onServer, onLaptop, colleagueBooks, laptopBooks } = await startPlanning();
    await colleagueBooks({ course_code: 'MTH201', section_name: '9', day: 'TR', start_time: '10:00', room: 'Hall B' });
    await laptopBooks({ course_code: 'MTH300', section_name: '1', day: 'MW', start_time: '13:00', room: 'Hall C' });
    const outcome = await publishTerm(laptop, server, term);
    expect(outcome).toMatchObject({ stored: true, status: 'published', published: 1, conflicts: [], refused: [], pending: 0 });
    const expected = ['MTH101 1 MWF 09:00', 'MTH201 9 TR 10:00', 'MTH300 1 MW 13:00'];
    expect(labels(await onServer())).toEqual(expected);
    expect(labels(await onLaptop())).toEqual(expected);
  });

  it('lists a meeting both moved as a conflict with both versions and stores nothing; once chosen, the publish stores', async () => {
    const { term, laptop, server, asColleague, onServer, onLaptop } = await startPlanning();
    const theirs = find(await onServer(), 'MTH101');
    expect((await asColleague(`/scheduler/${theirs.id}`, { method: 'PATCH', json: { start_time: '11:00' } })).status).toBe(200);
    await laptop.run('schedule-update', { entry_id: find(await onLaptop(), 'MTH101').id, start_time: '14:00' });
    const outcome = await publishTerm(laptop, server, term);
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
    expect(await publishTerm(laptop, server, term, { dryRun: true })).toMatchObject({ stored: false, status: 'conflicts' });
    const settled = await publishTerm(laptop, server, term, { choices: { [conflict?.meeting_uid ?? '']: 'mine' } });
    expect(settled).toMatchObject({ stored: true, status: 'published' });
    expect(find(await onServer(), 'MTH101').start_time).toBe('14:00');
    expect(find(await onLaptop(), 'MTH101').start_time).toBe('14:00');
  });

  it('lists a conflict when the colleague deleted a meeting the laptop moved; keeping theirs deletes it on the laptop', async () => {
    const { term, laptop, server, asColleague, onServer, onLaptop, colleagueBooks } = await startPlanning();
    await colleagueBooks({ course_code: 'MTH201', section_name: '9', day: 'TR', start_time: '10:00', room: 'Hall B' });
    expect(await fetchTerm(laptop, server, term)).toMatchObject({ stored: true, fetched: 1 });
    const gone = find(await onServer(), 'MTH201');
    expect((await asColleague(`/scheduler/${gone.id}`, { method: 'DELETE' })).status).toBe(200);
    await laptop.run('schedule-update', { entry_id: find(await onLaptop(), 'MTH201').id, start_time: '15:00' });
    const outcome = await publishTerm(laptop, server, term);
    expect(outcome).toMatchObject({ stored: false, status: 'conflicts', conflicts: [{ course_code: 'MTH201', yours: { start_time: '15:00' }, theirs: null }] });
    expect(outcome.conflicts[0]?.message).toMatch(/on the server, by Colleague Online .* it is deleted/);
    expect(labels(await onServer())).not.toContain('MTH201 9 TR 15:00');
    const settled = await publishTerm(laptop, server, term, { choices: { [outcome.conflicts[0]?.meeting_uid ?? '']: 'theirs' } });
    expect(settled).toMatchObject({ stored: true });
    expect(codes(await onLaptop())).not.toContain('MTH201');
    expect(codes(await onServer())).not.toContain('MTH201');
  });

  it("keeps the laptop's unpublished work when it fetches the server's", async () => {
    const { term, laptop, server, onServer, onLaptop, colleagueBooks, laptopBooks } = await startPlanning();
    await laptopBooks({ course_code: 'MTH400', section_name: '1', day: 'F', start_time: '08:00' });
    await colleagueBooks({ course_code: 'MTH500', section_name: '1', day: 'R', start_time: '16:00' });
    const outcome = await fetchTerm(laptop, server, term);
    expect(outcome).toMatchObject({ stored: true, status: 'fetched', fetched: 1, pending: 1 });
    expect(codes(await onLaptop())).toEqual(['MTH101', 'MTH400', 'MTH500']);
    expect(codes(await onServer())).toEqual(['MTH101', 'MTH500']);
    const status = (await laptop.run('schedule-sync-status', term)) as { pending: { after: { course_code: string } | null }[] };
    expect(status.pending.map((c) => c.after?.course_code)).toEqual(['MTH400']);
    expect(await publishTerm(laptop, server, term)).toMatchObject({ stored: true, published: 1 });
    expect(codes(await onServer())).toEqual(['MTH101', 'MTH400', 'MTH500']);
  });

  it('lists a change the rules refuse in words, and stores none of the others', async () => {
    const { term, campus, laptop, server, chemistToken, book, onServer, onLaptop, laptopBooks } = await startPlanning();
    // Another department books the room at the time the laptop is about to use.
    const chem = await campus.api('/scheduler/', {
      method: 'POST',
      json: book({ course_code: 'CHM110', section_name: '1', day: 'W', start_time: '15:00', room: 'Hall Z' }),
      headers: { authorization: `Bearer ${chemistToken}` },
    });
    expect(chem.status).toBe(200);
    await laptopBooks({ course_code: 'MTH610', section_name: '1', day: 'W', start_time: '15:00', room: 'Hall Z' });
    await laptopBooks({ course_code: 'MTH620', section_name: '1', day: 'T', start_time: '15:00', room: 'Hall Y' });
    const outcome = await publishTerm(laptop, server, term);
    expect(outcome).toMatchObject({ stored: false, status: 'refused' });
    expect(outcome.refused).toEqual([expect.objectContaining({ course_code: 'MTH610', reason: expect.stringMatching(/Hall Z/) as string })]);
    expect(JSON.stringify(outcome)).not.toContain('CHM110');
    expect(codes(await onServer())).not.toContain('MTH620');
    await laptop.run('schedule-delete', { entry_id: find(await onLaptop(), 'MTH610').id });
    expect(await publishTerm(laptop, server, term)).toMatchObject({ stored: true });
    expect(codes(await onServer())).toContain('MTH620');
    expect(codes(await onServer())).not.toContain('MTH610');
  });
});

describe('publishing changes over REST', () => {
  const change = (uid: string, start: string) => createdOnLaptop(uid, { course_code: 'MTH700', section_name: uid.slice(-1), day: 'S', start_time: start });
  const publisher =
    ({ asColleague, term }: Planning) =>
    async (body: Record<string, unknown>): Promise<Response> =>
      asColleague('/scheduler/terms/publish-changes', { method: 'POST', json: { ...term, ...body } });
  const revisionOf = async ({ asColleague, q }: Planning): Promise<number> =>
    (await json<{ revision: number }>(await asColleague(`/scheduler/revision?${q}`))).revision;

  it('applies a publish retried with the same key once', async () => {
    const planning = await startPlanning({ fetched: false });
    const publish = publisher(planning);
    const revision = await revisionOf(planning);
    const body = { base_revision: revision, key: 'retry-after-lost-answer', changes: [change(`restuid${planning.term.year}A`, '08:00')] };
    const first = await json<{ status: string; revision: number; replayed: boolean }>(await publish(body));
    expect(first).toMatchObject({ status: 'published', revision: revision + 1, replayed: false });
    const again = await json<{ status: string; revision: number; replayed: boolean }>(await publish(body));
    expect(again).toMatchObject({ status: 'published', revision: revision + 1, replayed: true });
    expect((await planning.onServer()).filter((m) => m.course_code === 'MTH700')).toHaveLength(1);
    expect(await revisionOf(planning)).toBe(revision + 1);
  });

  it('stores nothing when one change conflicts, and answers 4xx in words for a hostile body', async () => {
    const planning = await startPlanning({ fetched: false });
    const publish = publisher(planning);
    const published = await publish({
      base_revision: await revisionOf(planning),
      key: 'publish-before-conflict',
      changes: [change(`restuid${planning.term.year}A`, '08:00')],
    });
    expect(await json(published)).toMatchObject({ status: 'published' });
    const stale = (await revisionOf(planning)) - 1;
    const answer = await json<{ stored: boolean; status: string; conflicts: { course_code: string }[] }>(
      await publish({
        base_revision: stale,
        key: 'conflicting-publish-1',
        changes: [change(`restuid${planning.term.year}B`, '10:00'), change(`restuid${planning.term.year}A`, '09:00')],
      }),
    );
    expect(answer).toMatchObject({ stored: false, status: 'conflicts', conflicts: [{ course_code: 'MTH700' }] });
    expect((await planning.onServer()).filter((m) => m.course_code === 'MTH700').map((m) => m.start_time)).toEqual(['08:00']);
    for (const body of [
      { base_revision: -1, key: 'hostile-key-1', changes: [] },
      { base_revision: 0, key: 'x', changes: [] },
      { base_revision: 0, key: 'hostile-key-2', changes: [{ meeting_uid: 'a b', after: null }] },
      { base_revision: 0, key: 'hostile-key-3', changes: [{ ...change(`restuid${planning.term.year}C`, '25:00') }] },
      { base_revision: 0, key: 'hostile-key-4', changes: [{ ...change(`restuid${planning.term.year}D`, '10:00'), meeting_uid: 'another' }] },
      { base_revision: 10 ** 9, key: 'hostile-key-5', changes: [] },
    ]) {
      const response = await publish(body);
      expect([400, 422], `${JSON.stringify(body)}: ${await response.clone().text()}`).toContain(response.status);
      expect(await json<{ detail: string }>(response)).toHaveProperty('detail');
    }
  });

  it("cannot reach another department's meeting by its id: refused in words, nothing changed", async () => {
    const { term, campus, chemistToken, onServer } = await startPlanning({ fetched: false });
    const theirs = (await onServer())[0];
    const hijack = { ...change(theirs?.uid ?? '', '06:00'), meeting_uid: theirs?.uid ?? '' };
    hijack.after.uid = theirs?.uid ?? '';
    const asChemist = { authorization: `Bearer ${chemistToken}` };
    const response = await campus.api('/scheduler/terms/publish-changes', {
      method: 'POST',
      json: { ...term, base_revision: 0, key: 'hijack-attempt-1', changes: [hijack] },
      headers: asChemist,
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
      json: { ...term, base_revision: 0, key: 'hijack-attempt-2', changes: [{ meeting_uid: theirs?.uid, after: null }] },
      headers: asChemist,
    });
    expect(await json(deleting)).toMatchObject({ stored: true, applied: 0 });
    expect((await onServer()).map((m) => m.id)).toContain(theirs?.id);
  });

  it('replaces a term with a whole listing only with replace and the revision it replaces', async () => {
    const { term, asColleague, onServer, colleagueBooks } = await startPlanning({ fetched: false });
    // A second change: the term is at revision 2, and 1 is a stale base.
    await colleagueBooks({ course_code: 'MTH102', section_name: '1', day: 'TR', start_time: '09:00' });
    const listing = ['Course,Section,Days,Start Time,End Time,Room', 'MTH900,1,MW,08:00,08:50,TBD'].join('\n');
    const upload = (fields: Record<string, string>): Promise<Response> => {
      const form = new FormData();
      for (const [k, v] of Object.entries({ year: String(term.year), semester: term.semester, ...fields })) form.append(k, v);
      form.append('file', new Blob([listing]), 'term.csv');
      return asColleague('/scheduler/terms/publish', { method: 'POST', body: form });
    };
    const withoutReplace = await upload({ base_revision: '0' });
    expect(withoutReplace.status).toBe(422);
    expect((await json<{ detail: string }>(withoutReplace)).detail).toMatch(/replace/);
    const stale = await upload({ replace: 'true', base_revision: '1' });
    expect(stale.status).toBe(400);
    expect((await json<{ detail: string }>(stale)).detail).toMatch(
      new RegExp(`Nothing was published: Fall ${term.year} is at revision \\d+ on the server, not 1`),
    );
    expect(codes(await onServer())).toEqual(['MTH101', 'MTH102']);
  });
});

describe('the history of a term', () => {
  const historyOf =
    ({ campus, colleagueToken, q }: Planning) =>
    async (query = '', token = colleagueToken): Promise<{ revision: number; changes: TermChange[] }> =>
      json(await campus.api(`/scheduler/history?${q}${query}`, { headers: { authorization: `Bearer ${token}` } }));

  it('shows each change with its person, its values before and after, and the change in words', async () => {
    const planning = await startPlanning();
    const { term } = planning;
    const { campus, laptop, server, asColleague, chemistToken, book, onServer, laptopBooks } = planning;
    const history = historyOf(planning);
    expect((await asColleague(`/scheduler/${find(await onServer(), 'MTH101').id}`, { method: 'PATCH', json: { start_time: '11:00' } })).status).toBe(200);
    await laptopBooks({ course_code: 'MTH300', section_name: '1', day: 'MW', start_time: '13:00', room: 'Hall C' });
    expect(await publishTerm(laptop, server, term)).toMatchObject({ stored: true, published: 1 });
    const chem = await campus.api('/scheduler/', {
      method: 'POST',
      json: book({ course_code: 'CHM110', section_name: '1', day: 'W', start_time: '15:00' }),
      headers: { authorization: `Bearer ${chemistToken}` },
    });
    expect(chem.status).toBe(200);
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
    expect(mine.changes.length).toBeGreaterThan(0);
    expect(mine.changes.every((c) => c.course_code === 'MTH101')).toBe(true);
    // Another department sees none of these changes.
    expect((await history('', chemistToken)).changes.map((c) => c.course_code)).toEqual(['CHM110']);
  });

  it('undoes a move, and refuses an undo when a later change touched the same meeting', async () => {
    const planning = await startPlanning({ fetched: false });
    const { campus, asColleague, chemistToken, onServer, colleagueBooks } = planning;
    const history = historyOf(planning);
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
      headers: { authorization: `Bearer ${chemistToken}` },
    });
    expect(foreign.status).toBe(404);
  });

  it('carries a section without a time: published with its id, given a time on the server, fetched back as that meeting', async () => {
    const planning = await startPlanning();
    const { term, q } = planning;
    const { laptop, server, asColleague, onLaptop } = planning;
    const listing = [
      'Course,Section,Days,Start Time,End Time,Room,Instructors,Term,Type,Part of Term',
      `MTH450,W,,ARRANGED,,,Dr. Online,Fall ${term.year},Online,1`,
    ].join('\n');
    await laptop.run('schedule-import', { file: { filename: 'listing.csv', content: new TextEncoder().encode(listing) }, dry_run: false });
    const [section] = (await laptop.run('schedule-unscheduled', term)) as { uid: string; course_code: string }[];
    expect(section).toMatchObject({ course_code: 'MTH450' });
    expect(await publishTerm(laptop, server, term)).toMatchObject({ stored: true, published: 1 });
    expect(await json(await asColleague(`/scheduler/unscheduled?${q}`))).toMatchObject([
      { course_code: 'MTH450', section_name: 'W', uid: section?.uid, kind: 'Online', doctors: [{ name: 'Dr. Online' }] },
    ]);
    // Online, the colleague gives it a time with auto-fill.
    const placed = await asColleague('/scheduler/auto', {
      method: 'POST',
      json: { source: 'unscheduled', ...term, slots: [{ day: 'T', start_time: '19:00', duration_mins: 50 }], dry_run: false },
    });
    expect(placed.status, await placed.clone().text()).toBe(200);
    // The laptop fetches it: the meeting takes the section's place, under the same id.
    expect(await fetchTerm(laptop, server, term)).toMatchObject({ stored: true, conflicts: [] });
    expect(await laptop.run('schedule-unscheduled', term)).toEqual([]);
    expect(find(await onLaptop(), 'MTH450')).toMatchObject({ day: 'T', start_time: '19:00', uid: section?.uid });
    const [given] = (await historyOf(planning)('&course_code=MTH450')).changes;
    expect(given?.summary).toBe('gave MTH450 §W a time: T 19:00 by auto-fill');
  });

  it('publishes two meetings swapping their times in one room (refused one by one, stored together), and undoes the swap as one batch', async () => {
    const planning = await startPlanning();
    const { term, q } = planning;
    const { laptop, server, asColleague, onServer, laptopBooks } = planning;
    const a = await laptopBooks({ course_code: 'MTH661', section_name: '1', day: 'U', start_time: '08:00', room: 'Swap Hall' });
    const b = await laptopBooks({ course_code: 'MTH662', section_name: '1', day: 'U', start_time: '09:00', room: 'Swap Hall' });
    expect(await publishTerm(laptop, server, term)).toMatchObject({ stored: true, published: 2 });
    // On the laptop the swap takes three steps; what it publishes is each meeting's last version.
    await laptop.run('schedule-update', { entry_id: a.id, start_time: '10:00' });
    await laptop.run('schedule-update', { entry_id: b.id, start_time: '08:00' });
    await laptop.run('schedule-update', { entry_id: a.id, start_time: '09:00' });
    expect(await publishTerm(laptop, server, term)).toMatchObject({ stored: true, published: 2, refused: [], conflicts: [] });
    const swapped = async (): Promise<Meeting[]> => (await onServer()).filter((m) => m.course_code === 'MTH661' || m.course_code === 'MTH662');
    expect(labels(await swapped())).toEqual(['MTH661 1 U 09:00', 'MTH662 1 U 08:00']);
    // Undoing that publish swaps them back, which one by one the rules would refuse too.
    const batch = (await historyOf(planning)('&course_code=MTH661')).changes[0]?.batch;
    const undo = await asColleague('/scheduler/history/undo', { method: 'POST', json: { batch } });
    expect(undo.status, await undo.clone().text()).toBe(200);
    expect(labels(await swapped())).toEqual(['MTH661 1 U 08:00', 'MTH662 1 U 09:00']);
    // Two that need each other's places but still overlap once both are in are refused in words; nothing is stored.
    const [m661, m662] = await swapped();
    const { revision } = await json<{ revision: number }>(await asColleague(`/scheduler/revision?${q}`));
    const moved = (m: Meeting | undefined, start: string) => ({
      ...createdOnLaptop(m?.uid ?? '', { course_code: m?.course_code ?? '', section_name: '1', day: 'U', start_time: start, room: 'Swap Hall' }),
      operation: 'move' as const,
    });
    const overlapping = await asColleague('/scheduler/terms/publish-changes', {
      method: 'POST',
      json: { ...term, base_revision: revision, key: 'swap-that-overlaps', changes: [moved(m661, '09:00'), moved(m662, '08:30')] },
    });
    expect(overlapping.status, await overlapping.clone().text()).toBe(200);
    expect(await json(overlapping)).toMatchObject({ status: 'refused', stored: false });
    expect(labels(await swapped())).toEqual(['MTH661 1 U 08:00', 'MTH662 1 U 09:00']);
  });

  it('undoes a whole publish as one batch', async () => {
    const planning = await startPlanning();
    const { term } = planning;
    const { laptop, server, asColleague, onServer, onLaptop, laptopBooks } = planning;
    await laptopBooks({ course_code: 'MTH910', section_name: '1', day: 'T', start_time: '07:00' });
    await laptopBooks({ course_code: 'MTH920', section_name: '1', day: 'R', start_time: '07:00' });
    expect(await publishTerm(laptop, server, term)).toMatchObject({ stored: true, published: 2 });
    const batch = (await historyOf(planning)()).changes.find((c) => c.course_code === 'MTH920')?.batch;
    const undo = await asColleague('/scheduler/history/undo', { method: 'POST', json: { batch } });
    expect(undo.status, await undo.clone().text()).toBe(200);
    expect(await json<{ undone: number }>(undo)).toMatchObject({ undone: 2 });
    expect(codes(await onServer())).toEqual(['MTH101']);
    // The laptop fetches the undo: its meetings go too, nothing left pending.
    expect(await fetchTerm(laptop, server, term)).toMatchObject({ stored: true, pending: 0 });
    expect(codes(await onLaptop())).toEqual(['MTH101']);
  });
});

describe("the desktop's campus link, as the screens use it", () => {
  it('uploads a file with its fields, and reads an export back as a file', async () => {
    const { term, server, asColleague } = await startPlanning({ fetched: false });
    const courses = new TextEncoder().encode(JSON.stringify([{ code: 'MTH240', name: 'Linear Algebra', type: 'core' }]));
    await server.run('courses-upload', { file: { filename: 'courses.json', content: courses } });
    const catalog = await json<{ code: string; name: string }[]>(await asColleague('/data/courses'));
    expect(catalog).toContainEqual(expect.objectContaining({ code: 'MTH240', name: 'Linear Algebra' }));
    const file = (await server.run('schedule-export', { ...term, format: 'csv' })) as { filename: string; contentType: string; content: Uint8Array };
    expect(file.filename).toMatch(/\.csv$/);
    expect(file.contentType).toMatch(/^text\/csv/);
    expect(new TextDecoder().decode(file.content)).toContain('MTH101');
  });

  it("follows the server's change stream: a colleague's booking reaches the laptop's screens", async () => {
    const { server, colleagueBooks } = await startPlanning({ fetched: false });
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
