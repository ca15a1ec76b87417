import { readFileSync } from 'node:fs';
import Papa from 'papaparse';
import type { Page } from '@playwright/test';
import { test, expect, goTo, screenshot, signIn, type RunningApp } from './fixtures';
import { realDataFile } from '../helpers/real-data';

/**
 * The whole app on a real department: the University of Illinois ECE + PHYS history, one campus
 * named Urbana. Nothing on any screen may speak of the sample department (its prefixes CSC, BIF,
 * MTH, STA or its campuses Beirut and Byblos).
 */
const COURSES = realDataFile('uiuc-ece-phys/courses.json');
const OFFERINGS = realDataFile('uiuc-ece-phys/offerings.csv');
const SECTIONS = realDataFile('uiuc-ece-phys/sections.csv');
const SAMPLE_WORDS = /\b(CSC|BIF|MTH|STA)\s?\d*\b|Beirut|Byblos/;

test.use({ dataFiles: { 'campuses.json': '["Urbana"]' } });

async function upload(app: RunningApp, path: string, filename: string, text: string): Promise<{ processed: number }> {
  const body = new FormData();
  body.append('file', new Blob([text]), filename);
  return app.api(path, { method: 'POST', body });
}

/** The department's own files: its offerings without the campus column (one campus), and its instructors from the sections they taught. */
function departmentFiles(): { courses: string; offerings: string; doctors: string } {
  const offerings = Papa.parse<Record<string, string>>(readFileSync(OFFERINGS as string, 'utf8'), { header: true, skipEmptyLines: true });
  const taught = new Map<string, Set<string>>();
  const sections = Papa.parse<Record<string, string>>(readFileSync(SECTIONS as string, 'utf8'), { header: true, skipEmptyLines: true });
  for (const row of sections.data) {
    const name = row['Primary Instructor']?.trim();
    if (!name || Number(row.Year) < 2022) continue;
    taught.set(name, (taught.get(name) ?? new Set()).add(`${row.Subject}${row.Number}`));
  }
  return {
    courses: readFileSync(COURSES as string, 'utf8'),
    offerings: Papa.unparse(offerings.data.map(({ campus: _campus, ...rest }) => rest)),
    doctors: Papa.unparse([...taught].map(([name, codes]) => ({ name, allowed_courses: [...codes].join(', ') }))),
  };
}

async function expectOnlyTheDepartmentsWords(page: Page, screen: string): Promise<void> {
  const text = await page.locator('main, body').first().innerText();
  expect(SAMPLE_WORDS.exec(text)?.[0], `${screen} speaks of the sample department`).toBeUndefined();
}

