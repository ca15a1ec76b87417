import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { json, loadSample, startTestServer, type TestServer } from '../helpers/server';
import { saveRun } from '../helpers/runs';
import type { ScheduleEntry } from '../../core/timetable/schema';

/**
 * A department's first term, as a scheduler meets it over REST: the term stays the one the work
 * began in, auto-fill from a run completes the plan (the plan's count less what the term has), goes
 * into the run's own term unless told otherwise (and then says so), and answers stored ids.
 */
let server: TestServer;
beforeEach(async () => {
  server = await startTestServer();
  await loadSample(server);
});
afterEach(async () => {
  await server.close();
});

interface Settings {
  current_term: { year: number; semester: string };
  current_term_chosen: boolean;
}
const settings = async (): Promise<Settings> => json<Settings>(await server.api('/scheduler/settings'));
const book = async (body: Record<string, unknown>): Promise<ScheduleEntry> => {
  const response = await server.api('/scheduler/', { method: 'POST', json: { doctor_id: 0, duration_mins: 50, ...body } });
  expect(response.status, await response.clone().text()).toBe(200);
  return json<ScheduleEntry>(response);
};
const entries = async (year: number, semester: string): Promise<ScheduleEntry[]> =>
  json<ScheduleEntry[]>(await server.api(`/scheduler/?year=${year}&semester=${semester}`));

interface RunDraft {
  year: number;
  semester: string;
  placed: (ScheduleEntry & { draft_section?: number })[];
  unplaced: unknown[];
  plan: { course_code: string; planned: number; existing: number; drafted: number }[];
  notes: string[];
  draft_id: string | null;
}

async function rooms(): Promise<void> {
  for (const [name, capacity] of [
    ['Hall A', 80],
    ['Hall B', 80],
    ['Hall C', 80],
  ] as const)
    expect((await server.api('/scheduler/rooms', { method: 'POST', json: { name, capacity, campus: 'Beirut' } })).status).toBe(200);
}

describe('the term a department works in', () => {
  it('stays the one the first meeting was written in, named as the screens name it, when a later offering record arrives', async () => {
    const before = await settings();
    expect(before.current_term_chosen).toBe(false);
    const { year, semester } = before.current_term;
    // The Scheduler sends the term it shows, as every screen does.
    await book({ course_code: 'CSC201', section_name: '1', day: 'MW', start_time: '09:00', year, semester });
    expect(await settings()).toMatchObject({ current_term: { year, semester }, current_term_chosen: true });
    const later = `course_code,year,semester,campus,total_enrolled,passed_count,failed_count,is_offered\nCSC201,${year + 1},Fall,Beirut,40,30,10,true\n`;
    expect((await server.upload('/data/upload/offerings', 'later.csv', later)).status).toBe(200);
    expect((await settings()).current_term).toEqual({ year, semester });
    expect((await json<ScheduleEntry[]>(await server.api('/scheduler/'))).map((e) => e.course_code)).toEqual(['CSC201']);
  });

  it('is not chosen by a refused write', async () => {
    const { year, semester } = (await settings()).current_term;
    const refused = await server.api('/scheduler/', {
      method: 'POST',
      json: { course_code: 'CSC201', section_name: '1', day: 'MW', start_time: '23:30', duration_mins: 120, year, semester },
    });
    expect(refused.status).toBeGreaterThanOrEqual(400);
    expect((await settings()).current_term_chosen).toBe(false);
  });
});

