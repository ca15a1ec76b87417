import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startTestServer, json, type TestServer } from '../helpers/server';
import { readStudyPlans } from '../../core/timetable/curriculum';
import type { ScheduleEntry } from '../../core/timetable/schema';

/**
 * Curriculum conflicts (issue 12): courses one cohort takes in the same term must not overlap.
 * Cohorts come from the catalog's study plans, else the core courses of one prefix and level; a
 * clash is only a conflict when no choice of sections avoids it.
 */
let server: TestServer;

const CATALOG = [
  { code: 'CSC243', name: 'Data Structures', type: 'core', study_plan: 'Computer Science — Year 2, Fall' },
  { code: 'CSC245', name: 'Computer Organization', type: 'core', study_plan: 'Computer Science — Year 2, Fall or Spring' },
  { code: 'CSC310', name: 'Algorithms', type: 'core', study_plan: 'Computer Science — Year 2, Spring' },
  { code: 'CSC326', name: 'Operating Systems', type: 'core', study_plan: 'Computer Science — Year 3, Fall' },
  { code: 'MTH201', name: 'Calculus III', type: 'core' },
  { code: 'MTH202', name: 'Linear Algebra', type: 'core' },
  { code: 'MTH207', name: 'Number Theory', type: 'elective' },
];

beforeEach(async () => {
  server = await startTestServer();
  const upload = await server.upload('/data/upload/courses', 'courses.json', JSON.stringify(CATALOG));
  expect(upload.status, await upload.clone().text()).toBe(200);
  const settings = await server.api('/scheduler/settings', { method: 'PATCH', json: { current_term: { year: 2025, semester: 'Fall' } } });
  expect(settings.status).toBe(200);
});
afterEach(async () => {
  await server.close();
});

let rooms = 0;
async function place(course_code: string, section_name: string, day: string, start_time: string, extra: Record<string, unknown> = {}): Promise<ScheduleEntry> {
  const response = await server.api('/scheduler/', {
    method: 'POST',
    json: { course_code, section_name, doctor_id: 0, day, start_time, duration_mins: 75, room: `Room ${++rooms}`, ...extra },
  });
  expect(response.status, await response.clone().text()).toBe(200);
  return json<ScheduleEntry>(response);
}

const curriculumWarnings = (entry: ScheduleEntry | undefined): string[] => (entry?.warnings ?? []).filter((w) => w.startsWith('Curriculum conflict'));

async function timetable(): Promise<Map<number, ScheduleEntry>> {
  const entries = await json<ScheduleEntry[]>(await server.api('/scheduler/'));
  return new Map(entries.map((e) => [e.id, e]));
}

async function conflictCount(): Promise<number> {
  return (await json<{ curriculum_conflicts: number }>(await server.api('/dashboard/metrics'))).curriculum_conflicts;
}

