import type { Page } from '@playwright/test';
import { test, expect, goTo, signInWithPassword } from './fixtures';

/**
 * Every screen offers each role what the server lets it do, and nothing it would refuse: a viewer
 * reads every screen and finds no enabled control that writes; a scheduler finds none of the
 * registrar's own actions (loading the sample data, the data folder, departments and people).
 */

/** Buttons whose press writes (or opens a form that does): none may be enabled for a viewer. */
const WRITES =
  /^(New section|Auto-fill…|Copy from term…|Parts of term…|Import timetable…|Add doctor|Upload rooms…|Add|Remove.*|Add note|Train models|Run|Save.*|Delete|Load sample data|It is complete|Undo.*|Import.*|Set password|Use the catalog.*|Edit.*|Rename.*)$/;

/** The enabled, visible buttons of the screen shown, by their accessible names. */
async function enabledButtons(page: Page): Promise<string[]> {
  return page.evaluate(() =>
    [...document.querySelectorAll<HTMLElement>('button, [role="button"], input[type="file"]')]
      .filter((b) => b.offsetParent !== null && !(b as HTMLButtonElement).disabled && !b.closest('fieldset:disabled'))
      .map((b) => (b.getAttribute('aria-label') ?? b.textContent ?? '').trim()),
  );
}

async function writesOffered(page: Page): Promise<string[]> {
  return (await enabledButtons(page)).filter((name) => WRITES.test(name));
}

test('a viewer reads every screen and is offered no write; a scheduler is offered none of the registrar’s actions', async ({ app, browser }) => {
  await app.api('/data/sample', { method: 'POST' });
  await app.api('/scheduler/', {
    method: 'POST',
    json: { course_code: 'CSC201', section_name: '1', doctor_id: 0, day: 'MW', start_time: '10:00', duration_mins: 75, room: 'TBD' },
  });
  await app.api('/people', { method: 'POST', json: { login: 'vera', name: 'Vera Viewer', role: 'viewer', department_id: 1, password: 'viewer password 12' } });
  await app.api('/people', {
    method: 'POST',
    json: { login: 'sami', name: 'Sami Scheduler', role: 'scheduler', department_id: 1, password: 'scheduler password 1' },
  });
  const empty = await app.api<{ id: number }>('/departments', { method: 'POST', json: { code: 'NEW', name: 'A New Department' } });
  await app.api('/people', {
    method: 'POST',
    json: { login: 'nora', name: 'Nora Newcomer', role: 'scheduler', department_id: empty.id, password: 'scheduler password 2' },
  });

  const viewer = await signInWithPassword(browser, app, 'vera', 'viewer password 12');
  await expect(viewer.getByTestId('signed-in-as')).toContainText('Vera Viewer');
  // What each screen reads is on it before its controls are counted.
  const shown = {
    dashboard: 'kpi-courses',
    data: 'grid-courses',
    predictions: 'term-notes',
    scheduler: 'rooms-panel',
    settings: 'timetable-settings',
  } as const;
  for (const [screen, marker] of Object.entries(shown) as [keyof typeof shown, string][]) {
    await goTo(viewer, screen);
    await expect(viewer.getByTestId(marker)).toBeVisible();
    expect(await writesOffered(viewer), `the viewer's ${screen} screen`).toEqual([]);
  }
  // A meeting opens read-only: every field disabled, nothing to save or delete.
  await goTo(viewer, 'scheduler');
  await viewer.getByTestId('view-switch').getByText('By room').click();
  await viewer.getByTestId('resource-meeting').first().click();
  await expect(viewer.getByTestId('entry-form')).toBeVisible();
  await expect(viewer.getByTestId('entry-save')).toHaveCount(0);
  await expect(viewer.getByTestId('entry-delete')).toHaveCount(0);
  await expect(viewer.getByTestId('entry-section')).toBeDisabled();
  expect(await writesOffered(viewer)).toEqual([]);
  await viewer.getByRole('button', { name: 'Close', exact: true }).click();
  await expect(viewer.getByTestId('entry-form')).toHaveCount(0);

  // A scheduler writes in their department, but is offered no registrar action.
  const scheduler = await signInWithPassword(browser, app, 'sami', 'scheduler password 1');
  // The scheduler walks every screen too: each shows what it reads, with its writes offered.
  for (const [screen, marker] of Object.entries(shown) as [keyof typeof shown, string][]) {
    await goTo(scheduler, screen);
    await expect(scheduler.getByTestId(marker)).toBeVisible();
  }
  await goTo(scheduler, 'predictions');
  await expect(scheduler.getByTestId('term-note-add')).toBeEnabled();
  await goTo(scheduler, 'scheduler');
  await expect(scheduler.getByTestId('new-section')).toBeEnabled();
  // The sample's rooms are the campus pool's: the registrar's to change or remove.
  await expect(scheduler.getByTestId('rooms-panel').getByRole('row').first()).toBeVisible();
  await expect(scheduler.getByTestId('rooms-panel').getByRole('button', { name: /^(Edit|Remove) / })).toHaveCount(0);
  await goTo(scheduler, 'settings');
  await expect(scheduler.getByTestId('timetable-settings')).toBeVisible();
  for (const registrarOnly of ['Load sample data', 'Back up database', 'Restore from backup…'])
    await expect(scheduler.getByRole('button', { name: registrarOnly })).toHaveCount(0);
  await expect(scheduler.getByTestId('department-add')).toHaveCount(0);
  await expect(scheduler.getByTestId('person-add')).toHaveCount(0);

  // A scheduler of a department with no data yet is sent to import, not to the registrar's sample.
  const newcomer = await signInWithPassword(browser, app, 'nora', 'scheduler password 2');
  await expect(newcomer.getByTestId('empty-state')).toBeVisible();
  await expect(newcomer.getByTestId('load-sample')).toHaveCount(0);
  await expect(newcomer.getByRole('link', { name: 'Go to import' })).toBeVisible();

  // Disabled by the registrar, the viewer's open page is told exactly that at once, without an action of theirs.
  const vera = (await app.api<{ id: number; login: string }[]>('/people')).find((p) => p.login === 'vera');
  await app.api(`/people/${vera?.id ?? 0}`, { method: 'PATCH', json: { disabled: true } });
  await expect(viewer.getByTestId('signed-out')).toContainText('the registrar has disabled it', { timeout: 5_000 });
});

