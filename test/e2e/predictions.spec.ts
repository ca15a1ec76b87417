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
  await expect(page.getByTestId('train-result').getByText(/^Beirut model/)).toHaveAttribute(
    'title',
    /^ROC-AUC 0\.\d{3} · F1 0\.\d{3} · learned from [\d,]+ course-terms$/,
  );
  // The training's result outlives a visit to another screen.
  await goTo(page, 'dashboard');
  await goTo(page, 'predictions');
  await expect(page.getByTestId('train-result')).toContainText(/Beirut model: ranked past terms right/);

  await page.getByTestId('run').click();
  const results = page.getByTestId('run-results');
  await expect(results).toContainText(/Beirut Spring 2025: \d+ of 117 courses in the plan/);
  // Each expected enrollment comes with its 80 % range, explained on hover.
  const range = page.getByTestId('grid-run').getByTestId('enrollment-range').first();
  await expect(range).toHaveText(/^\d+ \(\d+–\d+\)$/);
  await expect(range).toHaveAttribute('title', /^Expected \d+ students; 8 times in 10 between \d+ and \d+$/);
  // Every reason of a course, readable without scrolling sideways: select its row.
  await page.getByTestId('grid-run').getByRole('row').nth(1).click();
  await expect(page.getByTestId('run-why')).toContainText(/^Why the model says (offer|skip) [A-Z]{3}\d{3}/);
  await expect(page.getByTestId('run-why').getByRole('listitem').first()).toHaveText(
    /Offered every Spring for the last \d+ years|students passed its prerequisites/,
  );
  const why = await page.getByTestId('run-why').boundingBox();
  expect((why?.x ?? 0) + (why?.width ?? 0)).toBeLessThanOrEqual(1280);
  await expect(page.getByTestId('decision').first()).toHaveText(/^(✓ Offer|– Skip)$/);
  await screenshot(page, 'predictions');

  // The quota panel offers the catalog's own categories, each with its usual number of courses.
  const categories = await app.api<{ categories: { key: string; label: string; count: number }[] }>('/predict/quota-categories?campus=Beirut');
  expect(categories.categories.map((c) => c.key)).toContain('csc_core');
  await expect(page.getByTestId('slot-csc_core').locator('input').or(page.getByTestId('slot-csc_core'))).toHaveValue(
    String(categories.categories.find((c) => c.key === 'csc_core')?.count),
  );
  await page.getByTestId('use-quotas').click();
  await page.getByTestId('run').click();
  await expect(page.getByTestId('run-history').locator('tbody tr')).toHaveCount(2);
  const quotaOffers = (await app.api<{ entries: { offer: boolean }[] }[]>('/predict/runs?campus=Beirut'))[0]?.entries.filter((e) => e.offer).length ?? -1;
  expect(quotaOffers).toBeGreaterThan(10);
  await expect(results).toContainText(`${quotaOffers} of 117 courses in the plan`);
  await page
    .getByTestId('grid-run')
    .locator('label')
    .filter({ hasText: /^Offer$/ })
    .click();
  await expect(page.getByTestId('grid-run-count')).toHaveText(`${quotaOffers} of ${quotaOffers} rows`);

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
  await expect(page.getByTestId('run-results')).toContainText(`${quotaOffers} of 117 courses in the plan`);
  await goTo(page, 'dashboard');
  await expect(page.getByTestId('kpi-recommended')).toHaveText(String(quotaOffers));
});

test("staff overrule the model on a course, see both decisions, and a script's decision shows without a reload", async ({ page, app }) => {
  await app.api('/data/sample', { method: 'POST' });
  const run = await app.api<{ id: number; entries: { course_code: string; offer: boolean; projected_sections: number }[] }>('/predict/bulk', {
    method: 'POST',
    json: { run_name: 'Plan', target_year: 2025, target_semester: 'Spring', target_campus: 'Beirut' },
  });
  const offered = run.entries.filter((e) => e.offer).length;
  const skipped = run.entries.find((e) => !e.offer);
  const kept = run.entries.find((e) => e.offer);
  if (!skipped || !kept) throw new Error('the run should offer some courses and skip others');
  await signIn(page, app);
  await goTo(page, 'predictions');
  const results = page.getByTestId('run-results');
  await expect(results).toContainText(`${offered} of 117 courses in the plan`);

  // "We offer it anyway, two sections": the model's skip stays visible beside it.
  // The grid draws the rows in view: find the course with its search box.
  await page.getByRole('textbox', { name: 'Search Recommendations' }).fill(skipped.course_code);
  await page.getByTestId('grid-run').getByRole('row').filter({ hasText: skipped.course_code }).first().click();
  const editor = page.getByTestId('decision-editor');
  await expect(editor).toContainText('the model says skip');
  await editor.getByText('Offer', { exact: true }).click();
  await editor.getByTestId('decision-sections').fill('2');
  await editor.getByTestId('decision-reason').fill('Accreditation visit');
  await screenshot(page, 'predictions-decision');
  await editor.getByTestId('decision-save').click();
  await expect(results).toContainText(`${offered + 1} of 117 courses in the plan (1 decided by you, ${offered} recommended by the model)`);
  const row = page.getByTestId('grid-run').getByRole('row').filter({ hasText: skipped.course_code }).first();
  await expect(row.getByTestId('decided-by-staff')).toBeVisible();
  await expect(row.getByTestId('decision')).toHaveAttribute('title', 'Your decision: Accreditation visit. The model said skip.');
  await expect(page.getByTestId('run-why')).toContainText(/Decided /);

  // A script skips another course: the screen follows without a reload.
  await app.api(`/predict/runs/${run.id}/entries/${encodeURIComponent(kept.course_code)}`, {
    method: 'PATCH',
    json: { decision: 'skip', reason: 'Instructor on leave' },
  });
  await expect(results).toContainText(`${offered} of 117 courses in the plan (2 decided by you, ${offered} recommended by the model)`);
  await page.getByRole('textbox', { name: 'Search Recommendations' }).fill(kept.course_code);
  await page
    .getByTestId('grid-run')
    .locator('label')
    .filter({ hasText: /^Skip$/ })
    .click();
  await expect(page.getByTestId('grid-run').getByRole('row').filter({ hasText: kept.course_code })).toHaveCount(1);
});
