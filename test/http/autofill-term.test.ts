import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { TermChange } from '../../core/domain/meeting-changes';
import { startTestServer, json, type TestServer } from '../helpers/server';
import type { ScheduleEntry } from '../../core/timetable/schema';
import type { Doctor } from '../../core/faculty/schema';
import { applyTermDraft, draftTermTimetable } from '../../core/autofill/term-draft';
import { isCoreError } from '../../core/domain/errors';

/** Auto-fill of a whole term (source "term"): today's timetable improved, or rebuilt from nothing. */

let server: TestServer;
beforeEach(async () => {
  server = await startTestServer();
});
afterEach(async () => {
  await server.close();
});

const TERM = { year: 2026, semester: 'Spring' } as const;

interface Meeting {
  day: string;
  start_time: string;
  duration_mins: number;
  room: string;
}
interface TermDraft {
  source: 'term' | 'unscheduled';
  moved: (Meeting & { id: number; course_code: string; section_name: string; was: Meeting })[];
  placed: (Meeting & { id: number; course_code: string; section_name: string; instructors: string[] })[];
  unplaced: { id: number; untimed: boolean; course_code: string; section_name: string; reason: string }[];
  locked: number;
  stored: number;
  score: { hard_violations: number; soft: { total: number } };
}

const minutes = (t: string): number => Number(t.slice(0, 2)) * 60 + Number(t.slice(3));
const overlap = (a: Meeting, b: Meeting): boolean =>
  [...a.day].some((d) => b.day.includes(d)) &&
  minutes(a.start_time) < minutes(b.start_time) + b.duration_mins &&
  minutes(b.start_time) < minutes(a.start_time) + a.duration_mins;

const doctor = async (body: Record<string, unknown>): Promise<Doctor> => json<Doctor>(await server.api('/scheduler/doctors', { method: 'POST', json: body }));
const part = async (code: string, name: string, start_date: string, end_date: string): Promise<void> => {
  expect((await server.api('/scheduler/parts', { method: 'POST', json: { ...TERM, code, name, start_date, end_date } })).status).toBe(200);
};
const room = async (name: string, capacity: number): Promise<void> => {
  expect((await server.api('/scheduler/rooms', { method: 'POST', json: { name, capacity } })).status).toBe(200);
};
const meeting = async (body: Record<string, unknown>): Promise<ScheduleEntry> => {
  const response = await server.api('/scheduler/', { method: 'POST', json: { ...TERM, doctor_id: 0, ...body } });
  expect(response.status, await response.clone().text()).toBe(200);
  return json<ScheduleEntry>(response);
};
const entries = async (): Promise<ScheduleEntry[]> => json<ScheduleEntry[]>(await server.api(`/scheduler/?year=${TERM.year}&semester=${TERM.semester}`));
const draft = async (body: Record<string, unknown>): Promise<TermDraft> => {
  const response = await server.api('/scheduler/auto', { method: 'POST', json: { source: 'term', ...TERM, time_budget_ms: 20_000, ...body } });
  expect(response.status, await response.clone().text()).toBe(200);
  return json<TermDraft>(response);
};
/** The term's meetings as the draft would leave them. */
const after = (stored: readonly ScheduleEntry[], result: TermDraft): ScheduleEntry[] =>
  stored.map((e) => {
    const move = result.moved.find((m) => m.id === e.id);
    return move ? { ...e, day: move.day, start_time: move.start_time, duration_mins: move.duration_mins, room: move.room } : e;
  });

