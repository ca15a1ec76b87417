import { test, expect, goTo, screenshot, signIn } from './fixtures';

test('auto-fills a draft timetable from a run: preview with reasons, then apply', async ({ page, app }) => {
  await app.api('/data/sample', { method: 'POST' });
  const run = await app.api<{ id: number }>('/predict/bulk', { method: 'POST', json: { run_name: 'Spring plan', target_year: 2025, target_semester: 'Spring', target_campus: 'Byblos' } });
  await signIn(page, app);
  await goTo(page, 'scheduler');
  await expect(page.getByTestId('rooms-panel')).toContainText('Frem 101');

  await page.getByTestId('autofill-open').click();
  await expect(page.getByTestId('autofill-run')).toHaveValue(/Spring plan — Byblos Spring 2025/);
  await page.getByTestId('autofill-preview').click();
  const summary = page.getByTestId('autofill-summary');
  await expect(summary).toContainText(/Draft: placed \d+ of \d+ sections/);
  await expect(summary).toContainText('No clashes');
  const placed = Number(/Draft: placed (\d+) of/.exec((await summary.textContent()) ?? '')?.[1]);
  expect(placed).toBeGreaterThan(20);
  await expect(page.locator('.fc-event.tw-preview').first()).toBeVisible();
  expect(await app.api<unknown[]>('/scheduler/')).toEqual([]);
  await screenshot(page, 'scheduler-autofill-preview');

  await page.getByTestId('autofill-apply').click();
  await expect(summary).toHaveCount(0);
  const stored = await app.api<{ id: number }[]>('/scheduler/');
  expect(stored).toHaveLength(placed);
  await expect(page.getByTestId(`event-${stored[0]?.id ?? 0}`).first()).toBeAttached();
  await expect(page.locator('.fc-event.tw-preview')).toHaveCount(0);
  expect(run.id).toBeGreaterThan(0);
  await screenshot(page, 'scheduler-autofill-applied');
});
