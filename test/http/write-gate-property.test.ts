import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { ScheduleEntry } from '../../core/timetable/schema';
import { createCore, type Core } from '../../core/index';
import { CampusServer, fetchTerm, publishTerm } from '../../electron/campus';
import type { ConflictChoice, SyncOutcome } from '../../core/domain/meeting-changes';
import { json, startTestServer, TEST_TOKEN, type TestServer } from '../helpers/server';

/**
 * Planning on two laptops and on the server at once, in any order: random creates, edits, moves
 * between terms, deletes, undos, publishes and fetches. Once every laptop has published and fetched
 * both terms, both copies equal the server, and a meeting is missing only where someone deleted it
 * (or undid its creation); a person's choice in a conflict here is always "keep mine".
 */
const TERMS = [
  { year: 2027, semester: 'Fall' },
  { year: 2028, semester: 'Spring' },
] as const;
type TermArgs = (typeof TERMS)[number];
const STARTS = ['08:00', '09:00', '10:00', '11:00', '12:00', '13:00'];

/** A meeting as the timetable answers it. */
type Meeting = ScheduleEntry;

/** Where a write is made: the server (a colleague online) or one of the two laptops. */
type Side = 0 | 1 | 2;

type Step =
  | { kind: 'create'; side: Side; term: 0 | 1; start: number }
  | { kind: 'edit'; side: Side; pick: number; start: number }
  | { kind: 'move'; side: Side; pick: number }
  | { kind: 'delete'; side: Side; pick: number }
  | { kind: 'undo'; side: Side }
  | { kind: 'publish'; laptop: 1 | 2; term: 0 | 1 }
  | { kind: 'fetch'; laptop: 1 | 2; term: 0 | 1 };

const side = fc.constantFrom<Side>(0, 1, 2);
const laptopOf = fc.constantFrom<1 | 2>(1, 2);
const termIndex = fc.constantFrom<0 | 1>(0, 1);
const step: fc.Arbitrary<Step> = fc.oneof(
  fc.record({ kind: fc.constant('create' as const), side, term: termIndex, start: fc.nat(STARTS.length - 1) }),
  fc.record({ kind: fc.constant('edit' as const), side, pick: fc.nat(50), start: fc.nat(STARTS.length - 1) }),
  fc.record({ kind: fc.constant('move' as const), side, pick: fc.nat(50) }),
  fc.record({ kind: fc.constant('delete' as const), side, pick: fc.nat(50) }),
  fc.record({ kind: fc.constant('undo' as const), side }),
  fc.record({ kind: fc.constant('publish' as const), laptop: laptopOf, term: termIndex }),
  fc.record({ kind: fc.constant('fetch' as const), laptop: laptopOf, term: termIndex }),
);

/** One run's copies: the server and two laptops linked to it. */
interface Copies {
  server: TestServer;
  laptops: [Core, Core];
  link: CampusServer;
  /** Courses created (by anyone), and courses someone deleted or whose creation was undone. */
  created: Set<string>;
  removed: Set<string>;
  next: number;
}

const laptopCore = (copies: Copies, laptop: 1 | 2): Core => (laptop === 1 ? copies.laptops[0] : copies.laptops[1]);

const onSide = async (copies: Copies, where: Side, operation: string, args: Record<string, unknown>): Promise<{ ok: boolean; value: unknown }> => {
  if (where === 0) {
    const response = await copies.server.api(`/rpc/${operation}`, { method: 'POST', json: args });
    return { ok: response.ok, value: await response.json() };
  }
  try {
    return { ok: true, value: await laptopCore(copies, where).run(operation as 'schedule-list', args) };
  } catch {
    return { ok: false, value: null };
  }
};

async function meetingsOn(copies: Copies, where: Side): Promise<Meeting[]> {
  const all: Meeting[] = [];
  for (const term of TERMS) all.push(...((await onSide(copies, where, 'schedule-list', term)).value as Meeting[]));
  return all;
}

/** Publishes or fetches, settling every conflict as "keep mine" against the version shown, until stored (or a refusal stands). */
async function sync(copies: Copies, laptop: 1 | 2, term: TermArgs, how: 'publish' | 'fetch'): Promise<SyncOutcome> {
  const core = laptopCore(copies, laptop);
  const choices: Record<string, ConflictChoice> = {};
  for (let round = 0; ; round++) {
    const outcome = how === 'publish' ? await publishTerm(core, copies.link, term, { choices }) : await fetchTerm(core, copies.link, term, { choices });
    if (outcome.status !== 'conflicts' || round > 5) return outcome;
    for (const c of outcome.conflicts) choices[c.meeting_uid] = { choice: 'mine', seen_change_id: c.their_change?.id ?? null };
  }
}