describe('POST /scheduler/auto source "term"', () => {
  it('improves a term: a cohort clash moved away, saying where each meeting was; nothing stored on a dry run, all of it when applied', async () => {
    const plan = 'Computer Science — Year 2';
    const catalog = ['CSC243', 'CSC245'].map((code) => ({ code, name: code, type: 'core', study_plan: plan }));
    expect((await server.upload('/data/upload/courses', 'courses.json', JSON.stringify(catalog))).status).toBe(200);
    const a = await doctor({ name: 'Dr. A', allowed_courses: ['CSC243'], available_days: 'MTWRF', available_time: '08:00-17:00' });
    const b = await doctor({ name: 'Dr. B', allowed_courses: ['CSC245'] });
    await room('Hall A', 40);
    await room('Hall B', 40);
    await meeting({ course_code: 'CSC243', section_name: '1', doctor_id: a.id, day: 'MW', start_time: '09:00', duration_mins: 75, room: 'Hall A' });
    await meeting({ course_code: 'CSC245', section_name: '1', doctor_id: b.id, day: 'MW', start_time: '09:00', duration_mins: 75, room: 'Hall B' });
    const before = await entries();
    expect(before.some((e) => e.curriculum_conflicts.length > 0)).toBe(true);

    const result = await draft({ dry_run: true });
    expect(result.score.hard_violations).toBe(0);
    // One of the two moves (moving costs), keeping its shape; the other stays.
    expect(result.moved).toHaveLength(1);
    const moved = result.moved[0] as TermDraft['moved'][number];
    expect(moved.was).toEqual({ day: 'MW', start_time: '09:00', duration_mins: 75, room: expect.stringMatching(/^Hall [AB]$/) as string });
    expect(moved.day).toHaveLength(2);
    expect(moved.duration_mins).toBe(75);
    const drafted = after(before, result);
    expect(overlap(drafted[0] as Meeting, drafted[1] as Meeting)).toBe(false);
    expect(await entries()).toEqual(before);

    const applied = await draft({ dry_run: false });
    expect(applied.stored).toBe(1);
    const stored = await entries();
    expect(stored.every((e) => e.curriculum_conflicts.length === 0)).toBe(true);
    const mine = stored.find((e) => e.doctor_id === a.id) as ScheduleEntry;
    expect(minutes(mine.start_time) >= 8 * 60 && minutes(mine.start_time) + mine.duration_mins <= 17 * 60).toBe(true);
  });

  it('rebuilds a term from nothing: joint groups together, a lecture and its lab apart, parts of term, instructors free and available; the same seed gives the same draft', async () => {
    const d1 = await doctor({ name: 'Dr. One', allowed_courses: ['CSC301'], available_days: 'MTWR', available_time: '08:00-13:00' });
    const d2 = await doctor({ name: 'Dr. Two', allowed_courses: ['CSC410', 'CSC510'] });
    const d3 = await doctor({ name: 'Dr. Three', allowed_courses: ['CSC220', 'CSC221'] });
    await part('S1', 'First half', '2026-01-12', '2026-03-06');
    await part('S2', 'Second half', '2026-03-09', '2026-05-01');
    await room('Hall A', 60);
    await room('Hall B', 60);
    await room('Lab 1', 20);
    await meeting({ course_code: 'CSC301', section_name: '1', doctor_id: d1.id, day: 'MW', start_time: '11:30', duration_mins: 75, room: 'Hall A' });
    await meeting({ course_code: 'CSC301', section_name: '1', day: 'F', start_time: '14:00', duration_mins: 110, room: 'Lab 1' });
    // A stacked pair: one joint group, meeting together.
    for (const course_code of ['CSC410', 'CSC510'])
      await meeting({ course_code, section_name: '1', doctor_id: d2.id, day: 'TR', start_time: '10:00', duration_mins: 75, room: 'Hall B', joint_group: 'G1' });
    // One instructor, one room, one time: in two halves of the term that do not overlap.
    for (const [course_code, part_of_term] of [
      ['CSC220', 'S1'],
      ['CSC221', 'S2'],
    ] as const)
      await meeting({ course_code, section_name: '1', doctor_id: d3.id, day: 'TR', start_time: '13:00', duration_mins: 90, room: 'Hall A', part_of_term });
    const before = await entries();

    const result = await draft({ rebuild: true, seed: 7, dry_run: true });
    expect(result.unplaced).toEqual([]);
    const again = await draft({ rebuild: true, seed: 7, dry_run: true });
    expect(again.moved).toEqual(result.moved);

    const check = (list: readonly ScheduleEntry[]): void => {
      const find = (code: string, day?: string): ScheduleEntry =>
        list.find((e) => e.course_code === code && (day === undefined || e.day.length === day.length)) as ScheduleEntry;
      const [g410, g510] = [find('CSC410'), find('CSC510')];
      expect([g510.day, g510.start_time, g510.room]).toEqual([g410.day, g410.start_time, g410.room]);
      const lecture = find('CSC301', 'MW');
      const lab = find('CSC301', 'F');
      expect([lecture.day.length, lecture.duration_mins, lab.day.length, lab.duration_mins]).toEqual([2, 75, 1, 110]);
      expect(overlap(lecture, lab)).toBe(false);
      expect([...lecture.day].every((d) => 'MTWR'.includes(d))).toBe(true);
      expect(minutes(lecture.start_time) >= 8 * 60 && minutes(lecture.start_time) + 75 <= 13 * 60).toBe(true);
      // Rooms: a free one that seats the section (the lab's room seats only its own).
      for (const [i, x] of list.entries())
        for (const y of list.slice(i + 1)) {
          const sameGroup = x.joint_group !== null && x.joint_group === y.joint_group;
          const apartInTerm = x.part_of_term !== y.part_of_term && x.part_of_term !== '1' && y.part_of_term !== '1';
          if (sameGroup || apartInTerm || !overlap(x, y)) continue;
          expect(x.room, `${x.course_code} and ${y.course_code} share a room`).not.toBe(y.room);
          expect(
            x.doctor_ids.some((id) => y.doctor_ids.includes(id)),
            `${x.course_code} and ${y.course_code} share an instructor`,
          ).toBe(false);
        }
    };
    check(after(before, result));

    const applied = await draft({ rebuild: true, seed: 7, dry_run: false });
    expect(applied.moved).toEqual(result.moved);
    const stored = await entries();
    check(stored);
    expect(stored.flatMap((e) => e.warnings).filter((w) => /already|booked|not available/.test(w))).toEqual([]);
  });

  it('rebuilds a term keeping every joint group together: partners in other parts of term without a room at one time, partners in other rooms and day patterns starting together as they did', async () => {
    await part('1', 'Full term', '2026-01-12', '2026-05-01');
    await part('S1', 'First half', '2026-01-12', '2026-03-06');
    await room('Hall A', 40);
    await room('Hall B', 40);
    const [d1, d2, d3, d4] = await Promise.all(['One', 'Two', 'Three', 'Four'].map((n) => doctor({ name: `Dr. ${n}`, allowed_courses: [] })));
    // A cross-listed evening pair with no room, one section all term and one in its first half.
    await meeting({
      course_code: 'EPS600',
      section_name: 'A',
      doctor_id: d1?.id,
      day: 'M',
      start_time: '19:00',
      duration_mins: 90,
      room: 'TBD',
      part_of_term: '1',
      joint_group: 'EVE',
    });
    await meeting({
      course_code: 'EPS601',
      section_name: 'B',
      doctor_id: d2?.id,
      day: 'M',
      start_time: '19:00',
      duration_mins: 90,
      room: 'TBD',
      part_of_term: 'S1',
      joint_group: 'EVE',
    });
    // Two levels of one language taught together in two rooms, one on four days and the other on two of them.
    await meeting({
      course_code: 'LNG201',
      section_name: 'A',
      doctor_id: d3?.id,
      day: 'MTWR',
      start_time: '09:00',
      duration_mins: 110,
      room: 'Hall A',
      joint_group: 'LNG',
    });
    await meeting({
      course_code: 'LNG401',
      section_name: 'A',
      doctor_id: d4?.id,
      day: 'MW',
      start_time: '09:00',
      duration_mins: 110,
      room: 'Hall B',
      joint_group: 'LNG',
    });
    const before = await entries();

    for (const seed of [1, 2, 3]) {
      const result = await draft({ rebuild: true, seed, dry_run: true });
      expect(result.unplaced).toEqual([]);
      const now = after(before, result);
      const find = (code: string): ScheduleEntry => now.find((e) => e.course_code === code) as ScheduleEntry;
      const [eve, eveHalf] = [find('EPS600'), find('EPS601')];
      expect([eveHalf.day, eveHalf.start_time, eveHalf.room], `seed ${seed}`).toEqual([eve.day, eve.start_time, 'TBD']);
      const [four, two] = [find('LNG201'), find('LNG401')];
      expect(two.start_time, `seed ${seed}`).toBe(four.start_time);
      expect([two.room, four.room].sort(), `seed ${seed}: each in a room of its own`).toEqual(['Hall A', 'Hall B']);
      expect(
        [...two.day].every((d) => four.day.includes(d)),
        `seed ${seed}: ${two.day} within ${four.day}`,
      ).toBe(true);
    }
  });

  it('never moves a locked meeting, and keeps the others clear of it', async () => {
    const a = await doctor({ name: 'Dr. A', allowed_courses: ['CSC201', 'CSC202'] });
    await room('Hall A', 40);
    const kept = await meeting({
      course_code: 'CSC201',
      section_name: '1',
      doctor_id: a.id,
      day: 'MWF',
      start_time: '09:00',
      duration_mins: 50,
      room: 'Hall A',
    });
    await meeting({ course_code: 'CSC202', section_name: '1', doctor_id: a.id, day: 'MWF', start_time: '11:00', duration_mins: 50, room: 'Hall A' });
    const patched = await server.api(`/scheduler/${kept.id}`, { method: 'PATCH', json: { locked: true } });
    expect(patched.status).toBe(200);
    expect(await json<ScheduleEntry>(patched)).toMatchObject({ id: kept.id, locked: true });
    expect((await entries()).map((e) => e.locked)).toEqual([true, false]);

    for (const seed of [1, 2, 3]) {
      const result = await draft({ rebuild: true, seed, dry_run: true });
      expect(result.locked).toBe(1);
      expect(result.moved.map((m) => m.id)).not.toContain(kept.id);
      const other = after(await entries(), result).find((e) => e.id !== kept.id) as ScheduleEntry;
      expect(overlap(other, kept)).toBe(false);
    }
    expect((await server.api(`/scheduler/${kept.id}`, { method: 'PATCH', json: { locked: false } })).status).toBe(200);
    expect((await entries()).map((e) => e.locked)).toEqual([false, false]);
  });

  it('refuses what it cannot do, in words', async () => {
    const refused = await server.api('/scheduler/auto', { method: 'POST', json: { source: 'term', choose_instructors: true } });
    expect(refused.status).toBe(400);
    expect(await json(refused)).toEqual({
      detail: expect.stringMatching(/keeps their instructors: choose_instructors is for sections without a time/) as string,
    });
    const noRun = await server.api('/scheduler/auto', { method: 'POST', json: { source: 'run' } });
    expect(noRun.status).toBe(422);
    expect(JSON.stringify(await json(noRun))).toMatch(/run_id/);
    expect((await server.api('/scheduler/auto', { method: 'POST', json: { source: 'everything' } })).status).toBe(422);
    expect((await server.api('/scheduler/auto', { method: 'POST', json: { source: 'term', seed: 0 } })).status).toBe(422);
    expect((await server.api('/scheduler/x/1', { method: 'PATCH', json: { locked: 'yes' } })).status).toBe(404);
    // An empty term: nothing to move, nothing refused.
    const empty = await draft({ dry_run: true });
    expect(empty).toMatchObject({ moved: [], unplaced: [], locked: 0, score: { hard_violations: 0 } });
  });

  it('imports sections without a time, lists them, and gives them a time with source "unscheduled": clear of their instructors\' meetings, in the room they list', async () => {
    const listing = [
      'Course,Section,Days,Start Time,End Time,Room,Instructors,Term,Type,Part of Term',
      'CSC310,A,MWF,09:00,09:50,Hall 1,Dr. Listing,Spring 2026,Lecture,1',
      'CSC320,A,,ARRANGED,,Hall 1,Dr. Listing,Spring 2026,Lecture,1',
      'CSC330,W,,ARRANGED,,,Dr. Other,Spring 2026,Online,1',
    ].join('\n');
    const imported = await server.upload('/scheduler/import', 'listing.csv', listing, { dry_run: 'false' });
    expect(imported.status, await imported.clone().text()).toBe(200);
    expect(await json(imported)).toMatchObject({ meetings: 1, untimed: 2 });
    const listed = await json<{ id: number; course_code: string; kind: string | null; room: string | null; doctors: { name: string }[] }[]>(
      await server.api(`/scheduler/unscheduled?year=${TERM.year}&semester=${TERM.semester}`),
    );
    expect(listed).toMatchObject([
      { course_code: 'CSC320', section_name: 'A', kind: 'Lecture', room: 'Hall 1', part_of_term: '1', doctors: [{ name: 'Dr. Listing' }] },
      { course_code: 'CSC330', section_name: 'W', kind: 'Online', room: null, doctors: [{ name: 'Dr. Other' }] },
    ]);
    // Nothing else is a meeting yet.
    expect((await entries()).map((e) => e.course_code)).toEqual(['CSC310']);

    const slots = [
      { day: 'MWF', start_time: '09:00', duration_mins: 50 },
      { day: 'MWF', start_time: '10:00', duration_mins: 50 },
    ];
    const result = await draft({ source: 'unscheduled', slots, dry_run: true });
    expect(result.source).toBe('unscheduled');
    expect(result.moved).toEqual([]);
    expect(result.unplaced).toEqual([]);
    const placed = Object.fromEntries(result.placed.map((p) => [p.course_code, p]));
    // Its instructor teaches CSC310 at 09:00 in Hall 1: CSC320 takes 10:00 in the room it lists.
    expect(placed.CSC320).toMatchObject({ day: 'MWF', start_time: '10:00', duration_mins: 50, room: 'Hall 1', instructors: ['Dr. Listing'] });
    expect(placed.CSC330).toMatchObject({ day: 'MWF', room: 'TBD', instructors: ['Dr. Other'] });
    expect(await entries()).toHaveLength(1);

    const applied = await draft({ source: 'unscheduled', slots, dry_run: false });
    expect(applied.stored).toBe(2);
    const stored = await entries();
    expect(stored.map((e) => `${e.course_code} ${e.day} ${e.start_time} ${e.room} ${e.doctors.map((d) => d.name).join('+')}`).sort()).toEqual([
      'CSC310 MWF 09:00 Hall 1 Dr. Listing',
      'CSC320 MWF 10:00 Hall 1 Dr. Listing',
      `CSC330 MWF ${placed.CSC330?.start_time ?? ''} TBD Dr. Other`,
    ]);
    expect(await json(await server.api(`/scheduler/unscheduled?year=${TERM.year}&semester=${TERM.semester}`))).toEqual([]);

    // History: the import added each section without a time; auto-fill gave each a time, under the same id.
    const history = async (): Promise<TermChange[]> =>
      (await json<{ changes: TermChange[] }>(await server.api(`/scheduler/history?year=${TERM.year}&semester=${TERM.semester}&limit=50`))).changes;
    const uid320 = (listed[0] as unknown as { uid: string }).uid;
    expect(stored.find((e) => e.course_code === 'CSC320')?.uid).toBe(uid320);
    const of320 = (await history()).filter((c) => c.meeting_uid === uid320);
    expect(of320.map((c) => [c.operation, c.summary])).toEqual([
      ['autofill', 'gave CSC320 §A a time: MWF 10:00 by auto-fill'],
      ['import', 'added CSC320 §A (without a time, room Hall 1, Dr. Listing) by import'],
    ]);
    // Undoing the apply takes the times away again: both are sections without a time, as imported.
    const undo = await server.api('/scheduler/history/undo', { method: 'POST', json: { batch: of320[0]?.batch } });
    expect(undo.status, await undo.clone().text()).toBe(200);
    expect((await entries()).map((e) => e.course_code)).toEqual(['CSC310']);
    expect(
      await json<{ uid: string; course_code: string }[]>(await server.api(`/scheduler/unscheduled?year=${TERM.year}&semester=${TERM.semester}`)),
    ).toMatchObject([
      { course_code: 'CSC320', uid: uid320, room: 'Hall 1', kind: 'Lecture', doctors: [{ name: 'Dr. Listing' }] },
      { course_code: 'CSC330', room: null, kind: 'Online', doctors: [{ name: 'Dr. Other' }] },
    ]);
    expect((await history())[0]?.summary).toMatch(/^took the time from CSC3[23]0 §[AW] by an undo$/);
  });

  it('refuses, in words and storing nothing, a draft made from a timetable that has changed since', async () => {
    const a = await doctor({ name: 'Dr. A', allowed_courses: ['CSC201', 'CSC202'] });
    await room('Hall A', 40);
    await meeting({ course_code: 'CSC201', section_name: '1', doctor_id: a.id, day: 'MW', start_time: '09:00', duration_mins: 75, room: 'Hall A' });
    const ctx = server.core.context;
    const made = await draftTermTimetable(ctx, TERM, { source: 'term', rebuild: true, seed: 1, time_budget_ms: 10_000 });
    await meeting({ course_code: 'CSC202', section_name: '1', doctor_id: a.id, day: 'TR', start_time: '13:00', duration_mins: 75, room: 'Hall A' });
    const before = await entries();
    const refused = await applyTermDraft(ctx, made).then(
      () => null,
      (error: unknown) => error,
    );
    expect(isCoreError(refused) && refused.code === 'conflict' && /changed since this draft was made/.test(refused.message)).toBe(true);
    expect(await entries()).toEqual(before);
  });

  it('makes a draft in the background: progress, cancel keeping the best draft so far, the same seed and moves giving the same draft, and apply in part', async () => {
    const a = await doctor({ name: 'Dr. A', allowed_courses: [] });
    const b = await doctor({ name: 'Dr. B', allowed_courses: [] });
    await room('Hall A', 40);
    await room('Hall B', 40);
    for (let i = 0; i < 12; i++) {
      const who = i < 6 ? a : b;
      const hour = String(8 + Math.floor(i / 2) * 2).padStart(2, '0');
      await meeting({
        course_code: `CSC${300 + i}`,
        section_name: '1',
        doctor_id: who.id,
        day: i % 2 === 0 ? 'MW' : 'TR',
        start_time: `${hour}:00`,
        duration_mins: 75,
        room: i % 2 === 0 ? 'Hall A' : 'Hall B',
      });
    }
    const start = async (body: Record<string, unknown>): Promise<{ draft_id: string; status: string }> => {
      const response = await server.api('/scheduler/auto/drafts', { method: 'POST', json: { source: 'term', ...TERM, ...body } });
      expect(response.status, await response.clone().text()).toBe(200);
      return json(response);
    };
    interface DraftState {
      status: string;
      progress: { classes: number; placed: number; hard_left: number };
      result: TermDraft | null;
      applied: number | null;
    }
    const state = async (id: string): Promise<DraftState> => json<DraftState>(await server.api(`/scheduler/auto/drafts/${id}`));
    const finished = async (id: string): Promise<DraftState> => {
      for (;;) {
        const now = await state(id);
        if (now.status !== 'running') return now;
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    };

    // A search of millions of moves, cancelled: the best draft so far is kept.
    const long = await start({ rebuild: true, moves: 20_000_000, time_budget_ms: 120_000 });
    expect(long.status).toBe('running');
    await new Promise((resolve) => setTimeout(resolve, 500));
    const cancelled = await json<DraftState>(await server.api(`/scheduler/auto/drafts/${long.draft_id}/cancel`, { method: 'POST' }));
    expect(['running', 'cancelled']).toContain(cancelled.status);
    const kept = await finished(long.draft_id);
    expect(kept.status).toBe('cancelled');
    expect(kept.progress.classes).toBe(12);
    expect(kept.result?.unplaced).toEqual([]);

    // The same seed and moves: the same draft, twice.
    const first = await finished((await start({ rebuild: true, seed: 3, moves: 5_000 })).draft_id);
    const second = await finished((await start({ rebuild: true, seed: 3, moves: 5_000 })).draft_id);
    expect(first.status).toBe('done');
    expect(second.result?.moved).toEqual(first.result?.moved);
    const moved = first.result?.moved ?? [];
    expect(moved.length).toBeGreaterThan(2);

    // Apply two of its moves; the others stay where they were. Then the draft is spent.
    const id = (await start({ rebuild: true, seed: 3, moves: 5_000 })).draft_id;
    const draftNow = await finished(id);
    const chosen = (draftNow.result?.moved ?? []).slice(0, 1);
    const before = await entries();
    const response = await server.api(`/scheduler/auto/drafts/${id}/apply`, { method: 'POST', json: { meetings: chosen.map((m) => m.id) } });
    if (response.status === 200) {
      expect((await json<DraftState>(response)).applied).toBe(1);
      const after = await entries();
      for (const e of after) {
        const move = chosen.find((m) => m.id === e.id);
        const was = before.find((x) => x.id === e.id) as ScheduleEntry;
        expect([e.day, e.start_time, e.room]).toEqual(move ? [move.day, move.start_time, move.room] : [was.day, was.start_time, was.room]);
      }
      expect((await server.api(`/scheduler/auto/drafts/${id}/apply`, { method: 'POST', json: {} })).status).toBe(400);
    } else {
      // Taken alone, the move may clash with a meeting the draft also moved: refused in words, nothing stored.
      expect(response.status).toBe(400);
      expect(JSON.stringify(await json(response))).toMatch(/would break the timetable's rules/);
      expect(await entries()).toEqual(before);
    }
    // Another department's draft is not found; nor is an unknown one; a bad id is refused.
    const { draftState } = await import('../../core/autofill/draft-jobs');
    await expect(draftState({ ...server.core.context, department: server.core.context.department + 1 }, id)).rejects.toThrow(/No auto-fill draft/);
    expect((await server.api('/scheduler/auto/drafts/00000000-0000-4000-8000-000000000000')).status).toBe(404);
    expect((await server.api('/scheduler/auto/drafts/not-an-id')).status).toBe(422);
    expect((await server.api('/scheduler/auto/drafts', { method: 'POST', json: { source: 'run' } })).status).toBe(422);
  });

  it('chooses the instructors of sections without a time among those who may teach them: their hours, their limit, one place at a time', async () => {
    const busy = await doctor({ name: 'Dr. Busy', allowed_courses: ['CSC320', 'CSC330'], available_days: 'MWF', available_time: '10:00-11:00' });
    const free = await doctor({ name: 'Dr. Free', allowed_courses: ['CSC320', 'CSC330'] });
    // Dr. Free teaches at 08:00 on the same campus: 09:00 stays open to them (no travel time between).
    await meeting({ course_code: 'CSC100', section_name: '1', doctor_id: free.id, day: 'MWF', start_time: '08:00', duration_mins: 50, room: 'Hall Z' });
    const listing = [
      'Course,Section,Days,Start Time,End Time,Room,Instructors,Term,Type',
      'CSC320,A,,ARRANGED,,Hall 1,Staff,Spring 2026,Lecture',
      'CSC330,A,,ARRANGED,,Hall 1,Staff,Spring 2026,Lecture',
      'CSC399,A,,ARRANGED,,,Staff,Spring 2026,Lecture',
    ].join('\n');
    expect((await server.upload('/scheduler/import', 'listing.csv', listing, { dry_run: 'false' })).status).toBe(200);
    const slots = [
      { day: 'MWF', start_time: '09:00', duration_mins: 50 },
      { day: 'MWF', start_time: '10:00', duration_mins: 50 },
    ];
    // At most 2 sections each: Dr. Free already teaches CSC100, so one more; Dr. Busy's hours leave one time.
    const body = { source: 'unscheduled', slots, choose_instructors: true, max_sections_per_doctor: 2 };
    const result = await draft({ ...body, dry_run: true });
    expect(result.unplaced).toEqual([
      {
        id: expect.any(Number) as number,
        untimed: true,
        course_code: 'CSC399',
        section_name: 'A',
        reason: 'No instructor is allowed to teach CSC399; it stays without a time',
      },
    ]);
    // One section each in the one room they list: Dr. Busy within their hours (10:00), Dr. Free right after their 08:00 class.
    const byInstructor = Object.fromEntries(result.placed.map((p) => [p.instructors.join('+'), p]));
    expect(Object.keys(byInstructor).sort()).toEqual(['Dr. Busy', 'Dr. Free']);
    expect(byInstructor['Dr. Busy']?.start_time).toBe('10:00');
    expect(byInstructor['Dr. Free']?.start_time).toBe('09:00');

    const applied = await draft({ ...body, dry_run: false });
    expect(applied.stored).toBe(2);
    const stored = (await entries()).filter((e) => e.course_code !== 'CSC100');
    expect(stored.map((e) => e.doctor_ids[0]).sort()).toEqual([busy.id, free.id].sort());
    expect(stored.find((e) => e.doctor_ids[0] === busy.id)?.start_time).toBe('10:00');
    // Without a choice, they would keep their (no) instructors.
    expect((await json<unknown[]>(await server.api(`/scheduler/unscheduled?year=${TERM.year}&semester=${TERM.semester}`))).length).toBe(1);
  });
});