test('a 100-character department and person name fit the header at 1366 px, and a notification leaves the header in view', async ({ app, browser }) => {
  const long = (what: string): string => `${what} ${'of Very Long Names '.repeat(6)}`.slice(0, 99).trimEnd().padEnd(100, 'x');
  const department = await app.api<{ id: number }>('/departments', { method: 'POST', json: { code: 'LONG', name: long('Department') } });
  await app.api('/people', {
    method: 'POST',
    json: { login: 'longname', name: long('Person'), role: 'scheduler', department_id: department.id, password: 'scheduler password 3' },
  });
  const page = await signInWithPassword(browser, app, 'longname', 'scheduler password 3');
  await page.setViewportSize({ width: 1366, height: 768 });
  const header = page.locator('header');
  const headerBox = await header.boundingBox();
  for (const part of ['department-name', 'signed-in-as', 'sign-out']) {
    const box = await page.getByTestId(part).boundingBox();
    expect(box, part).not.toBeNull();
    // Inside the header's band, not pushed below it over the menu.
    expect((box?.y ?? 0) + (box?.height ?? 0), part).toBeLessThanOrEqual((headerBox?.y ?? 0) + (headerBox?.height ?? 0) + 1);
  }
  await expect(page.getByTestId('department-name')).toHaveAttribute('title', long('Department'));

  // A notification (settings saved): the header's Sign out stays uncovered.
  await goTo(page, 'settings');
  await page.getByTestId('timetable-settings-save').click();
  await expect(page.locator('.mantine-Notification-root').first()).toBeVisible();
  const signOut = await page.getByTestId('sign-out').boundingBox();
  const toast = await page.locator('.mantine-Notification-root').first().boundingBox();
  const overlaps =
    signOut !== null &&
    toast !== null &&
    signOut.x < toast.x + toast.width &&
    toast.x < signOut.x + signOut.width &&
    signOut.y < toast.y + toast.height &&
    toast.y < signOut.y + signOut.height;
  expect(overlaps).toBe(false);
});