describe('auto-fill from a run', () => {
  it('drafts the plan less the sections the term already has, into the run’s own term, and says what it counted', async () => {
    await rooms();
    const run = await saveRun(server.core.context.db, 'Beirut', [
      { code: 'CSC201', enrollment: 120, sections: 3 },
      { code: 'CSC243', enrollment: 40, sections: 1 },
      { code: 'STA100', enrollment: 60, sections: 2 },
    ]);
    // The run plans Fall 2025 (saveRun): §1 of CSC201 and of CSC243 are there already, by hand.
    await book({ course_code: 'CSC201', section_name: '1', day: 'MW', start_time: '08:00', room: 'Hall A', year: 2025, semester: 'Fall' });
    await book({ course_code: 'CSC243', section_name: '1', day: 'TR', start_time: '08:00', room: 'Hall B', year: 2025, semester: 'Fall' });
    const response = await server.api('/scheduler/auto', { method: 'POST', json: { run_id: run, dry_run: true } });
    expect(response.status, await response.clone().text()).toBe(200);
    const draft = await json<RunDraft>(response);
    expect([draft.year, draft.semester]).toEqual([2025, 'Fall']);
    expect(draft.notes).toEqual([]);
    expect(draft.plan).toEqual([
      { course_code: 'CSC201', planned: 3, existing: 1, drafted: 2 },
      { course_code: 'CSC243', planned: 1, existing: 1, drafted: 0 },
      { course_code: 'STA100', planned: 2, existing: 0, drafted: 2 },
    ]);
    const drafted = [...draft.placed, ...(draft.unplaced as { course_code: string; section_name: string }[])].map((p) => `${p.course_code} §${p.section_name}`);
    expect(drafted.sort()).toEqual(['CSC201 §2', 'CSC201 §3', 'STA100 §1', 'STA100 §2']);

    // Applied by its id: the counts add up to the plan, and every id answered is the stored meeting's.
    const applied = await server.api(`/scheduler/auto/${draft.draft_id ?? ''}/apply`, { method: 'POST', json: {} });
    expect(applied.status, await applied.clone().text()).toBe(200);
    const answer = await json<{ result: { placed: { id: number; course_code: string; section_name: string; draft_section: number }[] } }>(applied);
    const stored = await entries(2025, 'Fall');
    const byId = new Map(stored.map((e) => [e.id, e]));
    for (const placed of answer.result.placed)
      expect(byId.get(placed.id), JSON.stringify(placed)).toMatchObject({ course_code: placed.course_code, section_name: placed.section_name });
    const count = (code: string): number => new Set(stored.filter((e) => e.course_code === code).map((e) => e.section_name)).size;
    expect([count('CSC201'), count('CSC243'), count('STA100')]).toEqual([3, 1, 2]);
  });

  it('counts only the sections at the run’s campus: another campus’s serve other students', async () => {
    await rooms();
    const run = await saveRun(server.core.context.db, 'Beirut', [{ code: 'STA100', enrollment: 60, sections: 2 }]);
    await book({ course_code: 'STA100', section_name: '1', day: 'MW', start_time: '08:00', campus: 'Byblos', year: 2025, semester: 'Fall' });
    const draft = await json<RunDraft>(await server.api('/scheduler/auto', { method: 'POST', json: { run_id: run } }));
    expect(draft.plan).toEqual([{ course_code: 'STA100', planned: 2, existing: 0, drafted: 2 }]);
    // Named after every section of the term, whatever its campus.
    expect(draft.placed.map((p) => p.section_name).sort()).toEqual(['2', '3']);
  });

  it('goes into another term only when asked, and then says the run plans another term; asked again, it adds nothing the plan already has', async () => {
    await rooms();
    const run = await saveRun(server.core.context.db, 'Beirut', [{ code: 'STA100', enrollment: 60, sections: 2 }]);
    const other = await json<RunDraft>(await server.api('/scheduler/auto', { method: 'POST', json: { run_id: run, year: 2026, semester: 'Spring' } }));
    expect([other.year, other.semester]).toEqual([2026, 'Spring']);
    expect(other.notes).toEqual([expect.stringMatching(/plans Fall 2025: its sections are drafted into Spring 2026, as asked/)]);
    const stored = await json<RunDraft>(await server.api('/scheduler/auto', { method: 'POST', json: { run_id: run, dry_run: false } }));
    expect(stored.placed).toHaveLength(2);
    const inTerm = await entries(2025, 'Fall');
    for (const placed of stored.placed) expect(inTerm.find((e) => e.id === placed.id)?.section_name).toBe(placed.section_name);
    const again = await json<RunDraft>(await server.api('/scheduler/auto', { method: 'POST', json: { run_id: run, dry_run: false } }));
    expect(again.plan).toEqual([{ course_code: 'STA100', planned: 2, existing: 2, drafted: 0 }]);
    expect(again.placed).toEqual([]);
  });
});

