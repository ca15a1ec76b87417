import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { CHANGE_AREAS, type ChangeArea } from '../../core/domain/changes';
import { READ_AREAS, readDependsOn, type LiveRead } from '../../core/domain/reads';
import { ROUTES } from '../../core/http/routes';
import { json, sampleFile, startTestServer, TEST_TOKEN, type TestServer } from '../helpers/server';
import { tablesMark } from '../helpers/table-hashes';

/**
 * What a write declares it changes (the areas its `changed` event names) and what a read declares
 * it answers from (core/domain/reads.ts), checked against what happens: around each write made over
 * REST every table is hashed and every read the screens follow is asked. Each table that changed
 * must belong to an area the write named, and each read whose answer changed must depend on one of
 * them — otherwise a screen showing that read would stay stale after the write. A new table, write
 * route or read route fails here until it is placed.
 */

/** The change area each table belongs to. */
const TABLE_AREAS: Record<string, ChangeArea | null> = {
  departments: 'departments',
  courses: 'catalog',
  offerings: 'offerings',
  confirmed_terms: 'offerings',
  doctors: 'doctors',
  department_doctors: 'doctors',
  rooms: 'rooms',
  schedule_entries: 'timetable',
  schedule_entry_doctors: 'timetable',
  schedule_clashes: 'timetable',
  schedule_entry_locks: 'timetable',
  schedule_changes: 'timetable',
  term_revisions: 'timetable',
  sync_bases: 'timetable',
  idempotency_keys: 'timetable',
  // The store's own id, which laptops' sync bases name: made with the store, renewed by a restore.
  store_identity: 'timetable',
  // Sign-in attempts per address: no write of the API counts them, only a sign-in does.
  sign_in_addresses: null,
  // Browser sessions and sign-in links: opened by signing in, never by a write of the API.
  browser_sessions: null,
  sign_in_links: null,
  // Auto-fill drafts are followed by asking for them (GET /scheduler/auto/drafts/{id}), not by events.
  autofill_drafts: null,
  unscheduled_sections: 'timetable',
  term_parts: 'timetable',
  prediction_runs: 'runs',
  prediction_entries: 'runs',
  term_notes: 'runs',
  models: 'models',
  settings: 'settings',
  people: 'people',
  api_tokens: 'people',
  // The migrations' own record: no write changes it.
  schema_migrations: null,
};

/** Each test's own server, and the areas its writes announced. */
let server: TestServer;
const events: ChangeArea[][] = [];
beforeEach(async () => {
  events.length = 0;
  server = await startTestServer();
  // The token lives in a file, not a table; regenerating it here keeps the test's token so the writes after it still pass.
  server.core.context.access = { url: server.url, token: () => TEST_TOKEN, source: 'test', regenerable: true, regenerate: () => TEST_TOKEN, campus: false };
  server.core.events.subscribe((event) => {
    if (event.type === 'changed') events.push(event.areas);
  });
}, 60_000);
afterEach(async () => {
  await server.close();
});

interface Write {
  operation: string;
  send: () => Promise<Response>;
}

const post =
  (path: string, body: unknown, method = 'POST') =>
  () =>
    server.api(path, { method, json: body });
const upload = (path: string, name: string, content: Uint8Array | string, fields?: Record<string, string>) => () => server.upload(path, name, content, fields);
const send = (path: string, method: string) => () => server.api(path, { method });

/** A personal token of the person the writes add (for the writes a person makes on their own account). */
let personalToken = '';

/** The id in a write's answer, for the writes after it. */
const ids: Record<string, number> = {};
/** The background auto-fill draft the writes below start, cancel and apply. */
const draft = { id: '' };
const remember = (key: string, write: Write): Write => ({
  operation: write.operation,
  send: async () => {
    const response = await write.send();
    const body = (await response.clone().json()) as { id?: number; run_id?: number };
    ids[key] = body.run_id ?? body.id ?? Number.NaN;
    return response;
  },
});

const LISTING = [
  'Course,Section,Days,Start Time,End Time,Room,Instructors,Term',
  'CSC310,A,MWF,09:00,09:50,Hall 1,Dr. Listing,Fall 2025',
  'CSC320,A,TR,11:00,12:15,Hall 2,Dr. Listing,Fall 2025',
  'CSC330,A,,ARRANGED,,,Dr. Listing,Fall 2025',
].join('\n');

