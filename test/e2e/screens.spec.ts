import { rmSync } from 'node:fs';
import type { Page } from '@playwright/test';
import { test as base, expect, goTo, preparedDataFolder, screenshot, seriousProblems, signIn, type RunningApp } from './fixtures';

const SCREENS = ['dashboard', 'data', 'predictions', 'scheduler', 'settings'] as const;

/** The scheduler's dialogs by the button that opens them. */
const DIALOGS = {
  'new-section': 'New section',
  autofill: 'Auto-fill…',
  'copy-term': 'Copy from term…',
  'parts-of-term': 'Parts of term…',
  'import-timetable': 'Import timetable…',
  'add-doctor': 'Add doctor',
} as const;

/** A department with a trained model, a saved run and the timetable auto-filled from it. */
async function department(app: RunningApp): Promise<void> {
  await app.api('/data/sample', { method: 'POST' });
  await app.api('/predict/train', { method: 'POST' });
  const run = await app.api<{ id: number }>('/predict/bulk', {
    method: 'POST',
    json: { run_name: 'Spring plan', target_year: 2025, target_semester: 'Spring', target_campus: 'Beirut' },
  });
  await app.api('/scheduler/auto', { method: 'POST', json: { run_id: run.id, dry_run: false } });
}

// The department is prepared once for this file's tests; each starts its own server on a copy of it.
const test = base.extend<object, { department: string }>({
  department: [
    // eslint-disable-next-line no-empty-pattern -- Playwright reads a fixture's dependencies from this pattern: it has none
    async ({}, use) => {
      const folder = await preparedDataFolder(department);
      await use(folder);
      rmSync(folder, { recursive: true, force: true });
    },
    { scope: 'worker' },
  ],
  dataFolder: async ({ department }, use) => use(department),
});

/** The prepared department (see above), signed in at 1366×768. */
async function prepare(page: Page, app: RunningApp, scheme: 'light' | 'dark'): Promise<void> {
  await page.emulateMedia({ colorScheme: scheme });
  await page.setViewportSize({ width: 1366, height: 768 });
  await signIn(page, app);
}

/** The panels below the Scheduler's view, drawn once the view is on screen: checked with the rest of the screen. */
async function panelsDrawn(page: Page): Promise<void> {
  for (const panel of ['history-panel', 'rooms-panel']) await expect(page.getByTestId(panel)).toBeVisible();
}

// Each scheme's walk is split in three so that one slow screen cannot push the whole walk past its limit.
for (const scheme of ['light', 'dark'] as const) {
  test(`every screen at 1366×768 in ${scheme} mode: no serious or critical accessibility problem, screenshots kept`, async ({ page, app }) => {
    await prepare(page, app, scheme);
    // The one-time link says who it signed in.
    // A laptop: the sign-in link's session is this computer's (a campus server names the registrar and its link).
    await expect(page.getByTestId('signed-in-as')).toHaveText('This computer');
    await expect(page.getByTestId('nav-campus')).toHaveCount(0);
    const problems: string[] = [];
    for (const screen of SCREENS) {
      await goTo(page, screen);
      if (screen === 'scheduler') {
        await expect(page.locator('[data-entry-id]').first()).toBeVisible();
        await panelsDrawn(page);
      }
      if (screen === 'predictions') await expect(page.getByTestId('run-results')).toBeVisible();
      await page.waitForLoadState('networkidle');
      await screenshot(page, `${screen}-${scheme}`);
      problems.push(...(await seriousProblems(page)).map((p) => `${screen}: ${p}`));
    }
    expect(problems).toEqual([]);
  });

  test(`the scheduler's resource views and dialogs at 1366×768 in ${scheme} mode: no serious or critical accessibility problem, screenshots kept`, async ({
    page,
    app,
  }) => {
    // axe reads every block of the week twice (By room, By instructor): about a minute on this machine.
    test.setTimeout(150_000);
    await prepare(page, app, scheme);
    const problems: string[] = [];
    for (const view of ['By room', 'By instructor'] as const) {
      await goTo(page, 'scheduler');
      await page.getByTestId('view-switch').getByText(view).click();
      await expect(page.getByTestId('resource-row').first()).toBeVisible();
      await panelsDrawn(page);
      await screenshot(page, `scheduler-${view.replace(' ', '-').toLowerCase()}-${scheme}`);
      problems.push(...(await seriousProblems(page)).map((p) => `scheduler ${view}: ${p}`));
    }
    // The scheduler's dialogs, each opened as staff open it (the screen behind was checked above).
    await goTo(page, 'scheduler');
    for (const [name, open] of Object.entries(DIALOGS)) {
      await page.getByRole('button', { name: open, exact: true }).click();
      await expect(page.getByRole('dialog')).toBeVisible();
      await page.waitForLoadState('networkidle');
      await screenshot(page, `dialog-${name}-${scheme}`);
      problems.push(...(await seriousProblems(page, '[role=dialog]')).map((p) => `dialog ${name}: ${p}`));
      await page.keyboard.press('Escape');
      await expect(page.getByRole('dialog')).toBeHidden();
    }
    // A room's dialog (seats, campus), from the rooms list.
    await page
      .getByTestId('rooms-panel')
      .getByRole('button', { name: /^Edit / })
      .first()
      .click();
    await expect(page.getByRole('dialog')).toBeVisible();
    problems.push(...(await seriousProblems(page, '[role=dialog]')).map((p) => `dialog room: ${p}`));
    await page.keyboard.press('Escape');
    await expect(page.getByRole('dialog')).toBeHidden();
    expect(problems).toEqual([]);
  });

  test(`a draft under review at 1366×768 in ${scheme} mode: no serious or critical accessibility problem, screenshot kept`, async ({ page, app }) => {
    await prepare(page, app, scheme);
    await goTo(page, 'scheduler');
    // Its list, filter, sort, checkboxes and Apply, and its blocks on the week.
    await page.getByRole('button', { name: 'Auto-fill…', exact: true }).click();
    await page.getByTestId('autofill-preview').click();
    await expect(page.getByTestId('autofill-review')).toBeVisible();
    await page.waitForLoadState('networkidle');
    await screenshot(page, `scheduler-draft-review-${scheme}`);
    const problems = (await seriousProblems(page)).map((p) => `draft review: ${p}`);
    await page.getByRole('button', { name: 'Discard' }).click();
    expect(problems).toEqual([]);
  });
}
