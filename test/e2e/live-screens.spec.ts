import type { Page } from '@playwright/test';
import { test, expect, goTo, signIn, type RunningApp, type TimetableEntry as Entry } from './fixtures';

/**
 * Every screen follows writes made elsewhere: a script changes rooms, doctors, the timetable and
 * the runs over REST while a screen is open, and the screen shows it without a reload. The page is
 * never reloaded in this test: a counter set on window at the start must still be there at the end.
 */

const KEPT = '__termwiseNotReloaded';

async function markPage(page: Page): Promise<void> {
  await page.evaluate((key) => {
    (window as unknown as Record<string, boolean>)[key] = true;
  }, KEPT);
}

async function expectNotReloaded(page: Page): Promise<void> {
  expect(await page.evaluate((key) => (window as unknown as Record<string, boolean | undefined>)[key] === true, KEPT)).toBe(true);
}

const meeting = (app: RunningApp, term: { year: number; semester: string }, json: Record<string, unknown>) =>
  app.api<Entry>('/scheduler/', { method: 'POST', json: { section_name: '1', doctor_id: 0, duration_mins: 60, ...term, ...json } });

test("a script's writes show on every screen that displays them, without a reload", async ({ page, app }) => {
  await app.api('/data/sample', { method: 'POST' });
  await signIn(page, app);
  await markPage(page);

  // Scheduler: rooms, doctors and meetings a script adds, changes and removes.
  await goTo(page, 'scheduler');
  const shown = (await app.api<{ current_term: { year: number; semester: string } }>('/scheduler/settings')).current_term;
  await expect(page.getByTestId('term-switcher-year')).toHaveValue(String(shown.year));
  // An offering report imported elsewhere moves the term the history proposes next; the timetable on screen stays.
  const report = new FormData();
  report.append(
    'file',
    new Blob([
      `course_code,year,semester,campus,total_enrolled,passed_count,failed_count,is_offered\nCSC201,${shown.year},${shown.semester},Beirut,50,40,10,true\n`,
    ]),
    'more.csv',
  );
  await app.api('/data/upload/offerings', { method: 'POST', body: report });
  expect((await app.api<{ current_term: unknown }>('/scheduler/settings')).current_term).not.toEqual(shown);
  await expect(page.getByTestId('term-switcher-year')).toHaveValue(String(shown.year));
  await expect(page.getByTestId('term-switcher-semester')).toHaveValue(shown.semester);
  const rooms = page.getByTestId('rooms-panel');
  await expect(rooms).toContainText('Bassil 101');
  await app.api('/scheduler/rooms', { method: 'POST', json: { name: 'Script Hall', capacity: 33 } });
  await expect(rooms).toContainText('Script Hall');
  await expect(rooms).toContainText('33 seats');
  await page.getByTestId('view-switch').getByText('By room', { exact: true }).click();
  await expect(page.getByTestId('view-room').getByTestId('resource-row').filter({ hasText: 'Script Hall (33 seats)' })).toHaveCount(1);
  await page.getByTestId('view-switch').getByText('Week', { exact: true }).click();

  const doctor = await app.api<{ id: number; name: string }>('/scheduler/doctors', {
    method: 'POST',
    json: { name: 'Dr. Script Writer', allowed_courses: ['CSC201'] },
  });
  const doctorsPanel = page.locator('.mantine-Card-root').filter({ hasText: /^Doctors \(/ });
  await expect(doctorsPanel).toContainText('Dr. Script Writer');

  const entry = await meeting(app, shown, { course_code: 'CSC201', doctor_id: doctor.id, day: 'MWF', start_time: '08:00', room: 'Script Hall' });
  await expect(page.getByTestId(`event-${entry.id}`)).toHaveCount(3);
  await expect(doctorsPanel.getByRole('row').filter({ hasText: 'Dr. Script Writer' })).toContainText('1 sections');
  await app.api(`/scheduler/${entry.id}`, { method: 'PATCH', json: { day: 'TR' } });
  await expect(page.getByTestId(`event-${entry.id}`)).toHaveCount(2);
  await app.api(`/scheduler/${entry.id}`, { method: 'DELETE' });
  await expect(page.getByTestId(`event-${entry.id}`)).toHaveCount(0);

  // A room removed by a script leaves the list.
  const declared = await app.api<{ id: number | null; name: string }[]>('/scheduler/rooms');
  const scriptHall = declared.find((r) => r.name === 'Script Hall');
  await app.api(`/scheduler/rooms/${scriptHall?.id ?? 0}`, { method: 'DELETE' });
  await expect(rooms).not.toContainText('Script Hall');

  // The auto-fill dialog's runs: a run a script saves while it is open is offered at once.
  await page.getByTestId('autofill-open').click();
  await expect(page.getByTestId('autofill-dialog')).toBeVisible();
  await app.api('/predict/bulk', { method: 'POST', json: { run_name: 'Scripted plan', target_year: 2025, target_semester: 'Fall', target_campus: 'Beirut' } });
  await page.getByTestId('autofill-run').click();
  await expect(page.getByRole('option', { name: /^Scripted plan — / })).toHaveCount(1);
  await page.keyboard.press('Escape');
  await page.keyboard.press('Escape');

  // Predictions: a run and a decision a script makes.
  await goTo(page, 'predictions');
  const history = page.getByTestId('run-history');
  await expect(history).toContainText('Scripted plan');
  const second = await app.api<{ id: number; entries: { course_code: string; offer: boolean }[] }>('/predict/bulk', {
    method: 'POST',
    json: { run_name: 'Second scripted plan', target_year: 2025, target_semester: 'Fall', target_campus: 'Beirut' },
  });
  await expect(history).toContainText('Second scripted plan');
  // The run being read stays on screen (a decision being typed is not lost); the new one is a click away.
  await expect(page.getByTestId('run-results')).toContainText('Scripted plan — Beirut Fall 2025');
  await history.getByRole('row').filter({ hasText: 'Second scripted plan' }).click();
  await expect(page.getByTestId('run-results')).toContainText('Second scripted plan — Beirut Fall 2025');

  // Data: the doctors list and the dashboard's counts.
  await goTo(page, 'data');
  const doctorsTab = page.getByRole('tab', { name: /^Doctors \(\d+\)$/ });
  const before = Number(/\((\d+)\)/.exec((await doctorsTab.textContent()) ?? '')?.[1]);
  await app.api('/scheduler/doctors', { method: 'POST', json: { name: 'Dr. Second Script', allowed_courses: [] } });
  await expect(doctorsTab).toHaveText(`Doctors (${before + 1})`);

  await goTo(page, 'dashboard');
  await expect(page.getByTestId('kpi-latest-run')).toHaveText('Beirut Fall 2025');
  const entries = page.getByTestId('kpi-entries');
  const count = Number(await entries.textContent());
  await meeting(app, shown, { course_code: 'CSC201', day: 'TR', start_time: '08:00', room: 'Bassil 101' });
  await expect(entries).toHaveText(String(count + 1));
  const offered = second.entries.find((e) => e.offer);
  if (!offered) throw new Error('the run should offer some courses');
  const recommended = Number(await page.getByTestId('kpi-recommended').textContent());
  await app.api(`/predict/runs/${second.id}/entries/${encodeURIComponent(offered.course_code)}`, { method: 'PATCH', json: { decision: 'skip' } });
  await expect(page.getByTestId('kpi-recommended')).toHaveText(String(recommended - 1));

  await expectNotReloaded(page);
});