/** Every read the screens follow, as a script asks it (null: not askable yet). */
/** Each read a server serves, by the address a screen asks it at (the desktop app's own sync status is not served). */
const READS: Record<Exclude<LiveRead, 'schedule-sync-status'>, () => string | null> = {
  'campuses-list': () => '/campuses',
  'departments-list': () => '/departments',
  'settings-info': () => '/settings',
  'courses-list': () => '/data/courses',
  'offerings-list': () => '/data/offerings',
  'offerings-incomplete-terms': () => '/data/terms/incomplete',
  'doctors-list': () => '/scheduler/doctors',
  'rooms-list': () => '/scheduler/rooms',
  'predict-next-term': () => '/predict/next-term',
  'predict-quota-categories': () => '/predict/quota-categories?campus=Beirut',
  'profile-get': () => '/settings/profile',
  'predict-term-notes': () => '/predict/term-notes?year=2025&semester=Fall',
  'predict-runs': () => '/predict/runs?campus=Beirut',
  'predict-run': () => (ids.run === undefined ? null : `/predict/runs/${ids.run}`),
  'predict-run-compare': () => (ids.run === undefined ? null : `/predict/runs/${ids.run}/compare?since=${ids.run}`),
  'dashboard-metrics': () => '/dashboard/metrics',
  'schedule-settings': () => '/scheduler/settings',
  'schedule-terms': () => '/scheduler/terms',
  'schedule-parts': () => '/scheduler/parts?year=2025&semester=Fall',
  'schedule-unscheduled': () => '/scheduler/unscheduled?year=2025&semester=Fall',
  'schedule-cohorts': () => '/scheduler/cohorts?year=2025&semester=Fall',
  'schedule-list': () => '/scheduler/?year=2025&semester=Fall',
  'schedule-history': () => '/scheduler/history?year=2025&semester=Fall',
  'schedule-revision': () => '/scheduler/revision?year=2025&semester=Fall',
  'schedule-changes-since': () => '/scheduler/terms/changes?year=2025&semester=Fall',
  'campus-week': () => '/scheduler/campus?year=2025&semester=Fall',
  'schedule-autofill-campus-drafts': () => '/scheduler/auto/campus/drafts?year=2025&semester=Fall',
  me: () => '/me',
  'people-list': () => '/people',
  'tokens-list': () => '/me/tokens',
  'people-tokens-list': () => (ids.person === undefined ? null : `/people/${ids.person}/tokens`),
};

/** Every read's answer now, by operation (those not askable yet left out). */
async function readAnswers(): Promise<Map<LiveRead, string>> {
  const answers = new Map<LiveRead, string>();
  for (const [operation, path] of Object.entries(READS) as [LiveRead, () => string | null][]) {
    const at = path();
    if (at === null) continue;
    const response = await server.api(at);
    // A refusal is an answer too (no term to plan before any history): it must not go stale either.
    expect(response.status, `${operation}: ${await response.clone().text()}`).toBeLessThan(500);
    answers.set(operation, `${response.status} ${await response.text()}`);
  }
  return answers;
}

/** The reads whose answer changed between two snapshots, though nothing in `declared` is an area they depend on. */
function staleReads(before: Map<LiveRead, string>, after: Map<LiveRead, string>, declared: readonly ChangeArea[]): string[] {
  return [...after]
    .filter(([operation, answer]) => before.has(operation) && before.get(operation) !== answer && !readDependsOn(operation, declared))
    .map(([operation]) => `${operation} changed, but depends on none of [${declared.join(', ')}] (it declares [${READ_AREAS[operation].join(', ')}])`);
}

/** Small files that change what the sample holds: a course, an offering record, a doctor and a room more. */
const COURSE_FILE = JSON.stringify([{ code: 'CSC777', name: 'Writes Seminar', type: 'elective', prerequisites: [] }]);
const OFFERING_FILE = ['course_code,year,semester,campus,total_enrolled,passed_count,failed_count,is_offered', 'CSC201,2024,Fall,Beirut,61,50,11,true'].join(
  '\n',
);
const DOCTOR_FILE = ['name,allowed_courses', 'Dr. Uploaded,"CSC201, CSC777"'].join('\n');
const ROOM_FILE = ['name,capacity,campus', 'Uploaded Hall,55,Beirut'].join('\n');

/**
 * One successful call of every write route, in an order where each finds what it needs and changes
 * a table or a read's answer (`changes: false` marks the two that change neither here: a preview,
 * and a new token kept in a file): a write that changed nothing would check nothing.
 */