/** Where the real data is absent the test is not defined, and says why in the test output. */
if (COURSES === null || OFFERINGS === null || SECTIONS === null) {
  console.log('Not running the real-department walk: the real UIUC data is not next to this checkout (../shared/data; see docs/configuration.md, "Real data")');
} else {
  test('plans a real department end to end: train, run, decide, record an instructor away, auto-fill, in its own words', async ({ page, app }) => {
    test.setTimeout(300_000);
    const files = departmentFiles();
    expect((await upload(app, '/data/upload/courses', 'courses.json', files.courses)).processed).toBe(204);
    expect((await upload(app, '/data/upload/offerings', 'offerings.csv', files.offerings)).processed).toBeGreaterThan(2000);
    expect((await upload(app, '/data/upload/doctors', 'doctors.csv', files.doctors)).processed).toBeGreaterThan(20);
    for (const [name, capacity] of [
      ['ECEB 1002', 300],
      ['ECEB 2013', 120],
      ['ECEB 3017', 60],
      ['Loomis 141', 250],
      ['Loomis 151', 40],
    ] as const) {
      await app.api('/scheduler/rooms', { method: 'POST', json: { name, capacity, campus: 'Urbana' } });
    }
    const doctors = await app.api<{ id: number; name: string; allowed_courses: string }[]>('/scheduler/doctors');

    await signIn(page, app);
    await expectOnlyTheDepartmentsWords(page, 'Dashboard');
    await goTo(page, 'data');
    await expectOnlyTheDepartmentsWords(page, 'Data');

    await goTo(page, 'predictions');
    // The quota panel offers the department's own categories.
    await expect(page.getByTestId('slot-ece_core')).toBeVisible();
    await expect(page.getByTestId('slot-phys_core')).toBeVisible();
    await page.getByTestId('train').click();
    await expect(page.getByTestId('train-result')).toContainText(/Urbana model: ranked past terms right \d+ of 100 times/, { timeout: 120_000 });

    // An instructor on sabbatical next term, recorded before the run.
    const away = doctors[0];
    if (!away) throw new Error('the department has instructors');
    const notes = page.getByTestId('term-notes');
    await notes.getByTestId('term-note-subject').click();
    await page.getByRole('option', { name: away.name, exact: true }).click();
    await notes.getByTestId('term-note-reason').fill('sabbatical');
    await notes.getByTestId('term-note-add').click();
    await expect(notes.getByTestId('term-note')).toHaveText([
      new RegExp(`^${away.name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} away in (Fall|Spring) 20\\d\\d \\(sabbatical\\)$`),
    ]);

    await page.getByTestId('run').click();
    const results = page.getByTestId('run-results');
    await expect(results).toContainText(/Urbana (Fall|Spring) 20\d\d: \d+ of 204 courses in the plan/, { timeout: 60_000 });
    const [run] =
      await app.api<{ id: number; target_year: number; target_semester: string; entries: { course_code: string; offer: boolean }[] }[]>(
        '/predict/runs?campus=Urbana',
      );
    if (!run) throw new Error('the run is saved');
    const offered = run.entries.filter((e) => e.offer);
    const skipped = run.entries.find((e) => !e.offer);
    const dropped = offered[0];
    if (!skipped || !dropped) throw new Error('the run offers some courses and skips others');

    // Two decisions of staff: skip one the model offers, offer two sections of one it skips.
    const grid = page.getByTestId('grid-run');
    const editor = page.getByTestId('decision-editor');
    const search = page.getByRole('textbox', { name: 'Search Recommendations' });
    await search.fill(dropped.course_code);
    await grid.getByRole('row').filter({ hasText: dropped.course_code }).first().click();
    await editor.getByText('Skip', { exact: true }).click();
    await editor.getByTestId('decision-reason').fill('No instructor this term');
    await editor.getByTestId('decision-save').click();
    await expect(results).toContainText('1 decided by you');
    await search.fill(skipped.course_code);
    await grid.getByRole('row').filter({ hasText: skipped.course_code }).first().click();
    await editor.getByText('Offer', { exact: true }).click();
    await editor.getByTestId('decision-sections').fill('2');
    await editor.getByTestId('decision-save').click();
    await expect(results).toContainText(`${offered.length} of 204 courses in the plan (2 decided by you, ${offered.length} recommended by the model)`);
    await screenshot(page, 'real-department-predictions');
    await expectOnlyTheDepartmentsWords(page, 'Predictions');

    // Auto-fill drafts the decided plan for the run's term.
    await app.api('/scheduler/settings', { method: 'PATCH', json: { current_term: { year: run.target_year, semester: run.target_semester } } });
    await goTo(page, 'scheduler');
    await page.getByTestId('autofill-open').click();
    // The run's plan counts staff's two decisions: one course fewer, one more.
    await expect(page.getByTestId('autofill-run')).toHaveValue(
      new RegExp(`— Urbana ${run.target_semester} ${run.target_year} \\(${offered.length} courses in the plan\\)$`),
    );
    await page.getByTestId('autofill-preview').click();
    const summary = page.getByTestId('autofill-summary');
    await expect(summary).toContainText(/Draft: places \d+ of \d+ sections/, { timeout: 60_000 });
    await page.getByTestId('autofill-apply').click();
    await expect(summary).toHaveCount(0);
    const timetable = await app.api<{ course_code: string; section_name: string }[]>(`/scheduler/?year=${run.target_year}&semester=${run.target_semester}`);
    const codes = new Set(timetable.map((e) => e.course_code));
    expect(codes.has(dropped.course_code)).toBe(false);
    expect(timetable.filter((e) => e.course_code === skipped.course_code).length).toBeLessThanOrEqual(2);
    expect(timetable.length).toBeGreaterThan(10);
    await screenshot(page, 'real-department-scheduler');
    await expectOnlyTheDepartmentsWords(page, 'Scheduler');

    await goTo(page, 'settings');
    await expect(page.getByTestId('quota-categories').getByRole('textbox', { name: 'Name of the ECE core category' })).toHaveValue('ECE core');
    await expectOnlyTheDepartmentsWords(page, 'Settings');
    await goTo(page, 'dashboard');
    await expectOnlyTheDepartmentsWords(page, 'Dashboard');
  });
}
