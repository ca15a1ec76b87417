import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CHANGE_AREAS, type ChangeArea } from '../../core/domain/changes';
import { ROUTES } from '../../core/http/routes';
import { json, sampleFile, startTestServer, TEST_TOKEN, type TestServer } from '../helpers/server';
import { tableHashes } from '../helpers/table-hashes';

/**
 * What a write declares it changes (the areas its `changed` event names, which every open screen
 * reloads on) checked against what it did change: every table is hashed before and after each
 * write made over REST, and each table that changed must belong to a declared area. A write that
 * forgot an area would leave a screen showing stale data; a new table or a new write route fails
 * here until it is placed.
 */

/** The change area each table belongs to. */
const TABLE_AREAS: Record<string, ChangeArea | null> = {
  courses: 'catalog',
  offerings: 'offerings',
  confirmed_terms: 'offerings',
  doctors: 'doctors',
  rooms: 'rooms',
  schedule_entries: 'timetable',
  schedule_entry_doctors: 'timetable',
  schedule_clashes: 'timetable',
  term_parts: 'timetable',
  prediction_runs: 'runs',
  prediction_entries: 'runs',
  term_notes: 'runs',
  models: 'models',
  settings: 'settings',
  // The migrations' own record: no write changes it.
  schema_migrations: null,
};

let server: TestServer;
const events: ChangeArea[][] = [];
beforeAll(async () => {
  server = await startTestServer();
  // The token lives in a file, not a table; regenerating it here keeps the test's token so the writes after it still pass.
  server.core.context.access = { url: server.url, token: () => TEST_TOKEN, source: 'test', regenerable: true, regenerate: () => TEST_TOKEN };
  server.core.events.subscribe((event) => {
    if (event.type === 'changed') events.push(event.areas);
  });
}, 60_000);
afterAll(async () => {
  await server.close();
});

interface Write {
  operation: string;
  send: () => Promise<Response>;
}

const post = (path: string, body: unknown, method = 'POST') => () => server.api(path, { method, json: body });
const upload = (path: string, name: string, content: Uint8Array | string, fields?: Record<string, string>) => () => server.upload(path, name, content, fields);
const send = (path: string, method: string) => () => server.api(path, { method });

/** The id in a write's answer, for the writes after it. */
const ids: Record<string, number> = {};
const remember = (key: string, write: Write): Write => ({
  operation: write.operation,
  send: async () => {
    const response = await write.send();
    const body = (await response.clone().json()) as { id?: number; run_id?: number };
    ids[key] = body.run_id ?? body.id ?? Number.NaN;
    return response;
  },
});

const LISTING = ['Course,Section,Days,Start Time,End Time,Room,Instructors,Term', 'CSC310,A,MWF,09:00,09:50,Hall 1,Dr. Listing,Fall 2025', 'CSC320,A,TR,11:00,12:15,Hall 2,Dr. Listing,Fall 2025'].join('\n');