async function run(copies: Copies, s: Step): Promise<void> {
  if (s.kind === 'publish' || s.kind === 'fetch') {
    await sync(copies, s.laptop, TERMS[s.term], s.kind);
    return;
  }
  if (s.kind === 'create') {
    const course = `MTH${100 + copies.next++}`;
    const made = await onSide(copies, s.side, 'schedule-create', {
      ...TERMS[s.term],
      course_code: course,
      section_name: '1',
      day: 'MWF',
      start_time: STARTS[s.start],
      duration_mins: 50,
      room: 'TBD',
    });
    if (made.ok) copies.created.add(course);
    return;
  }
  if (s.kind === 'undo') {
    const term = TERMS[0];
    const history = (await onSide(copies, s.side, 'schedule-history', { ...term, limit: 1 })).value as {
      changes?: { id: number; course_code: string; before: unknown }[];
    };
    const last = history.changes?.[0];
    if (!last) return;
    const undone = await onSide(copies, s.side, 'schedule-undo', { change_id: last.id });
    // Undoing a change that brought a meeting (a creation here, or one fetched) removes it: a person's choice.
    if (undone.ok && last.before === null) copies.removed.add(last.course_code);
    return;
  }
  const meetings = await meetingsOn(copies, s.side);
  const target = meetings[s.pick % Math.max(meetings.length, 1)];
  if (!target) return;
  if (s.kind === 'delete') {
    if ((await onSide(copies, s.side, 'schedule-delete', { entry_id: target.id })).ok) copies.removed.add(target.course_code);
    return;
  }
  const change = s.kind === 'edit' ? { start_time: STARTS[s.start] } : (TERMS.find((t) => t.year !== target.year) as TermArgs);
  await onSide(copies, s.side, 'schedule-update', { entry_id: target.id, ...change });
}

const shape = (meetings: readonly Meeting[]): string[] =>
  meetings.map((m) => `${m.uid} ${m.semester} ${m.year} ${m.course_code} ${m.day} ${m.start_time}`).sort();

/** Every laptop publishes and fetches both terms until nothing is left to bring either way. */
async function settle(copies: Copies): Promise<void> {
  for (let pass = 0; pass < 3; pass++)
    for (const laptop of [1, 2] as const)
      for (const term of [...TERMS, ...TERMS]) {
        const published = await sync(copies, laptop, term, 'publish');
        expect(published.status === 'refused' ? published.refused : [], `publish ${term.semester} from laptop ${laptop}`).toEqual(
          published.status === 'refused'
            ? expect.arrayContaining([expect.objectContaining({ reason: expect.stringMatching(/publish .* first/) as string })])
            : [],
        );
      }
  for (const laptop of [1, 2] as const)
    for (const term of TERMS) expect(await sync(copies, laptop, term, 'fetch'), `final fetch of laptop ${laptop}`).toMatchObject({ stored: true });
}

describe('two laptops and the server planning at once', () => {
  it('end equal to the server, missing only what someone deleted', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(step, { minLength: 4, maxLength: Number(process.env.GATE_STEPS ?? 14) }), async (steps) => {
        const server = await startTestServer();
        const dir = mkdtempSync(join(tmpdir(), 'termwise-gate-property-'));
        const laptops: [Core, Core] = [await createCore({ dataDir: join(dir, 'one') }), await createCore({ dataDir: join(dir, 'two') })];
        const copies: Copies = {
          server,
          laptops,
          link: new CampusServer({ url: `${server.url}/`, token: TEST_TOKEN }),
          created: new Set(),
          removed: new Set(),
          next: 0,
        };
        try {
          for (const s of steps) await run(copies, s);
          await settle(copies);
          const onServer = await meetingsOn(copies, 0);
          expect(shape(await meetingsOn(copies, 1))).toEqual(shape(onServer));
          expect(shape(await meetingsOn(copies, 2))).toEqual(shape(onServer));
          const present = new Set(onServer.map((m) => m.course_code));
          for (const course of copies.created)
            if (!present.has(course)) expect(copies.removed, `${course} is missing, though no one deleted it`).toContain(course);
          // One meeting per course: nothing was stored twice.
          expect(onServer.length).toBe(present.size);
          expect(await json(await server.api('/health'))).toBeTruthy();
        } finally {
          for (const laptop of laptops) await laptop.close();
          await server.close();
          rmSync(dir, { recursive: true, force: true });
        }
      }),
      { numRuns: Number(process.env.GATE_RUNS ?? 12), seed: Number(process.env.GATE_SEED ?? 75), endOnFailure: true },
    );
  }, 240_000);
});
