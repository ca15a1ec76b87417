import { test, expect, goTo, screenshot, signIn } from './fixtures';

test('trains, runs a prediction with reasons, applies quotas, and keeps the history', async ({ page, app }) => {
  await app.api('/data/sample', { method: 'POST' });
  await signIn(page, app);
  await goTo(page, 'predictions');
  await expect(page.getByTestId('target-year').locator('input').or(page.getByTestId('target-year'))).toHaveValue('2025');
  await expect(page.getByTestId('target-semester').getByRole('radio', { name: 'Spring' })).toBeChecked();

  await page.getByTestId('train').click();
  // Plain words, with the exact metric one hover away.
  await expect(page.getByTestId('train-result')).toContainText(/Beirut model: ranked past terms right \d+ of 100 times/);
  await expect(page.getByTestId('train-result')).toContainText(/Byblos model: ranked past terms right \d+ of 100 times/);
  await expect(page.getByTestId('train-result').getByText(/^Beirut model/)).toHaveAttribute('title', /^ROC-AUC 0\.\d{3} · F1 0\.\d{3} · learned from [\d,]+ course-terms$/);

  await page.getByTestId('run').click();
  const results = page.getByTestId('run-results');
  await expect(results).toContainText(/Beirut Spring 2025: \d+ of 117 courses recommended/);
  // Each expected enrollment comes with its 80 % range, explained on hover.
  const range = page.getByTestId('grid-run').getByTestId('enrollment-range').first();
  await expect(range).toHaveText(/^\d+ \(\d+–\d+\)$/);
  await expect(range).toHaveAttribute('title', /^Expected \d+ students; 8 times in 10 between \d+ and \d+$/);
  // Every reason of a course, readable without scrolling sideways: select its row.
  await page.getByTestId('grid-run').getByRole('row').nth(1).click();
  await expect(page.getByTestId('run-why')).toContainText(/^Why (offer|skip) [A-Z]{3}\d{3}/);
  await expect(page.getByTestId('run-why').getByRole('listitem').first()).toHaveText(/Offered every Spring for the last \d+ years|students passed its prerequisites/);
  const why = await page.getByTestId('run-why').boundingBox();
  expect((why?.x ?? 0) + (why?.width ?? 0)).toBeLessThanOrEqual(1280);
  await expect(page.getByTestId('decision').first()).toHaveText(/^(✓ Offer|– Skip)$/);
  await screenshot(page, 'predictions');

  await page.getByTestId('use-quotas').click();
  await page.getByTestId('run').click();
  await expect(results).toContainText('34 of 117 courses recommended');
  await page.getByTestId('run-results').locator('label').filter({ hasText: /^Offer$/ }).click();
  await expect(page.getByTestId('grid-run-count')).toHaveText('34 of 34 rows');
  await expect(page.getByTestId('run-history').locator('tbody tr')).toHaveCount(2);

  // What changed between the model's own list and the quota list.
  await page.getByTestId('compare-with').click();
  await page.getByRole('option').first().click();
  await expect(page.getByTestId('comparison')).toBeVisible();
  const changes = await app.api<{ entries: { course_code: string; offer: boolean }[] }[]>('/predict/runs?campus=Beirut');
  const [quotaRun, modelRun] = changes;
  const modelOffers = new Set(modelRun?.entries.filter((e) => e.offer).map((e) => e.course_code));
  const added = quotaRun?.entries.filter((e) => e.offer && !modelOffers.has(e.course_code)).length ?? -1;
  await expect(page.getByTestId('compare-added')).toContainText(`Added to the offer (${added})`);

  const runs = await app.api<{ id: number }[]>('/predict/runs?campus=Beirut');
  expect(runs).toHaveLength(2);
  await page.reload();
  await goTo(page, 'predictions');
  await expect(page.getByTestId('run-history').locator('tbody tr')).toHaveCount(2);
  // Coming back shows the latest run, not an empty screen.
  await expect(page.getByTestId('run-results')).toContainText('34 of 117 courses recommended');
  await goTo(page, 'dashboard');
  await expect(page.getByTestId('kpi-recommended')).toHaveText('34');
});