describe('curriculum conflicts', () => {
  it("lists the term timetable's student cohorts with their courses, for the Scheduler's cohort view (GET /scheduler/cohorts)", async () => {
    await place('CSC243', '1', 'MWF', '09:00');
    await place('CSC245', '1', 'TR', '09:00');
    await place('CSC326', '1', 'TR', '11:00');
    await place('MTH201', '1', 'MWF', '11:00');
    await place('MTH207', '1', 'MWF', '13:00');
    const cohorts = await json<{ key: string; label: string; courses: string[] }[]>(await server.api('/scheduler/cohorts'));
    expect(cohorts.map((c) => [c.label, c.courses])).toEqual([
      ['Computer Science, Year 2', ['CSC243', 'CSC245']],
      ['Computer Science, Year 3', ['CSC326']],
      ['MTH 200-level core courses', ['MTH201']],
    ]);
    // Another term's timetable has its own cohorts: none yet.
    expect(await json(await server.api('/scheduler/cohorts?year=2026&semester=Spring'))).toEqual([]);
    expect((await server.api('/scheduler/cohorts?year=abc&semester=Fall')).status).toBe(422);
  });

  it('warns on both meetings when every choice of sections of two courses of one study plan overlaps, and clears when another section leaves a choice', async () => {
    const structures = await place('CSC243', '1', 'MWF', '09:00');
    expect(curriculumWarnings(structures)).toEqual([]);
    const organization = await place('CSC245', '1', 'MW', '09:30');
    expect(curriculumWarnings(organization)).toEqual([
      'Curriculum conflict: students of Computer Science, Year 2 take this course and CSC243 together, and every choice of their sections overlaps (this meeting overlaps CSC243 section 1)',
    ]);
    let listed = await timetable();
    expect(curriculumWarnings(listed.get(structures.id))).toEqual([expect.stringContaining('take this course and CSC245 together') as string]);
    expect(curriculumWarnings(listed.get(organization.id))).toHaveLength(1);
    expect(await conflictCount()).toBe(1);

    // A second section of CSC245 on Tuesday and Thursday gives the students a clash-free choice.
    const alternative = await place('CSC245', '2', 'TR', '09:00');
    expect(curriculumWarnings(alternative)).toEqual([]);
    listed = await timetable();
    expect([...listed.values()].flatMap(curriculumWarnings)).toEqual([]);
    expect(await conflictCount()).toBe(0);

    // Moving that section onto the same time brings the conflict back, on every overlapping meeting.
    const moved = await server.api(`/scheduler/${alternative.id}`, { method: 'PATCH', json: { day: 'F', start_time: '09:00' } });
    expect(curriculumWarnings(await json<ScheduleEntry>(moved))).toEqual([expect.stringContaining('overlaps CSC243 section 1') as string]);
    listed = await timetable();
    expect(curriculumWarnings(listed.get(structures.id))).toEqual([
      expect.stringContaining('(this meeting overlaps CSC245 section 1, CSC245 section 2)') as string,
    ]);
    expect(await conflictCount()).toBe(1);

    // Deleting the clashing meetings of CSC245 leaves nothing to warn about.
    await server.api(`/scheduler/${organization.id}`, { method: 'DELETE' });
    await server.api(`/scheduler/${alternative.id}`, { method: 'DELETE' });
    expect(curriculumWarnings((await timetable()).get(structures.id))).toEqual([]);
    expect(await conflictCount()).toBe(0);
  });

  it('takes a study plan only in the semesters it names, and another year of study as another cohort', async () => {
    await place('CSC243', '1', 'MWF', '09:00');
    expect(curriculumWarnings(await place('CSC310', '1', 'MWF', '09:00'))).toEqual([]); // Spring in the plan
    expect(curriculumWarnings(await place('CSC326', '1', 'MWF', '09:00'))).toEqual([]); // Year 3
    const spring = await place('CSC310', '1', 'MWF', '09:00', { year: 2026, semester: 'Spring' });
    expect(curriculumWarnings(await place('CSC245', '1', 'MWF', '09:00', { year: 2026, semester: 'Spring' }))).toEqual([
      expect.stringContaining('CSC310') as string,
    ]);
    const springList = await json<ScheduleEntry[]>(await server.api('/scheduler/?year=2026&semester=Spring'));
    expect(curriculumWarnings(springList.find((e) => e.id === spring.id))).toHaveLength(1);
    expect(await conflictCount()).toBe(0); // the dashboard counts the current term (Fall 2025)
  });

  it('groups the core courses of one prefix and level when the catalog has no study plan, and never electives', async () => {
    await place('MTH201', '1', 'TR', '11:00');
    expect(curriculumWarnings(await place('MTH207', '1', 'TR', '11:00'))).toEqual([]);
    expect(curriculumWarnings(await place('MTH202', '1', 'TR', '11:30'))).toEqual([
      'Curriculum conflict: students of MTH 200-level core courses take this course and MTH201 together, and every choice of their sections overlaps (this meeting overlaps MTH201 section 1)',
    ]);
    expect(await conflictCount()).toBe(1);
  });

  it('is no conflict across campuses, within a joint group, in parts of term that never meet together, or back to back', async () => {
    await place('CSC243', '1', 'MWF', '09:00', { campus: 'Beirut' });
    expect(curriculumWarnings(await place('CSC245', '1', 'MWF', '09:00', { campus: 'Byblos' }))).toEqual([]);
    await place('MTH201', '1', 'TR', '14:00', { joint_group: 'MTH-J' });
    expect(curriculumWarnings(await place('MTH202', '1', 'TR', '14:00', { joint_group: 'MTH-J' }))).toEqual([]);
    for (const part of [
      { code: 'A', name: 'First half', start_date: '2025-09-01', end_date: '2025-10-20' },
      { code: 'B', name: 'Second half', start_date: '2025-10-21', end_date: '2025-12-15' },
    ]) {
      expect((await server.api('/scheduler/parts', { method: 'POST', json: { year: 2025, semester: 'Fall', ...part } })).status).toBe(200);
    }
    await place('CSC243', '2', 'TR', '08:00', { part_of_term: 'A', campus: 'Beirut' });
    expect(curriculumWarnings(await place('CSC245', '2', 'TR', '08:00', { part_of_term: 'B', campus: 'Beirut' }))).toEqual([]);
    await place('CSC243', '3', 'S', '09:00', { campus: 'Beirut' });
    expect(curriculumWarnings(await place('CSC245', '3', 'S', '10:15', { campus: 'Beirut' }))).toEqual([]);
    expect(await conflictCount()).toBe(0);
  });
});

