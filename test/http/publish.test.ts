import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { json, startTestServer, type TestServer } from '../helpers/server';

/**
 * A term planned offline on a laptop, published to the campus server: checked against every other
 * department's bookings, refused whole with its clashes listed, then fixed and published; and
 * fetched back to the laptop. Both installations are real servers, talked to over REST, made
 * afresh for each test.
 */
let campus: TestServer;
let laptop: TestServer;
let ece: number;
let phys: number;
let physToken = '';

const TERM = { year: 2026, semester: 'Fall' } as const;

const onLaptop = (path: string, body: Record<string, unknown>): Promise<Response> => laptop.api(path, { method: 'POST', json: { ...TERM, ...body } });

async function laptopListing(): Promise<string> {
  const response = await laptop.api(`/scheduler/export?format=csv&details=true&year=${TERM.year}&semester=${TERM.semester}`);
  expect(response.status).toBe(200);
  return response.text();
}

/** A term's revision, as the one whose token is given reads it. */
async function revisionOf(base: string, token: string): Promise<number> {
  const answer = await fetch(`${base}/scheduler/revision?year=${TERM.year}&semester=${TERM.semester}`, { headers: { authorization: `Bearer ${token}` } });
  return (await json<{ revision: number }>(answer)).revision;
}

/** A script replacing the department's term with a whole listing: `replace` and the revision it replaces. */
async function publish(listing: string, token: string, dryRun = false): Promise<Response> {
  const form = new FormData();
  form.append('year', String(TERM.year));
  form.append('semester', TERM.semester);
  form.append('dry_run', String(dryRun));
  form.append('replace', 'true');
  form.append('base_revision', String(await revisionOf(campus.url, token)));
  form.append('file', new Blob([listing]), 'term.csv');
  return fetch(`${campus.url}/scheduler/terms/publish`, { method: 'POST', body: form, headers: { authorization: `Bearer ${token}` } });
}

const physTerm = async (): Promise<{ course_code: string; section_name: string; room: string; start_time: string }[]> =>
  json(await fetch(`${campus.url}/scheduler/?year=${TERM.year}&semester=${TERM.semester}`, { headers: { authorization: `Bearer ${physToken}` } }));

