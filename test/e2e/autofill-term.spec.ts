import { test, expect, goTo, screenshot, signIn } from './fixtures';

/** Sections without a time: imported from a listing, given a time by auto-fill (progress, cancel, again), applied and drawn on the week. */
const LISTING = [
  'Course,Section,Days,Start Time,End Time,Room,Instructors,Term,Type',
  'CSC310,A,MWF,09:00,09:50,Hall 1,Dr. Listing,Fall 2025,Lecture',
  'CSC320,A,,ARRANGED,,Hall 1,Dr. Listing,Fall 2025,Lecture',
  'CSC330,A,,ARRANGED,,Hall 2,Dr. Other,Fall 2025,Lecture',
  'CSC340,W,,ARRANGED,,,Dr. Other,Fall 2025,Online',
].join('\n');

test('imports sections without a time and auto-fills them: progress, cancel keeping the best draft, run again, preview, leave one out, apply, on the week', async ({
  page,
  app,
}) => {
  await app.api('/scheduler/settings', { method: 'PATCH', json: { current_term: { year: 2025, semester: 'Fall' } } });
  await signIn(page, app);
  await goTo(page, 'scheduler');
  await page.getByTestId('import-timetable-open').click();
  const dialog = page.getByTestId('import-timetable');
  await dialog.locator('input[type=file]').setInputFiles({ name: 'fall-2025.csv', mimeType: 'text/csv', buffer: Buffer.from(LISTING) });
  await expect(page.getByTestId('import-untimed')).toContainText('Would keep 3 sections without a time');
  await page.getByTestId('import-timetable-apply').click();
  await expect(page.getByTestId('import-timetable-counts')).toContainText('Stored 1 meeting');
  await page.getByRole('button', { name: 'Close', exact: true }).click();
  await expect(page.getByTestId('unscheduled-panel')).toContainText('Sections without a time (3)');
  await expect(page.getByTestId('unscheduled-panel')).toContainText('CSC340 §W');

  // A long search (millions of moves): its progress shows; Cancel keeps the best draft so far.
  await page.getByTestId('autofill-open').click();
  await page.getByTestId('autofill-source').click();
  await page.getByRole('option', { name: /sections without a time/ }).click();
  // The search's length is under Advanced, closed until opened.
  await expect(page.getByTestId('autofill-moves')).toBeHidden();
  await page.getByText('Advanced (for reproducing a draft)').click();
  await page.getByTestId('autofill-moves').fill('20000000');
  await page.getByTestId('autofill-preview').click();
  await expect(page.getByTestId('autofill-progress')).toBeVisible();
  await screenshot(page, 'scheduler-autofill-progress');
  await page.getByTestId('autofill-cancel').click();
  const summary = page.getByTestId('autofill-summary');
  await expect(summary).toContainText(/Draft: gives \d+ of 3 sections without a time a time/);
  await page.getByRole('button', { name: 'Discard' }).click();
  await expect(summary).toHaveCount(0);

  // Again, with the default moves: the draft, then applied.
  await page.getByTestId('autofill-open').click();
  if (!(await page.getByTestId('autofill-moves').isVisible())) await page.getByText('Advanced (for reproducing a draft)').click();
  await page.getByTestId('autofill-moves').fill('');
  await page.getByTestId('autofill-preview').click();
  await expect(summary).toContainText('Draft: gives 3 of 3 sections without a time a time');
  await expect(page.getByTestId('autofill-review')).toContainText('CSC320 §A');
  await screenshot(page, 'scheduler-autofill-unscheduled-preview');
  // Nothing stored by the preview.
  expect(await app.api<unknown[]>('/scheduler/unscheduled?year=2025&semester=Fall')).toHaveLength(3);
  // Staff leave one section out, by keyboard: Apply stores the others; it stays without a time.
  const sections = await app.api<{ id: number; course_code: string }[]>('/scheduler/unscheduled?year=2025&semester=Fall');
  const left = sections.find((u) => u.course_code === 'CSC330')?.id ?? 0;
  await page.getByTestId(`autofill-row-s${left}`).focus();
  await page.keyboard.press('Space');
  await expect(page.getByTestId('autofill-apply')).toHaveText('Apply 2 of 3');
  await page.getByTestId('autofill-apply').click();
  await expect(summary).toHaveCount(0);
  await expect(page.getByTestId('unscheduled-panel')).toContainText('Sections without a time (1)');
  const stored = await app.api<{ id: number; course_code: string }[]>('/scheduler/?year=2025&semester=Fall');
  expect(stored.map((e) => e.course_code).sort()).toEqual(['CSC310', 'CSC320', 'CSC340']);
  for (const e of stored) await expect(page.getByTestId(`event-${e.id}`).first()).toBeAttached();
});
