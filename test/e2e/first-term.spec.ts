import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test, expect, goTo, screenshot, SAMPLE, signIn } from './fixtures';

/**
 * A department's first term in Chromium at 1366×768, as a new scheduler meets it: the three files
 * imported, the models trained, a run, two sections built by hand, auto-fill completing the plan
 * (the counts add up to it), the auto-fill undone, the timetable exported; the term stays the one
 * the work began in throughout. Each screen's screenshot is kept with the test's output.
 */
interface Settings {
  current_term: { year: number; semester: string };
  current_term_chosen: boolean;
}
interface Run {
  id: number;
  target_year: number;
  target_semester: string;
  entries: { course_code: string; planned_offer: boolean; planned_sections: number }[];
}
interface Meeting {
  course_code: string;
  section_name: string;
}

const sectionCounts = (meetings: readonly Meeting[]): Map<string, number> => {
  const sections = new Map<string, Set<string>>();
  for (const m of meetings) sections.set(m.course_code, (sections.get(m.course_code) ?? new Set()).add(m.section_name));
  return new Map([...sections].map(([code, names]) => [code, names.size]));
};

test('a first term: import, train, run, two sections by hand, auto-fill the rest of the plan, undo, export; the term stays put', async ({ page, app }) => {
  test.setTimeout(240_000);
  await page.setViewportSize({ width: 1366, height: 768 });
  await signIn(page, app);

  // The three files, through the Data screen.
  await goTo(page, 'data');
  for (const [kind, file, read] of [
    ['courses', 'courses.json', '117 processed'],
    ['offerings', 'offerings.csv', '1978 processed'],
    ['doctors', 'doctors.csv', '30 processed'],
  ] as const) {
    await page.getByTestId(`import-${kind}`).locator('input[type=file]').setInputFiles(join(SAMPLE, file));
    await expect(page.getByTestId(`preview-${kind}`)).toBeVisible();
    await page.getByTestId(`import-${kind}-button`).click();
    await expect(page.getByTestId(`import-${kind}-result`)).toContainText(read);
  }
  await page.getByTestId('file-formats').click();
  await expect(page.getByTestId('file-formats-page')).toContainText('Offering history');
  await screenshot(page, 'first-term-file-formats');
  await page.keyboard.press('Escape');
  await screenshot(page, 'first-term-data');
  const { current_term: term } = await app.api<Settings>('/scheduler/settings');

  // Train and run for the term the screens show: Train and Run are in view at 1366×768.
  await goTo(page, 'predictions');
  for (const button of ['train', 'run']) {
    const box = await page.getByTestId(button).boundingBox();
    expect((box?.y ?? 1000) + (box?.height ?? 0), `${button} in view`).toBeLessThan(768);
  }
  await page.getByTestId('train').click();
  await expect(page.getByTestId('train-result')).toContainText(/Beirut model/, { timeout: 60_000 });
  await page.getByTestId('run').click();
  await expect(page.getByTestId('run-results')).toContainText(new RegExp(`Beirut ${term.semester} ${term.year}: \\d+ of 117 courses in the plan`));
  await screenshot(page, 'first-term-predictions');
  const [run] = await app.api<Run[]>('/predict/runs?campus=Beirut');
  expect([run?.target_year, run?.target_semester]).toEqual([term.year, term.semester]);
  const plan = new Map((run?.entries ?? []).filter((e) => e.planned_offer).map((e) => [e.course_code, e.planned_sections]));
  const [first, second] = [...plan.keys()];
  if (first === undefined || second === undefined) throw new Error('The run plans fewer than two courses');

  // The rooms, then two sections by hand.
  await goTo(page, 'scheduler');
  await page.getByTestId('rooms-panel').locator('input[type=file]').setInputFiles(join(SAMPLE, 'rooms.csv'));
  await expect.poll(async () => (await app.api<unknown[]>('/scheduler/rooms')).length).toBeGreaterThan(3);
  for (const [code, start] of [
    [first, '08:00'],
    [second, '16:00'],
  ] as const) {
    await page.getByTestId('new-section').click();
    await page.getByTestId('entry-course').fill(code);
    await page.getByRole('option', { name: new RegExp(`^${code} — `) }).click();
    await page.getByTestId('entry-day').fill('MWF');
    await page.getByTestId('entry-start').fill(start);
    await page.getByTestId('entry-save').click();
    await expect(page.getByTestId('entry-form')).toHaveCount(0);
  }
  const byHand = await app.api<Meeting[]>(`/scheduler/?year=${term.year}&semester=${term.semester}`);
  expect([...sectionCounts(byHand).keys()].sort()).toEqual([first, second].sort());
  await screenshot(page, 'first-term-scheduler');

  // Auto-fill the rest of the plan: the dialog picks this term's run, the draft counts what is there.
  await page.getByTestId('autofill-open').click();
  await expect(page.getByTestId('autofill-other-term')).toHaveCount(0);
  await page.getByTestId('autofill-preview').click();
  const summary = page.getByTestId('autofill-summary');
  await expect(summary).toContainText(/Draft: places \d+ of \d+ sections/, { timeout: 60_000 });
  await expect(page.getByTestId('autofill-plan')).toContainText(`${first} ${plan.get(first)} planned, 1 there, ${(plan.get(first) ?? 1) - 1} new`);
  await screenshot(page, 'first-term-autofill-draft');
  const unplaced = await page.getByTestId('autofill-unplaced').getByRole('listitem').count();
  await page.getByTestId('autofill-apply').click();
  await expect(summary).toHaveCount(0);
  const filled = sectionCounts(await app.api<Meeting[]>(`/scheduler/?year=${term.year}&semester=${term.semester}`));
  // No course has more sections than its plan; together with what could not be placed, the plan exactly.
  for (const [code, count] of filled) expect(count, code).toBeLessThanOrEqual(plan.get(code) ?? 0);
  const planned = [...plan.values()].reduce((a, b) => a + b, 0);
  expect([...filled.values()].reduce((a, b) => a + b, 0) + unplaced).toBe(planned);
  await screenshot(page, 'first-term-autofilled');

  // Undo the auto-fill as a whole: the two sections by hand are what is left.
  await page
    .getByTestId('history-row')
    .first()
    .getByRole('button', { name: /^Undo all \d+$/ })
    .click();
  await expect.poll(async () => (await app.api<Meeting[]>(`/scheduler/?year=${term.year}&semester=${term.semester}`)).length).toBe(byHand.length);
  await screenshot(page, 'first-term-undone');

  // Exported: the sheet names its term.
  const [download] = await Promise.all([page.waitForEvent('download'), page.getByTestId('export-xlsx').click()]);
  expect(download.suggestedFilename()).toBe(`timetable_${term.semester}_${term.year}.xlsx`);
  expect(readFileSync(await download.path()).byteLength).toBeGreaterThan(1000);

  // The term stayed the one the work began in, after a reload too.
  expect(await app.api<Settings>('/scheduler/settings')).toMatchObject({ current_term: term, current_term_chosen: true });
  await page.reload();
  await goTo(page, 'scheduler');
  await expect(page.locator('[data-entry-id]').first()).toBeVisible();
});
