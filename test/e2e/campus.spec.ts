import type { Page } from '@playwright/test';
import { test, expect, goTo, screenshot, seriousProblems, signInWithPassword, asRegistrarIn } from './fixtures';

/**
 * A campus on one server, in two browsers: the registrar adds a department and one of its
 * schedulers on the Settings screen; the scheduler signs in with a password in another browser and
 * books a shared room; the registrar's campus week shows the booking without a reload.
 */

/**
 * Picks an option of a select until the field shows it, as a person would pick again: a live update
 * (a department just added) can draw the open list again under the click, which then picks nothing.
 */
async function choose(page: Page, testId: string, option: RegExp): Promise<void> {
  const field = page.getByTestId(testId);
  await expect(async () => {
    if ((await field.getAttribute('aria-expanded')) !== 'true') await field.click();
    await page.getByRole('option', { name: option }).click({ timeout: 2_000 });
    await expect(field).toHaveValue(option, { timeout: 1_000 });
  }).toPass({ timeout: 15_000 });
}

test('a registrar adds a department and its scheduler, who books a shared room; the campus week shows it without a reload', async ({ app, browser }) => {
  // Two people in two browsers through most screens: longer than one screen's test.
  test.setTimeout(180_000);
  await app.api('/data/sample', { method: 'POST' });
  // The first registrar account is made with the server's own token (docs/campus-server.md: the first registrar).
  await app.api('/people', { method: 'POST', json: { login: 'rana', name: 'Rana Registrar', role: 'registrar', password: 'registrar password 1' } });

  const registrar = await signInWithPassword(browser, app, 'rana', 'registrar password 1');
  await expect(registrar.getByTestId('signed-in-as')).toContainText('Rana Registrar');
  // A wrong password is refused in words and signs nobody in.
  const stranger = await (await browser.newContext()).newPage();
  await stranger.goto(app.url);
  await stranger.getByTestId('signin-login').fill('rana');
  await stranger.getByTestId('signin-password').fill('not the password');
  await stranger.getByTestId('signin-submit').click();
  await expect(stranger.getByTestId('signin-error')).toHaveText(/^Wrong login or password\. After 5 failed sign-ins/);
  await expect(stranger.getByTestId('nav-dashboard')).toHaveCount(0);

  await goTo(registrar, 'settings');
  await registrar.getByTestId('department-code').fill('ECE');
  await registrar.getByTestId('department-new-name').fill('Electrical Engineering');
  await registrar.getByTestId('department-add').click();
  await expect(registrar.getByTestId('department-ECE')).toContainText('Electrical Engineering');
  // The built-in department is renamed on screen.
  await registrar.getByTestId('department-rename-main').click();
  expect(await seriousProblems(registrar)).toEqual([]);
  await registrar.getByTestId('department-rename-name').fill('Computer Science');
  await registrar.getByTestId('department-rename-save').click();
  await expect(registrar.getByTestId('department-main')).toContainText('Computer Science');
  // The registrar declares a room that belongs to ECE alone.
  await goTo(registrar, 'scheduler');
  const registrarRooms = registrar.getByTestId('rooms-panel');
  await registrarRooms.getByLabel('Room', { exact: true }).fill('ECE Lab');
  await choose(registrar, 'room-new-owner', /^ECE$/);
  // Added once the form shows the choice, as a person sees it before pressing Add.
  await expect(registrar.getByTestId('room-new-owner')).toHaveValue('ECE');
  await registrarRooms.getByRole('button', { name: 'Add', exact: true }).click();
  await expect(registrar.getByText('ECE Lab belongs to ECE alone')).toBeVisible();
  await goTo(registrar, 'settings');

  await registrar.getByTestId('person-login').fill('sam');
  await registrar.getByTestId('person-name').fill('Sam Scheduler');
  await choose(registrar, 'person-department', /^ECE — Electrical Engineering$/);
  await registrar.getByTestId('person-password').fill('scheduler password 1');
  await registrar.getByTestId('person-add').click();
  await expect(registrar.getByTestId('person-sam')).toContainText('scheduler');
  await expect(registrar.getByTestId('person-sam')).toContainText('ECE');
  // Disabling asks first; Cancel leaves the person able to sign in.
  await registrar.getByRole('button', { name: 'Disable sam' }).click();
  await expect(registrar.getByRole('dialog')).toContainText('can no longer sign in');
  expect(await seriousProblems(registrar)).toEqual([]);
  await registrar.getByRole('button', { name: 'Cancel' }).click();
  await expect(registrar.getByRole('dialog')).toBeHidden();
  await expect(registrar.getByRole('button', { name: 'Disable sam' })).toBeVisible();
  await screenshot(registrar, 'campus-people');

  // ECE's catalog and term, as the registrar's scripts would set them up.
  const term = (await app.api<{ current_term: { year: number; semester: string } }>('/scheduler/settings')).current_term;
  const courses = new FormData();
  courses.append('file', new Blob([JSON.stringify([{ code: 'ECE210', name: 'Circuits', type: 'core' }])]), 'courses.json');
  await asRegistrarIn(app, 'ECE', '/data/upload/courses', { method: 'POST', body: courses });
  await asRegistrarIn(app, 'ECE', '/scheduler/settings', { method: 'PATCH', json: { current_term: term } });

  // The registrar watches the shared room's week.
  await registrar.getByTestId('nav-campus').click();
  await expect(registrar.getByRole('heading', { level: 2, name: 'Campus week' })).toBeVisible();
  await choose(registrar, 'campus-room', /^Bassil 101$/);
  const room = registrar.getByTestId('campus-room-Bassil 101');
  await expect(room).toBeVisible();
  await expect(room).not.toContainText('ECE210');
  await registrar.evaluate(() => {
    (window as unknown as { notReloaded?: boolean }).notReloaded = true;
  });

  // The scheduler, in another browser, signs in and books Bassil 101 (a room of the shared pool).
  const scheduler = await signInWithPassword(browser, app, 'sam', 'scheduler password 1');
  await expect(scheduler.getByTestId('department-name')).toHaveText('Electrical Engineering');
  await expect(scheduler.getByTestId('department-switch')).toHaveCount(0);
  await goTo(scheduler, 'scheduler');
  const column = await scheduler.locator('td.fc-timegrid-col[data-date="2024-01-02"]').boundingBox();
  const lane = await scheduler.locator('td.fc-timegrid-slot-lane[data-time="07:00:00"]').boundingBox();
  if (!column || !lane) throw new Error('No calendar slot for Tuesday 07:00');
  await scheduler.mouse.click(column.x + column.width / 2, lane.y + 4);
  await scheduler.getByTestId('entry-course').click();
  await scheduler.getByTestId('entry-course').fill('ECE210');
  await scheduler.getByRole('option', { name: /^ECE210 — / }).click();
  await scheduler.getByTestId('entry-room').fill('Bassil 101');
  await scheduler.getByTestId('entry-save').click();
  await expect(scheduler.getByTestId('entry-form')).toHaveCount(0);

  // The registrar's campus week shows it, named with its department, without a reload.
  await expect(room).toContainText('ECE210 1 (Electrical Engineering)');
  expect(await registrar.evaluate(() => (window as unknown as { notReloaded?: boolean }).notReloaded)).toBe(true);
  await screenshot(registrar, 'campus-week');

  // The scheduler's campus week follows another department's bookings live, without learning what they are.
  await scheduler.getByTestId('nav-campus').click();
  await choose(scheduler, 'campus-room', /^Bassil 101$/);
  const seen = scheduler.getByTestId('campus-room-Bassil 101');
  await expect(seen).toContainText('ECE210 1');
  await app.api('/scheduler/', {
    method: 'POST',
    json: { ...term, course_code: 'CSC201', section_name: '9', doctor_id: 0, day: 'W', start_time: '07:00', duration_mins: 60, room: 'Bassil 101' },
  });
  await expect(seen).toContainText('Booked by another department');
  await expect(seen).not.toContainText('CSC201');

  // ECE's own room is the scheduler's to edit; the pool's are not.
  await goTo(scheduler, 'scheduler');
  const schedulerRooms = scheduler.getByTestId('rooms-panel');
  await expect(schedulerRooms.getByRole('row', { name: /ECE Lab/ })).toContainText("this department's");
  await expect(schedulerRooms.getByRole('button', { name: 'Edit ECE Lab' })).toBeVisible();
  await expect(schedulerRooms.getByRole('button', { name: 'Edit Bassil 101' })).toHaveCount(0);

  // The scheduler's own By room shows that slot of the shared room taken, again without naming it.
  await goTo(scheduler, 'scheduler');
  await scheduler.getByTestId('view-switch').getByText('By room').click();
  const sharedRow = scheduler.locator('[data-testid="resource-row"][data-key="Bassil 101"]');
  await expect(sharedRow.getByTestId('resource-meeting').first()).toContainText('ECE210');
  await expect(sharedRow.getByTestId('resource-taken')).toHaveText(/07:00–08:00 Booked by another department/);
  await expect(sharedRow).not.toContainText('CSC201');

  // An instructor both departments list, teaching for the other one: their row in By instructor shows the slot taken, unnamed.
  for (const [department, course] of [
    ['ECE', 'ECE210'],
    ['main', 'CSC201'],
  ] as const) {
    const doctors = new FormData();
    doctors.append('file', new Blob([`name,allowed_courses\nDr. Both,${course}\n`]), 'doctors.csv');
    await asRegistrarIn(app, department, '/data/upload/doctors', { method: 'POST', body: doctors });
  }
  const both = (await app.api<{ id: number; name: string }[]>('/scheduler/doctors')).find((d) => d.name === 'Dr. Both');
  await app.api('/scheduler/', {
    method: 'POST',
    json: { ...term, course_code: 'CSC201', section_name: '8', doctor_id: both?.id ?? 0, day: 'F', start_time: '08:00', duration_mins: 50, room: 'TBD' },
  });
  await scheduler.getByTestId('view-switch').getByText('By instructor').click();
  const bothRow = scheduler.locator(`[data-testid="resource-row"][data-key="${both?.id ?? 0}"]`);
  await expect(bothRow.getByTestId('resource-taken')).toHaveText(/08:00–08:50 Teaches for another department/);
  await expect(bothRow).not.toContainText('CSC201');

  // The week filtered to the shared room shows the other department's meeting there as taken, unnamed.
  await scheduler.getByTestId('view-switch').getByText('Week').click();
  await choose(scheduler, 'filter-room', /^Bassil 101$/);
  await expect(scheduler.getByTestId('week-taken')).toHaveText('Booked by another department');
  await expect(scheduler.getByTestId('calendar')).not.toContainText('CSC201');

  // The scheduler's own Settings offer personal tokens, never the server's data folder or token.
  await goTo(scheduler, 'settings');
  await expect(scheduler.getByTestId('data-dir')).toHaveCount(0);
  await expect(scheduler.getByTestId('people-card')).toHaveCount(0);
  await scheduler.getByTestId('token-label').fill('nightly export');
  await scheduler.getByTestId('token-create').click();
  const token = (await scheduler.getByTestId('token-value').textContent()) ?? '';
  expect(token).toMatch(/^tw_/);
  const mine = await fetch(new URL('me', app.url), { headers: { authorization: `Bearer ${token}` } });
  expect(((await mine.json()) as { person: { login: string } }).person.login).toBe('sam');
  await scheduler.getByRole('button', { name: 'Revoke nightly export' }).click();
  await expect(scheduler.getByTestId('token-nightly export')).toHaveCount(0);
  expect((await fetch(new URL('me', app.url), { headers: { authorization: `Bearer ${token}` } })).status).toBe(401);

  // The registrar's choice of department carries into a new tab (each tab then keeps its own).
  await choose(registrar, 'department-switch', /^ECE — /);
  const tab = await registrar.context().newPage();
  await tab.goto(app.url);
  await expect(tab.getByTestId('department-switch')).toHaveValue(/^ECE — /);
  await tab.close();

  // Signing out ends the session: the page asks to sign in again.
  await scheduler.getByTestId('sign-out').click();
  await expect(scheduler.getByTestId('signed-out')).toBeVisible();
});
