import fc from 'fast-check';
import { z } from 'zod';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { handlers } from '../../core/handlers';
import { ROUTES, type RouteSpec } from '../../core/http/routes';
import { loadSample, startTestServer, type TestServer } from '../helpers/server';
import { tablesMark } from '../helpers/table-hashes';
import { lastColumnWorkbook, spacesCellWorkbook, workbook } from '../fixtures/hostile-workbooks';

/**
 * Every route of the REST table, fuzzed the way a hostile local process would: no answer is a
 * 5xx, a refused request writes nothing, and every answer comes in bounded time. Routes are taken
 * from the route table, so a new route is fuzzed without touching this file.
 */
let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
  await loadSample(server);
}, 60_000);
afterAll(async () => {
  await server.close();
});

/**
 * The tables' digest as the last refused request left them: it wrote nothing, so they are still
 * so, and the next request need not read every table again to know what they were before it.
 * Requests run one at a time, and nothing else writes between them. A request that succeeds may
 * have written: the next reads them again.
 */
let unchanged: Record<string, string> | null = null;
const tablesBefore = async (): Promise<Record<string, string>> => unchanged ?? tablesMark(server.core.context.db);

/** Checks that a refused request wrote nothing (its tables as they were before it), and keeps the digest for the next. */
async function expectNothingWritten(before: Record<string, string>, message?: string): Promise<void> {
  const after = await tablesMark(server.core.context.db);
  expect(after, message).toEqual(before);
  unchanged = after;
}

/** Values that broke parsers before, mixed into every generator. */
const nasty = fc.constantFrom<unknown>(
  '1e30',
  '1e308',
  1e308,
  -1,
  Number.MAX_SAFE_INTEGER + 2,
  '',
  ' ',
  'TBD',
  '\ud800',
  '\uffff',
  '=HYPERLINK("x")',
  `A${' '.repeat(20_000)}B`,
  '../../etc/passwd',
  '__proto__',
  null,
  true,
  [],
  {},
  { __proto__: { polluted: true } },
  JSON.parse(`${'['.repeat(80)}${']'.repeat(80)}`) as unknown,
);
const value: fc.Arbitrary<unknown> = fc.oneof(nasty, fc.jsonValue({ maxDepth: 3 }), fc.string({ maxLength: 40 }), fc.integer(), fc.double());

/** Field names the handler knows (from its schema), plus a few it does not. */
function fieldNames(route: RouteSpec): string[] {
  const schema = z.toJSONSchema(handlers[route.operation].input, { io: 'input', unrepresentable: 'any' }) as { properties?: Record<string, unknown> };
  return [...Object.keys(schema.properties ?? {}), 'extra', 'constructor'];
}

const objectFor = (route: RouteSpec): fc.Arbitrary<Record<string, unknown>> => fc.dictionary(fc.constantFrom(...fieldNames(route)), value, { maxKeys: 6 });

/** Upload contents: text that looks like what the route reads, workbooks, hostile workbooks, noise. */
const csvLike = fc
  .array(
    fc.array(
      fc.oneof(
        fc.constantFrom(
          'course_code',
          'year',
          'semester',
          'campus',
          'total_enrolled',
          'name',
          'room',
          'seats',
          'allowed_courses',
          'days',
          'CSC201',
          '2024',
          'Fall',
          'Beirut',
          '"',
        ),
        fc.string({ maxLength: 12 }),
      ),
      { minLength: 1, maxLength: 6 },
    ),
    { minLength: 1, maxLength: 6 },
  )
  .map((rows) => rows.map((r) => r.join(',')).join('\n'));
const fileContent: fc.Arbitrary<Uint8Array | string> = fc.oneof(
  csvLike,
  fc.jsonValue({ maxDepth: 4 }).map((v) => JSON.stringify(v)),
  fc.uint8Array({ maxLength: 2_000 }),
  fc.constant(`${'['.repeat(100_000)}${']'.repeat(100_000)}`),
  fc.constant(lastColumnWorkbook(200)),
  fc.constant(spacesCellWorkbook()),
  fc.constant(workbook('<row r="1"><c r="A1" t="s"><v>99</v></c></row>')),
  fc.uint8Array({ minLength: 30, maxLength: 400 }).map((noise) => {
    const zip = workbook('<row r="1"><c r="A1"><v>1</v></c></row>');
    const copy = zip.slice();
    copy.set(noise.slice(0, Math.max(0, copy.length - 60)), 40); // a damaged workbook
    return copy;
  }),
);
const filename = fc
  .tuple(fc.constantFrom('data', '', '../x', 'a'.repeat(300)), fc.constantFrom('.csv', '.xlsx', '.json', '.db', '.txt', ''))
  .map(([n, e]) => `${n}${e}` || 'f');

