import { describe, expect, it } from 'vitest';
import type { ScheduleEntry } from '../../core/timetable/schema';
import type { MeetingState, TermChange } from '../../core/domain/meeting-changes';
import { json, startTestServer, type TestServer } from '../helpers/server';

/**
 * Two writers of one meeting at once, many rounds (on PostgreSQL the requests run on their own
 * connections at READ COMMITTED, so each round is a real race): a PATCH beside a publish, an undo or
 * an auto-fill apply. Every round keeps both changes or refuses one in words, and the meeting's
 * history is a chain: each change's before is the change before it's after.
 */
const TERM = { year: 2027, semester: 'Fall' } as const;
const Q = `year=${TERM.year}&semester=${TERM.semester}`;
const ROUNDS = 30;

/** A meeting as the timetable answers it. */
type Meeting = ScheduleEntry;

async function withServer(test: (server: TestServer) => Promise<void>): Promise<void> {
  const server = await startTestServer();
  try {
    await test(server);
  } finally {
    await server.close();
  }
}

const post = (server: TestServer, path: string, body: unknown): Promise<Response> => server.api(path, { method: 'POST', json: body });
const patch = (server: TestServer, id: number, body: unknown): Promise<Response> => server.api(`/scheduler/${id}`, { method: 'PATCH', json: body });
const meetingNow = async (server: TestServer, id: number): Promise<Meeting> =>
  (await json<Meeting[]>(await server.api(`/scheduler/?${Q}`))).find((m) => m.id === id) as Meeting;

/** The meeting's changes, oldest first. */
async function meetingHistory(server: TestServer, uid: string): Promise<TermChange[]> {
  const answer = await json<{ changes: TermChange[] }>(await server.api(`/scheduler/history?${Q}&meeting_uid=${uid}`));
  return [...answer.changes].reverse();
}

/** What a version's fields are, for comparing versions (a lock or a term is part of it). */
const version = (m: MeetingState | null): string =>
  m === null ? 'none' : JSON.stringify([m.year, m.semester, m.day, m.start_time, m.duration_mins, m.room, m.locked, m.instructors.map((i) => i.name)]);

/** Each change's before is the previous change's after: no change was made over a version that never was. */
function expectChain(changes: readonly TermChange[]): void {
  for (let i = 1; i < changes.length; i++)
    expect(version(changes[i]?.before ?? null), `change ${i} (${changes[i]?.summary ?? ''}) after ${changes[i - 1]?.summary ?? ''}`).toBe(
      version(changes[i - 1]?.after ?? null),
    );
}

async function book(server: TestServer, body: Record<string, unknown>): Promise<Meeting> {
  const response = await post(server, '/scheduler/', { ...TERM, section_name: '1', duration_mins: 50, ...body });
  expect(response.status, await response.clone().text()).toBe(200);
  return json<Meeting>(response);
}

