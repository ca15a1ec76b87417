import { test, expect, goTo, screenshot, signIn, type RunningApp } from './fixtures';
import { cutCodes } from './week-checks';

interface Stored {
  id: number;
  course_code: string;
  section_name: string;
}
const sectionOf = (e: { course_code: string; section_name: string }): string => `${e.course_code} §${e.section_name}`;

/** The sample data loaded, and a run for Beirut in Spring 2025 auto-filled and stored into the term. */
async function storeBeirutPlan(app: RunningApp): Promise<void> {
  await app.api('/data/sample', { method: 'POST' });
  const beirut = await app.api<{ id: number }>('/predict/bulk', {
    method: 'POST',
    json: { run_name: 'Beirut plan', target_year: 2025, target_semester: 'Spring', target_campus: 'Beirut' },
  });
  await app.api('/scheduler/auto', { method: 'POST', json: { run_id: beirut.id, dry_run: false } });
}

test("reviews a run's draft on the crowded sample term: draft blocks as readable as the timetable, rows filtered, three left out by mouse and keyboard, exactly the others stored; a stale draft refused in words", async ({
  page,
  app,
}) => {
  test.setTimeout(120_000);
  // The term is crowded first: Beirut's plan stored, then Byblos's drafted over it.
  await storeBeirutPlan(app);
  await app.api('/predict/bulk', { method: 'POST', json: { run_name: 'Byblos plan', target_year: 2025, target_semester: 'Spring', target_campus: 'Byblos' } });
  const before = await app.api<Stored[]>('/scheduler/');
  expect(before.length).toBeGreaterThan(40);
  await page.setViewportSize({ width: 1366, height: 768 });
  await signIn(page, app);
  await goTo(page, 'scheduler');
  await expect(page.locator('[data-entry-id]').first()).toBeVisible();

  await page.getByTestId('autofill-open').click();
  await expect(page.getByTestId('autofill-run')).toHaveValue(/Byblos plan — Byblos Spring 2025/);
  await page.getByTestId('autofill-preview').click();
  const summary = page.getByTestId('autofill-summary');
  await expect(summary).toContainText(/Draft: places \d+ of \d+ sections/);
  await expect(summary).toContainText('No new clashes');
  const rows = page.getByTestId('autofill-review').getByRole('checkbox');
  const total = await rows.count();
  expect(total).toBeGreaterThan(10);
  // Draft blocks follow the stored blocks' rules: named drafts, no course code cut at 1366 px.
  const drafts = page.locator('.fc-event.tw-preview');
  await expect(drafts.first()).toBeVisible();
  expect(await drafts.first().getAttribute('aria-label')).toMatch(/^Draft, not stored: /);
  const codes = await cutCodes(page);
  expect(codes.blocks).toBeGreaterThan(20);
  expect(codes.cut).toEqual([]);
  await screenshot(page, 'scheduler-autofill-preview');

  // The draft alone, then both again.
  await page.getByTestId('autofill-shown').getByText('Draft alone').click();
  await expect(page.locator('[data-entry-id]')).toHaveCount(0);
  await expect(drafts.first()).toBeVisible();
  await page.getByTestId('autofill-shown').getByText('Draft and timetable').click();
  await expect(page.locator('[data-entry-id]').first()).toBeVisible();

  // Rows filtered by course.
  const firstLabel = (await rows.first().locator('xpath=ancestor::label').textContent()) ?? '';
  const code = /^([A-Z]+\d+\w*) §/.exec(firstLabel)?.[1] ?? '';
  await page.getByTestId('autofill-filter').fill(code);
  await expect.poll(() => rows.count()).toBeLessThan(total);
  for (const text of await page.getByTestId('autofill-review').locator('.tw-review-row').allTextContents()) expect(text).toContain(code);
  await page.getByTestId('autofill-filter').fill('');
  await expect(rows).toHaveCount(total);

  // Three rows left out: the section of a drawn draft block by keyboard (focus, Space), which the week then dims, and two by mouse.
  const drawn = page.getByTestId('draft-event').first();
  const drawnKey = (await drawn.getAttribute('data-key')) ?? '';
  const leftOut: string[] = [];
  const keyed = page.getByTestId(`autofill-row-${drawnKey}`);
  leftOut.push(/^(\S+ §\S+)/.exec((await keyed.locator('xpath=ancestor::label').textContent()) ?? '')?.[1] ?? '');
  await keyed.focus();
  await page.keyboard.press('Space');
  await expect(keyed).not.toBeChecked();
  await expect(page.locator(`[data-testid="draft-event"][data-key="${drawnKey}"]`).first()).toHaveAttribute('data-kept', 'false');
  expect(
    await page
      .locator(`[data-testid="draft-event"][data-key="${drawnKey}"]`)
      .first()
      .evaluate((el) => el.closest('.fc-event')?.getAttribute('aria-label') ?? ''),
  ).toMatch(/^Draft, left out: /);
  for (const row of await page.getByTestId('autofill-review').locator('.tw-review-row').all()) {
    if (leftOut.length === 3) break;
    const box = row.getByRole('checkbox');
    if (!(await box.isChecked())) continue;
    leftOut.push(/^(\S+ §\S+)/.exec((await row.textContent()) ?? '')?.[1] ?? '');
    await box.click();
    await expect(box).not.toBeChecked();
  }
  await expect(page.getByTestId('autofill-apply')).toHaveText(`Apply ${total - 3} of ${total}`);
  await page.getByTestId('autofill-apply').focus();
  await page.keyboard.press('Enter');
  await expect(summary).toHaveCount(0);
  const after = await app.api<Stored[]>('/scheduler/');
  const added = after.filter((e) => !before.some((b) => b.id === e.id)).map(sectionOf);
  expect(added).toHaveLength(total - 3);
  for (const section of leftOut) expect(added).not.toContain(section);

  // A draft made before another write is refused whole, in words, and nothing is stored.
  await page.getByTestId('autofill-open').click();
  await page.getByTestId('autofill-preview').click();
  await expect(summary).toBeVisible();
  await app.api('/scheduler/', {
    method: 'POST',
    json: { course_code: 'MTH101', section_name: '99', doctor_id: 0, day: 'S', start_time: '08:00', duration_mins: 60, room: 'Annex 9' },
  });
  await page.getByTestId('autofill-apply').click();
  await expect(page.getByText(/The timetable has changed since this draft was made/)).toBeVisible();
  expect(await app.api<Stored[]>('/scheduler/')).toHaveLength(after.length + 1);
});