const WRITES: (Write & { changes?: false })[] = [
  { operation: 'sample-load', send: send('/data/sample', 'POST') },
  { operation: 'courses-upload', send: upload('/data/upload/courses', 'courses.json', COURSE_FILE) },
  { operation: 'offerings-upload', send: upload('/data/upload/offerings', 'offerings.csv', OFFERING_FILE) },
  { operation: 'doctors-upload', send: upload('/data/upload/doctors', 'doctors.csv', DOCTOR_FILE) },
  { operation: 'rooms-upload', send: upload('/data/upload/rooms', 'rooms.csv', ROOM_FILE) },
  { operation: 'import-preview', send: upload('/data/preview', 'offerings.csv', sampleFile('offerings.csv'), { kind: 'offerings' }), changes: false },
  { operation: 'offerings-confirm-term', send: post('/data/terms/confirm', { campus: 'Beirut', year: 2024, semester: 'Fall' }) },
  remember('doctor', { operation: 'doctors-create', send: post('/scheduler/doctors', { name: 'Dr. Writes', allowed_courses: ['CSC201'] }) }),
  remember('room', { operation: 'rooms-create', send: post('/scheduler/rooms', { name: 'W-101', capacity: 40, campus: 'Beirut' }) }),
  { operation: 'rooms-update', send: () => server.api(`/scheduler/rooms/${ids.room}`, { method: 'PATCH', json: { capacity: 55 } }) },
  { operation: 'rooms-delete', send: () => server.api(`/scheduler/rooms/${ids.room}`, { method: 'DELETE' }) },
  { operation: 'predict-train', send: send('/predict/train', 'POST') },
  remember('run', {
    operation: 'predict-bulk',
    send: post('/predict/bulk', { run_name: 'writes', target_year: 2025, target_semester: 'Fall', target_campus: 'Beirut' }),
  }),
  {
    operation: 'predict-run-decide',
    send: () => server.api(`/predict/runs/${ids.run}/entries/CSC201`, { method: 'PATCH', json: { decision: 'offer', sections: 2, reason: 'two sections' } }),
  },
  remember('note', {
    operation: 'predict-term-note-add',
    send: post('/predict/term-notes', { year: 2025, semester: 'Fall', kind: 'course_retired', course_code: 'CSC201', reason: 'retired' }),
  }),
  { operation: 'predict-term-note-delete', send: () => server.api(`/predict/term-notes/${ids.note}`, { method: 'DELETE' }) },
  { operation: 'profile-update', send: post('/settings/profile', { section_size: 25 }, 'PATCH') },
  { operation: 'schedule-settings-update', send: post('/scheduler/settings', { current_term: { year: 2025, semester: 'Fall' } }, 'PATCH') },
  {
    operation: 'schedule-parts-save',
    send: post('/scheduler/parts', { year: 2025, semester: 'Fall', code: 'A', name: 'First half', start_date: '2025-09-01', end_date: '2025-10-20' }),
  },
  remember('entry', {
    operation: 'schedule-create',
    send: () =>
      server.api('/scheduler/', {
        method: 'POST',
        json: {
          course_code: 'CSC201',
          section_name: '1',
          doctors: [{ id: ids.doctor }],
          day: 'M',
          start_time: '09:00',
          duration_mins: 60,
          room: 'Bassil 101',
          year: 2025,
          semester: 'Fall',
        },
      }),
  }),
  {
    operation: 'schedule-update',
    send: () => server.api(`/scheduler/${ids.entry}`, { method: 'PATCH', json: { start_time: '10:00', doctors: [{ id: ids.doctor, role: 'coordinates' }] } }),
  },
  { operation: 'schedule-parts-delete', send: send('/scheduler/parts/A?year=2025&semester=Fall', 'DELETE') },
  { operation: 'schedule-terms-copy', send: post('/scheduler/terms/copy', { from: { year: 2025, semester: 'Fall' }, to: { year: 2026, semester: 'Spring' } }) },
  { operation: 'schedule-import', send: upload('/scheduler/import', 'listing.csv', LISTING, { dry_run: 'false' }) },
  {
    operation: 'schedule-autofill',
    send: () => server.api('/scheduler/auto', { method: 'POST', json: { run_id: ids.run, year: 2025, semester: 'Fall', time_budget_ms: 500, dry_run: false } }),
  },
  {
    operation: 'schedule-autofill-start',
    changes: false,
    send: async () => {
      const response = await post('/scheduler/auto/drafts', {
        source: 'term',
        rebuild: true,
        seed: 2,
        year: 2025,
        semester: 'Fall',
        time_budget_ms: 5_000,
        moves: 1_000,
      })();
      draft.id = ((await response.clone().json()) as { draft_id: string }).draft_id;
      return response;
    },
  },
  { operation: 'schedule-autofill-cancel', changes: false, send: () => server.api(`/scheduler/auto/drafts/${draft.id}/cancel`, { method: 'POST' }) },
  {
    operation: 'schedule-autofill-apply',
    send: async () => {
      while (((await (await server.api(`/scheduler/auto/drafts/${draft.id}`)).json()) as { status: string }).status === 'running')
        await new Promise((resolve) => setTimeout(resolve, 20));
      return post(`/scheduler/auto/drafts/${draft.id}/apply`, {})();
    },
  },
  {
    operation: 'schedule-autofill-campus-start',
    changes: false,
    send: () => server.api('/scheduler/auto/campus/drafts', { method: 'POST', json: { seed: 3, year: 2025, semester: 'Fall', time_budget_ms: 200 } }),
  },
  {
    operation: 'schedule-autofill-campus',
    // A rebuild may find every meeting where it is: what it changes, it must name.
    changes: false,
    send: () =>
      server.api('/scheduler/auto/campus', {
        method: 'POST',
        json: { rebuild: true, seed: 3, year: 2025, semester: 'Fall', time_budget_ms: 500, dry_run: false },
      }),
  },
  { operation: 'schedule-delete', send: () => server.api(`/scheduler/${ids.entry}`, { method: 'DELETE' }) },
  {
    operation: 'schedule-undo',
    send: async () => {
      const history = await json<{ changes: { id: number; operation: string }[] }>(await server.api('/scheduler/history?year=2025&semester=Fall'));
      const deleted = history.changes.find((c) => c.operation === 'delete');
      return post('/scheduler/history/undo', { change_id: deleted?.id })();
    },
  },
  {
    operation: 'schedule-publish',
    send: async () => {
      const { revision } = await json<{ revision: number }>(await server.api('/scheduler/revision?year=2025&semester=Fall'));
      return upload('/scheduler/terms/publish', 'term.csv', LISTING, { year: '2025', semester: 'Fall', replace: 'true', base_revision: String(revision) })();
    },
  },
  {
    operation: 'schedule-publish-changes',
    send: post('/scheduler/terms/publish-changes', {
      year: 2025,
      semester: 'Fall',
      base_revision: 0,
      key: 'declared-changes-publish',
      changes: [
        {
          meeting_uid: 'laptopmeeting1',
          operation: 'create',
          after: {
            uid: 'laptopmeeting1',
            course_code: 'CSC390',
            section_name: 'L',
            day: 'F',
            start_time: '15:00',
            duration_mins: 50,
            room: 'Laptop Room',
            part_of_term: '1',
            joint_group: null,
            campus: 'Beirut',
            instructors: [{ id: 999, name: 'Dr. From The Laptop', role: 'teaches' }],
            locked: false,
          },
        },
      ],
    }),
  },
  remember('department', { operation: 'departments-create', send: post('/departments', { code: 'PHYS', name: 'Physics', campuses: ['Beirut'] }) }),
  { operation: 'departments-update', send: () => server.api(`/departments/${ids.department}`, { method: 'PATCH', json: { name: 'Physics and Astronomy' } }) },
  remember('person', {
    operation: 'people-create',
    send: post('/people', { login: 'writes', name: 'Writes Scheduler', role: 'scheduler', department_id: 1, password: 'correct horse battery' }),
  }),
  { operation: 'people-update', send: () => server.api(`/people/${ids.person}`, { method: 'PATCH', json: { name: 'Writes Scheduler II' } }) },
  remember('token', {
    operation: 'tokens-create',
    send: async () => {
      personalToken = (await json<{ token: string }>(await post('/session/token', { login: 'writes', password: 'correct horse battery', label: 'first' })()))
        .token;
      return server.api('/me/tokens', { method: 'POST', json: { label: 'second' }, headers: { authorization: `Bearer ${personalToken}` } });
    },
  }),
  {
    operation: 'tokens-revoke',
    send: () => server.api(`/me/tokens/${ids.token}`, { method: 'DELETE', headers: { authorization: `Bearer ${personalToken}` } }),
  },
  remember('spare', {
    operation: 'tokens-create',
    send: () => server.api('/me/tokens', { method: 'POST', json: { label: 'spare' }, headers: { authorization: `Bearer ${personalToken}` } }),
  }),
  { operation: 'people-tokens-revoke', send: () => server.api(`/people/${ids.person}/tokens/${ids.spare}`, { method: 'DELETE' }) },
  { operation: 'settings-regenerate-token', send: send('/settings/token', 'POST'), changes: false },
];