describe('curriculum conflicts of an imported timetable', () => {
  it('lists in the dry run the conflicts the term will hold, stores them as warnings when applied, and counts only real ones', async () => {
    await place('CSC243', '1', 'MWF', '09:00');
    const csv = [
      'Course,Section,Days,Start Time,End Time,Room,Year,Semester',
      // Overlaps the stored CSC243 section 1 with no other section to choose: a conflict.
      'CSC245,1,MW,09:30 AM,10:45 AM,Hall 7,2025,Fall',
      // MTH201 has two sections, one clear of MTH202: students have a choice, no conflict.
      'MTH201,1,TR,11:00 AM,12:15 PM,Hall 8,2025,Fall',
      'MTH201,2,TR,02:00 PM,03:15 PM,Hall 8,2025,Fall',
      'MTH202,1,TR,11:00 AM,12:15 PM,Hall 9,2025,Fall',
    ].join('\n');
    const importing = (dry_run: string) => server.upload('/scheduler/import', 'listing.csv', csv, { dry_run });
    const preview = await json<{
      meetings: number;
      curriculum_conflicts: { year: number; semester: string; campus: string; cohort: string; courses: string[]; detail: string }[];
    }>(await importing('true'));
    expect(preview.meetings).toBe(4);
    expect(preview.curriculum_conflicts).toEqual([
      {
        year: 2025,
        semester: 'Fall',
        campus: 'Beirut',
        cohort: 'Computer Science, Year 2',
        courses: ['CSC243', 'CSC245'],
        detail:
          'Students of Computer Science, Year 2 take CSC243 and CSC245 together at Beirut, and every choice of their sections overlaps (CSC243 section 1 with CSC245 section 1)',
      },
    ]);
    expect(await conflictCount()).toBe(0);
    expect((await timetable()).size).toBe(1);

    const applied = await json<{ status: string; curriculum_conflicts: unknown[] }>(await importing('false'));
    expect(applied.status).toBe('success');
    expect(applied.curriculum_conflicts).toEqual(preview.curriculum_conflicts);
    expect(await conflictCount()).toBe(1);
    const byCourse = new Map([...(await timetable()).values()].map((e) => [`${e.course_code}|${e.section_name}`, e]));
    expect(byCourse.get('CSC245|1')?.curriculum_conflicts).toEqual(['CSC243']);
    expect(byCourse.get('CSC243|1')?.curriculum_conflicts).toEqual(['CSC245']);
    expect(byCourse.get('MTH202|1')?.curriculum_conflicts).toEqual([]);
  });
});

describe('reading a study plan', () => {
  it('finds the program, the year of study and the semesters in the ways catalogs write them', () => {
    expect(readStudyPlans('Computer Science — Year 2, Fall')).toEqual([{ program: 'Computer Science', year: 2, semesters: ['Fall'] }]);
    expect(readStudyPlans('Computer Science - Year 1, Both')).toEqual([{ program: 'Computer Science', year: 1, semesters: ['Fall', 'Spring'] }]);
    expect(readStudyPlans('BSc Physics: 3rd year (spring); Minor in Data Science')).toEqual([
      { program: 'BSc Physics', year: 3, semesters: ['Spring'] },
      { program: 'Minor in Data Science', year: null, semesters: [] },
    ]);
    expect(readStudyPlans('MS Bioinformatics yr2 autumn or summer')).toEqual([{ program: 'MS Bioinformatics', year: 2, semesters: ['Fall', 'Summer'] }]);
    expect(readStudyPlans(`${'x'.repeat(10_000)};${'Year 1;'.repeat(1000)}`)).toHaveLength(1);
  });
});

describe('a study plan of hundreds of courses in one slot', () => {
  it('names at most ten clashing courses on each meeting and counts the rest; the dashboard counts every pair', async () => {
    const n = 300;
    const big = Array.from({ length: n }, (_, i) => ({ code: `BIG${1000 + i}`, name: `Course ${i}`, type: 'core', study_plan: 'Big Program — Year 1, Fall' }));
    expect((await server.upload('/data/upload/courses', 'big.json', JSON.stringify(big))).status).toBe(200);
    const listing = ['Course,Section,Days,Start Time,End Time,Room', ...big.map((c, i) => `${c.code},A,MWF,09:00,10:00,Room ${i}`)].join('\n');
    const imported = await server.upload('/scheduler/import', 'big.csv', listing, { dry_run: 'false', year: '2025', semester: 'Fall' });
    const result = await json<{ meetings: number; curriculum_conflicts: unknown[]; totals: { curriculum_conflicts: number } }>(imported);
    expect(result.meetings).toBe(n);
    expect(result.curriculum_conflicts).toHaveLength(200);
    expect(result.totals.curriculum_conflicts).toBe((n * (n - 1)) / 2);
    const entries = await json<ScheduleEntry[]>(await server.api('/scheduler/?year=2025&semester=Fall'));
    for (const entry of entries) {
      expect(entry.curriculum_conflicts).toHaveLength(10);
      const warnings = entry.warnings.filter((w) => w.startsWith('Curriculum conflict'));
      expect(warnings).toHaveLength(11);
      expect(warnings[10]).toBe(
        `Curriculum conflict: this meeting also overlaps ${n - 11} more courses its students take together with it, with no clash-free choice of sections`,
      );
    }
    const metrics = await json<{ curriculum_conflicts: number }>(await server.api('/dashboard/metrics'));
    expect(metrics.curriculum_conflicts).toBe((n * (n - 1)) / 2);
  }, 30_000);
});