describe('two writers of one meeting at once', () => {
  it('a PATCH beside a publish: both kept, or the publish a conflict in words', () =>
    withServer(async (server) => {
      const meeting = await book(server, { course_code: 'MTH100', day: 'MWF', start_time: '08:00', room: 'R0' });
      let bothKept = 0;
      for (let round = 1; round <= ROUNDS; round++) {
        const base = (await json<{ revision: number }>(await server.api(`/scheduler/revision?${Q}`))).revision;
        const [latest] = (await meetingHistory(server, meeting.uid)).slice(-1);
        const start = `${String(8 + (round % 9)).padStart(2, '0')}:${round % 2 === 0 ? '00' : '30'}`;
        const after = { ...(latest?.after as MeetingState), start_time: start };
        const room = `R${round}`;
        const [published, patched] = await Promise.all([
          post(server, '/scheduler/terms/publish-changes', {
            ...TERM,
            base_revision: base,
            key: `race-publish-${round}`,
            changes: [{ meeting_uid: meeting.uid, after, operation: 'move' }],
          }),
          patch(server, meeting.id, { room }),
        ]);
        expect(patched.status, await patched.clone().text()).toBe(200);
        expect(published.status, await published.clone().text()).toBe(200);
        const outcome = await json<{ status: string; stored: boolean }>(published);
        const now = await meetingNow(server, meeting.id);
        expect(now.room, `round ${round}`).toBe(room);
        if (outcome.stored) {
          bothKept++;
          expect(now.start_time, `round ${round}`).toBe(start);
        } else expect(outcome.status, `round ${round}`).toBe('conflicts');
      }
      expectChain(await meetingHistory(server, meeting.uid));
      // Some rounds must have kept both (else the race was never close).
      expect(bothKept).toBeGreaterThan(0);
    }));

  it('a PATCH beside an undo: both kept, or the undo refused in words', () =>
    withServer(async (server) => {
      const meeting = await book(server, { course_code: 'MTH101', day: 'TR', start_time: '08:00', room: 'R0' });
      for (let round = 1; round <= ROUNDS; round++) {
        const start = `${String(8 + (round % 9)).padStart(2, '0')}:15`;
        const before = await meetingNow(server, meeting.id);
        expect((await patch(server, meeting.id, { start_time: start })).status).toBe(200);
        const [moved] = (await meetingHistory(server, meeting.uid)).slice(-1);
        const room = `R${round}`;
        const [undone, patched] = await Promise.all([post(server, '/scheduler/history/undo', { change_id: moved?.id }), patch(server, meeting.id, { room })]);
        expect(patched.status, await patched.clone().text()).toBe(200);
        const now = await meetingNow(server, meeting.id);
        expect(now.room, `round ${round}`).toBe(room);
        if (undone.status === 200) expect(now.start_time, `round ${round}`).toBe(before.start_time);
        else {
          expect(undone.status, await undone.clone().text()).toBe(400);
          expect((await json<{ detail: string }>(undone)).detail).toMatch(/was changed after it/);
          expect(now.start_time, `round ${round}`).toBe(start);
        }
      }
      expectChain(await meetingHistory(server, meeting.uid));
    }));

  it('a PATCH beside an auto-fill apply: both kept, or the apply refused in words', () =>
    withServer(async (server) => {
      const plan = 'Mathematics — Year 1';
      const catalog = ['MTH110', 'MTH111'].map((code) => ({ code, name: code, type: 'core', study_plan: plan }));
      expect((await server.upload('/data/upload/courses', 'courses.json', JSON.stringify(catalog))).status).toBe(200);
      for (const name of ['Hall A', 'Hall B']) expect((await post(server, '/scheduler/rooms', { name, capacity: 40 })).status).toBe(200);
      const a = await book(server, { course_code: 'MTH110', day: 'MW', start_time: '09:00', duration_mins: 75, room: 'Hall A' });
      const b = await book(server, { course_code: 'MTH111', day: 'MW', start_time: '09:00', duration_mins: 75, room: 'Hall B' });
      for (let round = 1; round <= 8; round++) {
        // A cohort clash for auto-fill to mend: the two courses of one plan at one time again.
        for (const m of [a, b]) expect((await patch(server, m.id, { day: 'MW', start_time: '09:00' })).status).toBe(200);
        const drafted = await post(server, '/scheduler/auto', { source: 'term', ...TERM, dry_run: true, seed: round, time_budget_ms: 10_000 });
        expect(drafted.status, await drafted.clone().text()).toBe(200);
        const draft = await json<{ draft_id: string; moved: { id: number; day: string; start_time: string }[] }>(drafted);
        const move = draft.moved[0];
        expect(move).toBeDefined();
        const target = move?.id ?? a.id;
        const note = `Room note ${round}`;
        const [applied, patched] = await Promise.all([
          post(server, `/scheduler/auto/${draft.draft_id}/apply`, {}),
          patch(server, target, { joint_group: note }),
        ]);
        expect(patched.status, await patched.clone().text()).toBe(200);
        const now = (await json<(Meeting & { joint_group: string | null })[]>(await server.api(`/scheduler/?${Q}`))).find((m) => m.id === target);
        expect(now?.joint_group, `round ${round}`).toBe(note);
        if (applied.status === 200) expect([now?.day, now?.start_time], `round ${round}`).toEqual([move?.day, move?.start_time]);
        else {
          expect(applied.status, await applied.clone().text()).toBe(400);
          expect((await json<{ detail: string }>(applied)).detail).toMatch(/changed since this draft was made/);
        }
      }
      for (const m of [a, b]) expectChain(await meetingHistory(server, m.uid));
    }));
});