/** One successful call of every write route, in an order where each finds what it needs. */
const WRITES: Write[] = [
  { operation: 'courses-upload', send: upload('/data/upload/courses', 'courses.json', sampleFile('courses.json')) },
  { operation: 'offerings-upload', send: upload('/data/upload/offerings', 'offerings.csv', sampleFile('offerings.csv')) },
  { operation: 'doctors-upload', send: upload('/data/upload/doctors', 'doctors.csv', sampleFile('doctors.csv')) },
  { operation: 'rooms-upload', send: upload('/data/upload/rooms', 'rooms.csv', sampleFile('rooms.csv')) },
  { operation: 'import-preview', send: upload('/data/preview', 'offerings.csv', sampleFile('offerings.csv'), { kind: 'offerings' }) },
  { operation: 'offerings-confirm-term', send: post('/data/terms/confirm', { campus: 'Beirut', year: 2024, semester: 'Fall' }) },
  remember('doctor', { operation: 'doctors-create', send: post('/scheduler/doctors', { name: 'Dr. Writes', allowed_courses: ['CSC201'] }) }),
  remember('room', { operation: 'rooms-create', send: post('/scheduler/rooms', { name: 'W-101', capacity: 40, campus: 'Beirut' }) }),
  { operation: 'rooms-delete', send: () => server.api(`/scheduler/rooms/${ids.room}`, { method: 'DELETE' }) },
  { operation: 'predict-train', send: send('/predict/train', 'POST') },
  remember('run', { operation: 'predict-bulk', send: post('/predict/bulk', { run_name: 'writes', target_year: 2025, target_semester: 'Fall', target_campus: 'Beirut' }) }),
  { operation: 'predict-run-decide', send: () => server.api(`/predict/runs/${ids.run}/entries/CSC201`, { method: 'PATCH', json: { decision: 'offer', sections: 2, reason: 'two sections' } }) },
  remember('note', { operation: 'predict-term-note-add', send: post('/predict/term-notes', { year: 2025, semester: 'Fall', kind: 'course_retired', course_code: 'CSC201', reason: 'retired' }) }),
  { operation: 'predict-term-note-delete', send: () => server.api(`/predict/term-notes/${ids.note}`, { method: 'DELETE' }) },
  { operation: 'profile-update', send: post('/settings/profile', { section_size: 25 }, 'PATCH') },
  { operation: 'schedule-settings-update', send: post('/scheduler/settings', { current_term: { year: 2025, semester: 'Fall' } }, 'PATCH') },
  { operation: 'schedule-parts-save', send: post('/scheduler/parts', { year: 2025, semester: 'Fall', code: 'A', name: 'First half', start_date: '2025-09-01', end_date: '2025-10-20' }) },
  remember('entry', { operation: 'schedule-create', send: post('/scheduler/', { course_code: 'CSC201', section_name: '1', doctor_id: 0, day: 'M', start_time: '09:00', duration_mins: 60, room: 'Bassil 101', year: 2025, semester: 'Fall' }) }),
  { operation: 'schedule-update', send: () => server.api(`/scheduler/${ids.entry}`, { method: 'PATCH', json: { start_time: '10:00' } }) },
  { operation: 'schedule-parts-delete', send: send('/scheduler/parts/A?year=2025&semester=Fall', 'DELETE') },
  { operation: 'schedule-terms-copy', send: post('/scheduler/terms/copy', { from: { year: 2025, semester: 'Fall' }, to: { year: 2026, semester: 'Spring' } }) },
  { operation: 'schedule-import', send: upload('/scheduler/import', 'listing.csv', LISTING, { dry_run: 'false' }) },
  { operation: 'schedule-autofill', send: () => server.api('/scheduler/auto', { method: 'POST', json: { run_id: ids.run, year: 2025, semester: 'Fall', time_budget_ms: 500 } }) },
  { operation: 'schedule-delete', send: () => server.api(`/scheduler/${ids.entry}`, { method: 'DELETE' }) },
  { operation: 'settings-regenerate-token', send: send('/settings/token', 'POST') },
  { operation: 'sample-load', send: send('/data/sample', 'POST') },
];

describe('what each write declares it changes', () => {
  it('places every table in a change area', () => {
    expect(Object.keys(tableHashes(server.core.context.db)).sort()).toEqual(Object.keys(TABLE_AREAS).sort());
    for (const area of Object.values(TABLE_AREAS)) if (area !== null) expect(CHANGE_AREAS).toContain(area);
  });

  it('covers every write route', () => {
    const exercised = new Set([...WRITES.map((w) => w.operation), 'database-restore']);
    expect(ROUTES.filter((r) => r.method !== 'GET' && !exercised.has(r.operation)).map((r) => r.operation)).toEqual([]);
  });

  it.each(WRITES.map((w) => [w.operation, w] as const))('%s names every area whose tables it changed', async (_name, write) => {
    const before = tableHashes(server.core.context.db);
    events.length = 0;
    const response = await write.send();
    expect(response.status, await response.clone().text()).toBe(200);
    const after = tableHashes(server.core.context.db);
    const changedTables = Object.keys(after).filter((table) => after[table] !== before[table]);
    const declared = new Set(events.flat());
    for (const table of changedTables) expect(declared, `${write.operation} changed ${table} without naming "${String(TABLE_AREAS[table])}"`).toContain(TABLE_AREAS[table]);
  });

  it('names every area a restore changes', async () => {
    const backup = await server.api('/data/backup');
    expect(backup.status).toBe(200);
    const bytes = new Uint8Array(await backup.arrayBuffer());
    await server.api('/scheduler/rooms', { method: 'POST', json: { name: 'After backup', capacity: 10 } });
    await server.api('/scheduler/doctors', { method: 'POST', json: { name: 'Dr. After Backup', allowed_courses: [] } });
    const before = tableHashes(server.core.context.db);
    events.length = 0;
    const restored = await server.upload('/data/restore', 'backup.db', bytes);
    expect(restored.status, await restored.clone().text()).toBe(200);
    expect((await json<{ status: string }>(restored)).status).toBe('restored');
    const after = tableHashes(server.core.context.db);
    const changedTables = Object.keys(after).filter((table) => after[table] !== before[table]);
    expect(changedTables).toEqual(expect.arrayContaining(['rooms', 'doctors']));
    const declared = new Set(events.flat());
    for (const table of changedTables) expect(declared).toContain(TABLE_AREAS[table]);
  });
});