describe('auto-fill of a term, stored at once', () => {
  it('answers each placed section with its stored meeting’s id', async () => {
    await rooms();
    // A meeting first, so that ids in a draft and stored ids differ; then a section without a time, from a listing.
    await book({ course_code: 'CSC243', section_name: '9', day: 'F', start_time: '08:00', year: 2025, semester: 'Fall' });
    const form = new FormData();
    form.append('dry_run', 'false');
    form.append(
      'file',
      new Blob(['Course,Section,Days,Start Time,End Time,Room,Instructors,Term\nCSC201,1,,ARRANGED,,,Dr. Listing,Fall 2025\n']),
      'listing.csv',
    );
    const imported = await server.api('/scheduler/import', { method: 'POST', body: form });
    expect(imported.status, await imported.clone().text()).toBe(200);
    const response = await server.api('/scheduler/auto', { method: 'POST', json: { source: 'unscheduled', dry_run: false, year: 2025, semester: 'Fall' } });
    expect(response.status, await response.clone().text()).toBe(200);
    const answer = await json<{ placed: { id: number; course_code: string; section_name: string }[] }>(response);
    expect(answer.placed).toHaveLength(1);
    const stored = await entries(2025, 'Fall');
    expect(stored.find((e) => e.id === answer.placed[0]?.id)).toMatchObject({ course_code: 'CSC201', section_name: '1' });
  });
});

describe('careless input, answered in a scheduler’s words', () => {
  const detailOf = async (response: Response): Promise<string> => (await json<{ detail: string }>(response)).detail;

  it('names the field in words and refuses a length it does not take, never rewriting it', async () => {
    const response = await server.api('/scheduler/', {
      method: 'POST',
      json: { course_code: 'CSC201', section_name: '1', day: 'MW', start_time: '09:00', duration_mins: 99_999_999 },
    });
    expect(response.status).toBe(422);
    expect(await detailOf(response)).toBe('Not accepted — Minutes (duration_mins): must be at most 600 minutes');
  });

  it('says a missing field is required, not what type zod expected', async () => {
    const response = await server.api('/scheduler/', { method: 'POST', json: { course_code: 'CSC201', start_time: '09:00', duration_mins: 50 } });
    expect(response.status).toBe(422);
    const said = await detailOf(response);
    expect(said).not.toMatch(/expected|received|Invalid input/);
    expect(said).toBe('Not accepted — Section (section_name): is required; Days (day): is required');
  });

  it('says where a JSON file goes wrong, not the parser’s words', async () => {
    const response = await server.upload('/data/upload/courses', 'courses.json', 'this is not json {');
    expect(response.status).toBe(400);
    expect(await detailOf(response)).toBe('"courses.json" is not valid JSON: something other than JSON at line 1, column 1 ("this is not json {")');
    const cut = await server.upload('/data/upload/courses', 'courses.json', '[{"code": "CSC201",\n "name": "Intro"');
    expect(await detailOf(cut)).toMatch(/ends before it is complete/);
  });

  it('bounds the incoming students a run counts', async () => {
    const response = await server.api('/predict/bulk', {
      method: 'POST',
      json: { run_name: 'Too many', target_year: 2025, target_semester: 'Spring', target_campus: 'Beirut', new_freshman: 1e12 },
    });
    expect(response.status).toBe(422);
    expect(await detailOf(response)).toBe('Not accepted — New freshmen (new_freshman): must be at most 100,000 students');
  });

  it('leaves out an instructor whose hours cannot be read, saying why, instead of making them available at any time', async () => {
    const upload = await server.upload(
      '/data/upload/doctors',
      'doctors.csv',
      'name,allowed_courses,days,start,end\nDr. Late,CSC201,MW,08:00,99:99\nDr. Fine,CSC201,MW,08:00,12:00\n',
    );
    expect(upload.status).toBe(200);
    const report = await json<{ skipped: number; warnings: string[] }>(upload);
    expect(report.skipped).toBe(1);
    expect(report.warnings.join(' ')).toMatch(/Dr\. Late: availability "08:00"–"99:99" needs a readable start and end time; fix the hours and upload again/);
    const doctors = await json<{ name: string; available_time: string | null }[]>(await server.api('/scheduler/doctors'));
    expect(doctors.find((d) => d.name === 'Dr. Late')).toBeUndefined();
    expect(doctors.find((d) => d.name === 'Dr. Fine')?.available_time).toBe('08:00-12:00');
  });
});
