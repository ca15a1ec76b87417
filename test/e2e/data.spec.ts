import { join } from 'node:path';
import { test, expect, goTo, screenshot, SAMPLE, signIn } from './fixtures';

test('imports the sample files through the Data screen and the dashboard follows', async ({ page, app }) => {
  await signIn(page, app);
  await expect(page.getByTestId('empty-state')).toBeVisible();
  await screenshot(page, 'dashboard-empty');

  await goTo(page, 'data');
  const courses = page.getByTestId('import-courses');
  await courses.locator('input[type=file]').setInputFiles(join(SAMPLE, 'courses.json'));
  await expect(page.getByTestId('preview-courses')).toContainText('117 rows');
  await page.getByTestId('import-courses-button').click();
  await expect(page.getByTestId('import-courses-result')).toContainText('117 processed, 0 skipped');

  const offerings = page.getByTestId('import-offerings');
  await offerings.locator('input[type=file]').setInputFiles(join(SAMPLE, 'offerings.csv'));
  await expect(page.getByTestId('preview-offerings')).toContainText('course_code → course_code');
  await page.getByTestId('import-offerings-button').click();
  await expect(page.getByTestId('import-offerings-result')).toContainText('1978 processed, 0 skipped');

  // The report-style workbook: header found below the titles, totals skipped, same records (upserted).
  await offerings.locator('input[type=file]').setInputFiles(join(SAMPLE, 'offerings.xlsx'));
  await expect(page.getByTestId('preview-offerings')).toContainText('Academic Year → year');
  await expect(page.getByTestId('preview-offerings')).toContainText('Catalog Number → number');
  await screenshot(page, 'data-preview-xlsx');
  await page.getByTestId('import-offerings-button').click();
  await expect(page.getByTestId('import-offerings-result')).toContainText('1978 processed, 0 skipped');

  const doctors = page.getByTestId('import-doctors');
  await doctors.locator('input[type=file]').setInputFiles(join(SAMPLE, 'doctors.csv'));
  await page.getByTestId('import-doctors-button').click();
  await expect(page.getByTestId('import-doctors-result')).toContainText('30 processed');

  await expect(page.getByTestId('grid-courses-count')).toHaveText('117 of 117 rows');
  await page.getByRole('searchbox', { name: 'Search Courses' }).or(page.getByLabel('Search Courses')).fill('Algorithms');
  await expect(page.getByTestId('grid-courses')).toContainText('CSC310');
  await page.getByRole('tab', { name: /Offerings/ }).click();
  await expect(page.getByTestId('grid-offerings-count')).toHaveText('1,978 of 1,978 rows');
  await screenshot(page, 'data');

  await goTo(page, 'dashboard');
  await expect(page.getByTestId('kpi-courses')).toHaveText('117');
  await expect(page.getByTestId('kpi-offerings')).toHaveText('1,978');
  await expect(page.getByTestId('kpi-fail-ratio')).toHaveText(/\d+\.\d%/);
  await screenshot(page, 'dashboard');

  // A file the preview finds incomplete cannot be imported; one that reads but is refused shows the server's words and changes nothing.
  await goTo(page, 'data');
  await page
    .getByTestId('import-offerings')
    .locator('input[type=file]')
    .setInputFiles({ name: 'bad.csv', mimeType: 'text/csv', buffer: Buffer.from('campus,enrolled\nBeirut,3\n') });
  await expect(page.getByTestId('preview-offerings')).toContainText('Missing required column: year, course code');
  await expect(page.getByTestId('import-offerings-button')).toBeDisabled();
  await page
    .getByTestId('import-offerings')
    .locator('input[type=file]')
    .setInputFiles({ name: 'bad.xlsx', mimeType: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet', buffer: Buffer.from('not a workbook') });
  await page.getByTestId('import-offerings-button').click();
  await expect(page.getByTestId('import-offerings-error')).toContainText('not a readable Excel workbook');

  await page.reload();
  await goTo(page, 'dashboard');
  await expect(page.getByTestId('kpi-offerings')).toHaveText('1,978');
});
