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

/** The prepared department (see above), signed in at 1366×768 in light mode. */
async function prepare(page: Page, app: RunningApp): Promise<void> {
  await page.emulateMedia({ colorScheme: 'light' });
  await page.setViewportSize({ width: 1366, height: 768 });
  await signIn(page, app);
}

/** The panels below the Scheduler's view, drawn once the view is on screen: checked with the rest of the screen. */
async function panelsDrawn(page: Page): Promise<void> {
  for (const panel of ['history-panel', 'rooms-panel']) await expect(page.getByTestId(panel)).toBeVisible();
}

/**
 * The rules whose findings depend on the colours: the page in dark mode is the light page's DOM in other colours (the app
 * follows the system's scheme as it changes), so every other rule would find in dark what it found in light.
 */
const COLOUR_RULES = ['color-contrast', 'link-in-text-block'] as const;

/** Waits until the page shows `scheme` (checked at each frame: an assertion's polling waited 100–300 ms a switch). */
const schemeShown = async (page: Page, scheme: 'light' | 'dark'): Promise<void> => {
  await page.waitForFunction((wanted) => document.documentElement.getAttribute('data-mantine-color-scheme') === wanted, scheme, { timeout: 5_000 });
};

/**
 * What is on screen now (or in `within`), in light mode and then in dark, a screenshot of each unless `shot` is null
 * (`<shot>-light.png`, `<shot>-dark.png`): every rule in light, the colour rules in dark. Back in light mode after.
 */
async function problemsInBothSchemes(page: Page, label: string, shot: string | null, within?: string): Promise<string[]> {
  if (shot !== null) await screenshot(page, `${shot}-light`);
  const problems = (await seriousProblems(page, within)).map((p) => `${label}, light: ${p}`);
  await page.emulateMedia({ colorScheme: 'dark' });
  await schemeShown(page, 'dark');
  if (shot !== null) await screenshot(page, `${shot}-dark`);
  problems.push(...(await seriousProblems(page, within, COLOUR_RULES)).map((p) => `${label}, dark: ${p}`));
  await page.emulateMedia({ colorScheme: 'light' });
  await schemeShown(page, 'light');
  return problems;
}

// The walk is split in three so that one slow screen cannot push the whole walk past its limit.
test('every screen at 1366×768 in light and dark mode: no serious or critical accessibility problem, screenshots kept', async ({ page, app }) => {
  await prepare(page, app);
  // A laptop: the sign-in link's session is this computer's (a campus server names the registrar and its link).
  await expect(page.getByTestId('signed-in-as')).toHaveText('This computer');
  await expect(page.getByTestId('nav-campus')).toHaveCount(0);
  await schemeShown(page, 'light');
  const problems: string[] = [];
  for (const screen of SCREENS) {
    await goTo(page, screen);
    if (screen === 'scheduler') {
      await expect(page.locator('[data-entry-id]').first()).toBeVisible();
      await panelsDrawn(page);
    }
    if (screen === 'predictions') await expect(page.getByTestId('run-results')).toBeVisible();
    await page.waitForLoadState('networkidle');
    problems.push(...(await problemsInBothSchemes(page, screen, screen)));
  }
  expect(problems).toEqual([]);
});

test("the scheduler's resource views and dialogs at 1366×768 in light and dark mode: no serious or critical accessibility problem, screenshots kept", async ({
  page,
  app,
}) => {
  // axe reads every block of the week twice (By room, By instructor), and their colours again in dark mode.
  test.setTimeout(150_000);
  await prepare(page, app);
  const problems: string[] = [];
  for (const view of ['By room', 'By instructor'] as const) {
    await goTo(page, 'scheduler');
    await page.getByTestId('view-switch').getByText(view).click();
    await expect(page.getByTestId('resource-row').first()).toBeVisible();
    await panelsDrawn(page);
    problems.push(...(await problemsInBothSchemes(page, `scheduler ${view}`, `scheduler-${view.replace(' ', '-').toLowerCase()}`)));
  }
  // The scheduler's dialogs, each opened as staff open it (the screen behind was checked above).
  await goTo(page, 'scheduler');
  for (const [name, open] of Object.entries(DIALOGS)) {
    await page.getByRole('button', { name: open, exact: true }).click();
    await expect(page.getByRole('dialog')).toBeVisible();
    await page.waitForLoadState('networkidle');
    problems.push(...(await problemsInBothSchemes(page, `dialog ${name}`, `dialog-${name}`, '[role=dialog]')));
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
  problems.push(...(await problemsInBothSchemes(page, 'dialog room', null, '[role=dialog]')));
  await page.keyboard.press('Escape');
  await expect(page.getByRole('dialog')).toBeHidden();
  expect(problems).toEqual([]);
});

test('a draft under review at 1366×768 in light and dark mode: no serious or critical accessibility problem, screenshots kept', async ({ page, app }) => {
  await prepare(page, app);
  await goTo(page, 'scheduler');
  // Its list, filter, sort, checkboxes and Apply, and its blocks on the week.
  await page.getByRole('button', { name: 'Auto-fill…', exact: true }).click();
  await page.getByTestId('autofill-preview').click();
  await expect(page.getByTestId('autofill-review')).toBeVisible();
  await page.waitForLoadState('networkidle');
  const problems = await problemsInBothSchemes(page, 'draft review', 'scheduler-draft-review');
  await page.getByRole('button', { name: 'Discard' }).click();
  expect(problems).toEqual([]);
});