beforeEach(async () => {
  [campus, laptop] = await Promise.all([startTestServer(), startTestServer()]);
  ece = (await json<{ id: number }>(await campus.api('/departments', { method: 'POST', json: { code: 'ECE', name: 'Electrical Engineering' } }))).id;
  phys = (await json<{ id: number }>(await campus.api('/departments', { method: 'POST', json: { code: 'PHYS', name: 'Physics' } }))).id;
  // On the server: ECE holds the shared lecture hall Monday and Wednesday at ten, and Physics has a term already.
  const eceBooking = await campus.api('/scheduler/', {
    method: 'POST',
    headers: { 'x-termwise-department': String(ece) },
    json: { ...TERM, course_code: 'ECE310', section_name: 'A', day: 'MW', start_time: '10:00', duration_mins: 75, room: 'Lecture Hall' },
  });
  expect(eceBooking.status, await eceBooking.clone().text()).toBe(200);
  const old = await campus.api('/scheduler/', {
    method: 'POST',
    headers: { 'x-termwise-department': String(phys) },
    json: { ...TERM, course_code: 'PHYS100', section_name: 'OLD', day: 'F', start_time: '08:00', duration_mins: 50, room: 'Phys Lab' },
  });
  expect(old.status).toBe(200);
  await campus.api('/people', {
    method: 'POST',
    json: { login: 'phys', name: 'Physics Scheduler', role: 'scheduler', department_id: phys, password: 'physics passphrase' },
  });
  const token = await fetch(`${campus.url}/session/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ login: 'phys', password: 'physics passphrase', label: 'desktop' }),
  });
  physToken = (await json<{ token: string }>(token)).token;

  // On the laptop, offline: Physics plans its term, one section in the lecture hall at 10:30.
  expect(
    (await onLaptop('/scheduler/', { course_code: 'PHYS211', section_name: '1', day: 'MW', start_time: '10:30', duration_mins: 50, room: 'Lecture Hall' }))
      .status,
  ).toBe(200);
  expect(
    (await onLaptop('/scheduler/', { course_code: 'PHYS212', section_name: '1', day: 'TR', start_time: '09:00', duration_mins: 75, room: 'Phys Lab' })).status,
  ).toBe(200);
}, 120_000);

afterEach(async () => {
  await Promise.all([campus.close(), laptop.close()]);
});

/** The laptop's clash fixed (PHYS211 moved to 13:00, out of ECE's hour in the lecture hall), then its term published. */
async function publishFixed(): Promise<Response> {
  const [entry] = await json<{ id: number; course_code: string }[]>(await laptop.api(`/scheduler/?year=${TERM.year}&semester=${TERM.semester}`));
  expect(entry?.course_code).toBe('PHYS211');
  expect((await laptop.api(`/scheduler/${entry?.id}`, { method: 'PATCH', json: { start_time: '13:00' } })).status).toBe(200);
  return publish(await laptopListing(), physToken);
}

describe('publishing a term planned offline', () => {
  it('is refused whole when a meeting clashes with another department, every clash listed without naming what the publisher may not read', async () => {
    const before = await physTerm();
    const refused = await publish(await laptopListing(), physToken);
    expect(refused.status).toBe(400);
    const body = await json<{ detail: string; conflicts: string[] }>(refused);
    expect(body.detail).toMatch(/Nothing was published: 1 meeting/);
    expect(body.conflicts).toHaveLength(1);
    expect(body.conflicts[0]).toMatch(/PHYS211 1/);
    expect(body.conflicts[0]).toMatch(/another department/);
    expect(JSON.stringify(body)).not.toContain('ECE310');
    // Nothing stored: not the meeting that fitted, and the term's old meetings are still there.
    expect(await physTerm()).toEqual(before);
    // A dry run says the same without trying.
    expect((await publish(await laptopListing(), physToken, true)).status).toBe(400);
  });

  it('once fixed, replaces the department’s term on the server in one step, leaving other departments’ meetings alone', async () => {
    const published = await publishFixed();
    expect(published.status, await published.clone().text()).toBe(200);
    expect(await json(published)).toMatchObject({ status: 'success', meetings: 2, conflicts: [] });
    const term = await physTerm();
    expect(term.map((m) => `${m.course_code} ${m.section_name} ${m.start_time}`).sort()).toEqual(['PHYS211 1 13:00', 'PHYS212 1 09:00']);
    const eceTerm = await json<{ course_code: string }[]>(
      await campus.api(`/scheduler/?year=${TERM.year}&semester=${TERM.semester}`, { headers: { 'x-termwise-department': String(ece) } }),
    );
    expect(eceTerm.map((m) => m.course_code)).toEqual(['ECE310']);
  });

  it('can be fetched back to the laptop: the server’s term replaces the laptop’s', async () => {
    expect((await publishFixed()).status).toBe(200);
    // Someone changes the term on the server; the laptop takes the server's version.
    const [first] = await physTerm();
    expect(
      (
        await fetch(`${campus.url}/scheduler/${(first as unknown as { id: number }).id}`, {
          method: 'PATCH',
          headers: { authorization: `Bearer ${physToken}`, 'content-type': 'application/json' },
          body: JSON.stringify({ start_time: '15:00' }),
        })
      ).status,
    ).toBe(200);
    const listing = await (
      await fetch(`${campus.url}/scheduler/export?format=csv&details=true&year=${TERM.year}&semester=${TERM.semester}`, {
        headers: { authorization: `Bearer ${physToken}` },
      })
    ).text();
    const form = new FormData();
    form.append('year', String(TERM.year));
    form.append('semester', TERM.semester);
    form.append('replace', 'true');
    form.append(
      'base_revision',
      String((await json<{ revision: number }>(await laptop.api(`/scheduler/revision?year=${TERM.year}&semester=${TERM.semester}`))).revision),
    );
    form.append('file', new Blob([listing]), 'term.csv');
    expect((await laptop.api('/scheduler/terms/publish', { method: 'POST', body: form })).status).toBe(200);
    const onLaptopNow = await json<{ course_code: string; start_time: string }[]>(await laptop.api(`/scheduler/?year=${TERM.year}&semester=${TERM.semester}`));
    expect(onLaptopNow.map((m) => `${m.course_code} ${m.start_time}`).sort()).toEqual(['PHYS211 15:00', 'PHYS212 09:00'].sort());
  });

  it('refuses a listing that names a revision the term has moved on from, replacing nothing', async () => {
    const stale = (await revisionOf(campus.url, physToken)) - 1;
    const form = new FormData();
    form.append('year', String(TERM.year));
    form.append('semester', TERM.semester);
    form.append('replace', 'true');
    form.append('base_revision', String(stale));
    form.append('file', new Blob(['Course,Section,Days,Start Time,End Time,Room\nPHYS999,1,F,12:00,12:50,TBD\n']), 'term.csv');
    const refused = await fetch(`${campus.url}/scheduler/terms/publish`, { method: 'POST', body: form, headers: { authorization: `Bearer ${physToken}` } });
    expect(refused.status).toBe(400);
    expect((await json<{ detail: string }>(refused)).detail).toMatch(/replacing it would drop changes made since/);
    expect((await physTerm()).map((m) => m.course_code)).not.toContain('PHYS999');
  });

  it('refuses an empty listing rather than wiping the term', async () => {
    expect((await publishFixed()).status).toBe(200);
    const response = await publish('Course,Section,Days,Start Time,End Time,Room\n', physToken);
    expect(response.status).toBe(400);
    expect((await physTerm()).length).toBe(2);
  });
});