interface Attempt {
  path: string;
  init: RequestInit;
}

function pathFor(route: RouteSpec, id: string): string {
  return route.path.replace(/:([a-z_]+)/g, () => encodeURIComponent(id));
}

const pathId = fc.oneof(fc.constantFrom('1', '0', '-1', '1e30', '99999999999999999999', 'abc', '%00', '..'), fc.string({ maxLength: 10 }));

function attempts(route: RouteSpec): fc.Arbitrary<Attempt> {
  const method = route.method;
  switch (route.input) {
    case 'json':
      return fc
        .tuple(
          pathId,
          fc.oneof(
            objectFor(route).map((o) => JSON.stringify(o)),
            fc.string({ maxLength: 50 }),
            fc.jsonValue({ maxDepth: 2 }).map((v) => JSON.stringify(v)),
          ),
        )
        .map(([id, body]) => ({
          path: pathFor(route, id),
          init: { method, headers: { 'content-type': 'application/json' }, body },
        }));
    case 'query':
      return fc.tuple(pathId, objectFor(route)).map(([id, query]) => ({
        path: `${pathFor(route, id)}?${new URLSearchParams(Object.entries(query).map(([k, v]) => [k, typeof v === 'string' ? v : (JSON.stringify(v) ?? '')])).toString()}`,
        init: { method },
      }));
    case 'multipart':
      return fc.tuple(fileContent, filename, objectFor(route)).map(([content, name, fields]) => {
        const form = new FormData();
        for (const [k, v] of Object.entries(fields)) if (k !== 'file') form.append(k, typeof v === 'string' ? v : (JSON.stringify(v) ?? ''));
        form.append('file', new Blob([typeof content === 'string' ? content : Buffer.from(content)]), name);
        return { path: route.path, init: { method, body: form } };
      });
    case 'none':
      return pathId.map((id) => ({ path: pathFor(route, id), init: { method } }));
  }
}

/** Routes whose success changes what later requests may do (a new token locks the fuzzer out). */
const NOT_FUZZED = new Set(['settings-regenerate-token']);
/** Routes that do heavy work on success: fewer runs. */
const HEAVY = new Set(['predict-train', 'sample-load', 'database-restore', 'predict-bulk', 'schedule-autofill']);

/** Routes that start work in the background: each draft started is stopped and waited for, so that its end writes nothing under a later request. */
const BACKGROUND = new Set(['schedule-autofill-start', 'schedule-autofill-campus-start']);

async function settleDraft(id: string): Promise<void> {
  await server.api(`/scheduler/auto/drafts/${id}/cancel`, { method: 'POST' });
  while (((await (await server.api(`/scheduler/auto/drafts/${id}`)).json()) as { status: string }).status === 'running')
    await new Promise((resolve) => setTimeout(resolve, 20));
}

describe('fuzzing every route', () => {
  for (const route of ROUTES.filter((r) => !NOT_FUZZED.has(r.operation))) {
    it(`${route.method} ${route.path}: never a 5xx, no write when refused, bounded time`, async () => {
      await fc.assert(
        fc.asyncProperty(attempts(route), async ({ path, init }) => {
          const before = await tablesBefore();
          unchanged = null;
          const started = performance.now();
          const response = await server.api(path, init);
          const elapsed = performance.now() - started;
          const text = await response.text();
          expect(response.status, `${init.method ?? 'GET'} ${path.slice(0, 80)} → ${text.slice(0, 300)}`).toBeLessThan(500);
          expect(elapsed, `${path.slice(0, 80)} took ${elapsed.toFixed(0)} ms`).toBeLessThan(10_000);
          if (response.status >= 400) {
            expect(JSON.parse(text)).toHaveProperty('detail');
            await expectNothingWritten(before, `${path.slice(0, 80)} was refused but wrote`);
          } else if (BACKGROUND.has(route.operation)) await settleDraft((JSON.parse(text) as { draft_id: string }).draft_id);
        }),
        { numRuns: HEAVY.has(route.operation) ? 4 : route.input === 'multipart' ? 25 : 30, seed: 20261123 },
      );
    }, 120_000);
  }
});

