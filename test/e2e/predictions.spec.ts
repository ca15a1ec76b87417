import { test, expect, goTo, screenshot, signIn } from './fixtures';

test('trains, runs a prediction with reasons, applies quotas, and keeps the history', async ({ page, app }) => {
  await app.api('/data/sample', { method: 'POST' });
  await signIn(page, app);
  await goTo(page, 'predictions');
  await expect(page.getByTestId('target-year').locator('input').or(page.getByTestId('target-year'))).toHaveValue('2025');
  await expect(page.getByTestId('target-semester').getByRole('radio', { name: 'Spring' })).toBeChecked();

  await page.getByTestId('train').click();
  await expect(page.getByTestId('train-result')).toContainText(/Beirut: ROC-AUC 0\.\d{3}/);
  await expect(page.getByTestId('train-result')).toContainText(/Byblos: ROC-AUC 0\.\d{3}/);

  await page.getByTestId('run').click();
  const results = page.getByTestId('run-results');
  await expect(results).toContainText(/Beirut Spring 2025: \d+ of 117 courses recommended/);
  await expect(page.getByTestId('grid-run')).toContainText(/Offered every Spring for the last 4 years|students passed its prerequisites/);
  // Each expected enrollment comes with its 80 % range, explained on hover.
  const range = page.getByTestId('grid-run').getByTestId('enrollment-range').first();
  await expect(range).toHaveText(/^\d+ \(\d+–\d+\)$/);
  await expect(range).toHaveAttribute('title', /^Expected \d+ students; 8 times in 10 between \d+ and \d+$/);
  await screenshot(page, 'predictions');

  await page.getByTestId('use-quotas').click();
  await page.getByTestId('run').click();
  await expect(results).toContainText('34 of 117 courses recommended');
  await page.getByTestId('run-results').locator('label').filter({ hasText: /^Offer$/ }).click();
  await expect(page.getByTestId('grid-run-count')).toHaveText('34 of 34 rows');
  await expect(page.getByTestId('run-history').getByRole('row')).toHaveCount(2);

  const runs = await app.api<{ id: number }[]>('/predict/runs?campus=Beirut');
  expect(runs).toHaveLength(2);
  await page.reload();
  await goTo(page, 'predictions');
  await expect(page.getByTestId('run-history').getByRole('row')).toHaveCount(2);
  await goTo(page, 'dashboard');
  await expect(page.getByTestId('kpi-recommended')).toHaveText('34');
});