test('reviews a rebuilt term: every moved meeting says where it was, by the same review', async ({ page, app }) => {
  test.setTimeout(120_000);
  await storeBeirutPlan(app);
  const before = await app.api<(Stored & { day: string; start_time: string; room: string })[]>('/scheduler/');
  await page.setViewportSize({ width: 1366, height: 768 });
  await signIn(page, app);
  await goTo(page, 'scheduler');
  await expect(page.locator('[data-entry-id]').first()).toBeVisible();
  await page.getByTestId('autofill-open').click();
  await page.getByTestId('autofill-source').click();
  await page.getByRole('option', { name: /rebuild from nothing/ }).click();
  await page.getByTestId('autofill-preview').click();
  const summary = page.getByTestId('autofill-summary');
  await expect(summary).toContainText(/Draft: moves \d+ meetings/, { timeout: 60_000 });
  const lines = await page.getByTestId('autofill-review').locator('.tw-review-row').allTextContents();
  expect(lines.length).toBeGreaterThan(10);
  // Each row is a moved meeting: where it goes, then where it was, as stored now.
  for (const line of lines) {
    const m = /^(\S+) §(\S+) .*, was (\S+) (\d\d:\d\d) \(\d+ min\) in (.+)$/.exec(line);
    expect(m, line).not.toBeNull();
    const [, code, section, day, start, room] = m ?? [];
    expect(
      before.some((e) => e.course_code === code && e.section_name === section && e.day === day && e.start_time === start && e.room === room),
      line,
    ).toBe(true);
  }
  await screenshot(page, 'scheduler-rebuild-review');
});