describe('what each write declares it changes', () => {
  it('places every table in a change area', async () => {
    expect(Object.keys(await tablesMark(server.core.context.db)).sort()).toEqual(Object.keys(TABLE_AREAS).sort());
    for (const area of Object.values(TABLE_AREAS)) if (area !== null) expect(CHANGE_AREAS).toContain(area);
  });

  it('places every read route the screens can follow in the table of reads', () => {
    const liveReads = ROUTES.filter((r) => r.method === 'GET' && !r.file && !r.public && r.progress !== true).map((r) => r.operation);
    // The desktop app's own reads, which a server does not serve, follow the same table.
    const desktopReads = ['schedule-sync-status'];
    expect(Object.keys(READ_AREAS).sort()).toEqual([...liveReads, ...desktopReads].sort());
    for (const areas of Object.values(READ_AREAS)) for (const area of areas) expect(CHANGE_AREAS).toContain(area);
  });

  it('covers every write route', () => {
    const exercised = new Set([...WRITES.map((w) => w.operation), 'database-restore']);
    expect(ROUTES.filter((r) => r.method !== 'GET' && !exercised.has(r.operation)).map((r) => r.operation)).toEqual([]);
  });

  // Each write finds what the writes before it made, so they run in turn in one test, on its own server;
  // every write is checked (softly: a failing one does not hide the ones after it).
  it('has every write, in turn, name every area whose tables it changed, and every read it changed depend on one', async () => {
    for (const key of Object.keys(ids)) delete ids[key];
    // What one write left is what the next one finds: nothing else writes between them, so each
    // write's "after" is read once and is the next write's "before".
    let before = await tablesMark(server.core.context.db);
    let answersBefore = await readAnswers();
    for (const write of WRITES) {
      events.length = 0;
      const response = await write.send();
      expect.soft(response.status, `${write.operation}: ${await response.clone().text()}`).toBe(200);
      const after = await tablesMark(server.core.context.db);
      const changedTables = Object.keys(after).filter((table) => after[table] !== before[table]);
      const answersAfter = await readAnswers();
      const changedReads = [...answersAfter].filter(([operation, answer]) => answersBefore.has(operation) && answersBefore.get(operation) !== answer);
      if (write.changes !== false)
        expect
          .soft(changedTables.length + changedReads.length, `${write.operation} changed no table and no read here, so it checks nothing`)
          .toBeGreaterThan(0);
      const declared = new Set(events.flat());
      // A table of no area (sign-in attempts an address made) is no read's answer: nothing to announce.
      for (const table of changedTables.filter((t) => TABLE_AREAS[t] !== null))
        expect.soft(declared, `${write.operation} changed ${table} without naming "${String(TABLE_AREAS[table])}"`).toContain(TABLE_AREAS[table]);
      expect.soft(staleReads(answersBefore, answersAfter, [...declared]), `${write.operation}'s stale reads`).toEqual([]);
      before = after;
      answersBefore = answersAfter;
    }
  }, 180_000);

  it('names every area a restore changes', async () => {
    const backup = await server.api('/data/backup');
    expect(backup.status).toBe(200);
    const bytes = new Uint8Array(await backup.arrayBuffer());
    await server.api('/scheduler/rooms', { method: 'POST', json: { name: 'After backup', capacity: 10 } });
    await server.api('/scheduler/doctors', { method: 'POST', json: { name: 'Dr. After Backup', allowed_courses: [] } });
    const before = await tablesMark(server.core.context.db);
    const answersBefore = await readAnswers();
    events.length = 0;
    const restored = await server.upload('/data/restore', 'backup.db', bytes);
    expect(restored.status, await restored.clone().text()).toBe(200);
    expect((await json<{ status: string }>(restored)).status).toBe('restored');
    const after = await tablesMark(server.core.context.db);
    const changedTables = Object.keys(after).filter((table) => after[table] !== before[table]);
    expect(changedTables).toEqual(expect.arrayContaining(['rooms', 'doctors']));
    const declared = new Set(events.flat());
    for (const table of changedTables) expect(declared).toContain(TABLE_AREAS[table]);
    const answersAfter = await readAnswers();
    expect([...answersAfter].filter(([operation, answer]) => answersBefore.get(operation) !== answer).map(([operation]) => operation)).toEqual(
      expect.arrayContaining(['rooms-list', 'doctors-list']),
    );
    expect(staleReads(answersBefore, answersAfter, [...declared])).toEqual([]);
  });
});