/** Five wrong passwords for a login, as a guesser sends them: the account locks. */
async function lockOut(url: string, login: string): Promise<void> {
  for (let i = 0; i < 5; i++) {
    const refused = await fetch(new URL('session/token', url), {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ login, password: `wrong guess ${i} here`, label: 'guess' }),
    });
    expect(refused.status).toBe(401);
  }
}

/** Whether a login and password get a personal token now. */
async function signsIn(url: string, login: string, password: string): Promise<boolean> {
  const answer = await fetch(new URL('session/token', url), {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ login, password, label: 'check' }),
  });
  return answer.status === 200;
}

for (const lift of ['Unlock', 'a new password'] as const) {
  test(`a lockout appears at once in an open People list, and ${lift} lets the person sign in again`, async ({ app, browser }) => {
    await app.api('/people', { method: 'POST', json: { login: 'rana', name: 'Rana Registrar', role: 'registrar', password: 'registrar password 1' } });
    await app.api('/people', {
      method: 'POST',
      json: { login: 'lou', name: 'Lou Locked', role: 'scheduler', department_id: 1, password: 'scheduler password 9' },
    });
    const registrar = await signInWithPassword(browser, app, 'rana', 'registrar password 1');
    await goTo(registrar, 'settings');
    await expect(registrar.getByTestId('person-lou')).toBeVisible();
    const unlock = registrar.getByTestId('unlock-lou');
    await expect(unlock).toHaveCount(0);
    // People stays open, not reloaded: the lock is announced as a change to people.
    await lockOut(app.url, 'lou');
    expect(await signsIn(app.url, 'lou', 'scheduler password 9')).toBe(false);
    await expect(registrar.getByTestId('locked-lou')).toHaveText(/^Locked until \d\d:\d\d$/);
    await expect(unlock).toHaveText('Unlock');
    if (lift === 'Unlock') {
      await unlock.click();
      await expect(unlock).toHaveCount(0);
      expect(await signsIn(app.url, 'lou', 'scheduler password 9')).toBe(true);
    } else {
      await registrar.getByRole('button', { name: 'New password for lou' }).click();
      await registrar.getByRole('dialog').getByLabel('New password').fill('a brand new password');
      await registrar.getByRole('button', { name: 'Set password' }).click();
      await expect(unlock).toHaveCount(0);
      expect(await signsIn(app.url, 'lou', 'a brand new password')).toBe(true);
    }
  });
}

test("a new password signs the person's open browser out at once, saying why, and revokes their tokens (People → Tokens shows it)", async ({
  app,
  browser,
}) => {
  await app.api('/people', { method: 'POST', json: { login: 'rhea', name: 'Rhea Registrar', role: 'registrar', password: 'registrar password 2' } });
  await app.api('/people', { method: 'POST', json: { login: 'lea', name: 'Lea Leaked', role: 'scheduler', department_id: 1, password: 'leaked password 12' } });
  const leaked = await fetch(new URL('session/token', app.url), {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ login: 'lea', password: 'leaked password 12', label: 'nightly export' }),
  });
  const { token } = (await leaked.json()) as { token: string };
  const person = await signInWithPassword(browser, app, 'lea', 'leaked password 12');
  const registrar = await signInWithPassword(browser, app, 'rhea', 'registrar password 2');
  await goTo(registrar, 'settings');
  await registrar.getByRole('button', { name: 'New password for lea' }).click();
  await registrar.getByRole('dialog').getByLabel('New password').fill('a fresh password 34');
  await registrar.getByRole('button', { name: 'Set password' }).click();
  // Lea's page is not touched: its event stream tells it.
  await expect(person.getByTestId('signed-out')).toContainText('The registrar set a new password for your account', { timeout: 5_000 });
  const withToken = await fetch(new URL('me', app.url), { headers: { authorization: `Bearer ${token}` } });
  expect(withToken.status).toBe(401);
  await registrar.getByTestId('tokens-lea').click();
  await expect(registrar.getByTestId('person-token-nightly export')).toContainText(/revoked \d\d:\d\d .* by Rhea Registrar, with a new password/);
  await person.getByTestId('signin-login').fill('lea');
  await person.getByTestId('signin-password').fill('a fresh password 34');
  await person.getByTestId('signin-submit').click();
  await expect(person.getByTestId('nav-dashboard')).toBeVisible();
});