describe('fuzzing the timetable import with listings and every form field', () => {
  const cell = fc.oneof(
    fc.constantFrom(
      'CSC201',
      'csc 310',
      'ECE110/PHYS211',
      'MWF',
      'TR',
      'MTWRFSU',
      'X',
      '09:00',
      '9:30 AM',
      '25:99',
      'ARRANGED',
      '50',
      '-5',
      '1e30',
      'Hall 1',
      'TBD',
      'Dr. A; Dr. B',
      'Dr. A and Dr. B',
      'S1',
      '1',
      '2024-06-01',
      'Fall 2024',
      '202410',
      'teaches',
      '=1+1',
      '',
    ),
    fc.string({ maxLength: 10 }),
  );
  const header = fc.shuffledSubarray(
    [
      'Course',
      'Section',
      'Days',
      'Start Time',
      'End Time',
      'Duration',
      'Room',
      'Instructors',
      'Part of Term',
      'Start Date',
      'End Date',
      'Meets With',
      'Term',
      'Campus',
      'Instructor Roles',
    ],
    { minLength: 3 },
  );
  const listing = header.chain((columns) =>
    fc
      .array(fc.array(cell, { minLength: columns.length, maxLength: columns.length }), { maxLength: 30 })
      .map((rows) => [columns, ...rows].map((r) => r.map((c) => (/[",\n]/.test(c) ? `"${c.replace(/"/g, '""')}"` : c)).join(',')).join('\n')),
  );
  const roles = fc.oneof(
    fc
      .dictionary(fc.constantFrom('Dr. A', 'Dr. B', '__proto__', 'constructor', ''), fc.constantFrom('teaches', 'coordinates', 'assists', 'boss', ''))
      .map((o) => JSON.stringify(o)),
    fc.constantFrom(
      '{',
      '[]',
      'null',
      '"x"',
      '{"Dr. A": {"nested": true}}',
      `{"${'a'.repeat(300)}": "teaches"}`,
      JSON.stringify(Object.fromEntries(Array.from({ length: 700 }, (_, i) => [`Dr. ${i}`, 'assists']))),
    ),
  );
  const fields = fc.record(
    {
      year: fc.oneof(fc.constantFrom('2024', '1899', '2201', '1e30', 'x', ''), fc.integer().map(String)),
      semester: fc.constantFrom('Fall', 'Spring', 'Summer', 'fa', 'Winter', ''),
      campus: fc.constantFrom('Beirut', 'Byblos', 'bey', 'Tripoli', '', 'x'.repeat(300)),
      dry_run: fc.constantFrom('true', 'false', '1', '0', 'maybe'),
      conflicts: fc.constantFrom('skip', 'flag', 'refuse'),
      roles,
    },
    { requiredKeys: [] },
  );

  // Mostly forms the import accepts (so the listing itself is read, planned and applied), some hostile.
  const usable = fc.record(
    {
      year: fc.constantFrom('2024', '2025'),
      semester: fc.constantFrom('Fall', 'Summer'),
      dry_run: fc.constantFrom('true', 'false'),
      conflicts: fc.constantFrom('skip', 'flag'),
      roles: fc.dictionary(fc.constantFrom('Dr. A', 'Dr. B'), fc.constantFrom('teaches', 'coordinates', 'assists')).map((o) => JSON.stringify(o)),
    },
    { requiredKeys: ['year', 'semester'] },
  );
  const form = fc.oneof({ weight: 3, arbitrary: usable }, { weight: 1, arbitrary: fields });

  it('POST /scheduler/import: never a 5xx, no write when refused, a bounded answer', async () => {
    await fc.assert(
      fc.asyncProperty(listing, form, async (csv, form) => {
        const before = await tablesBefore();
        unchanged = null;
        const response = await server.upload('/scheduler/import', 'listing.csv', csv, form);
        const text = await response.text();
        expect(response.status, `${JSON.stringify(form).slice(0, 200)} → ${text.slice(0, 300)}`).toBeLessThan(500);
        expect(text.length).toBeLessThan(2_000_000);
        if (response.status >= 400) {
          expect(JSON.parse(text)).toHaveProperty('detail');
          await expectNothingWritten(before);
        }
      }),
      { numRuns: 60, seed: 20261125 },
    );
  }, 180_000);
});
