import type { Page } from '@playwright/test';
import { test, expect, goTo, screenshot, signInWithPassword } from './fixtures';

/**
 * Two schedulers of one department plan the same term in two browsers. The Scheduler's History
 * lists both changes with who made them; one undoes the other's change, and both screens show it
 * (the timetable and the history) without a reload.
 */

async function addSection(page: Page, course: string, room: string): Promise<void> {
  await page.getByTestId('new-section').click();
  await expect(page.getByTestId('entry-form')).toBeVisible();
  await page.getByTestId('entry-course').click();
  await page.getByTestId('entry-course').fill(course);
  await page.getByRole('option', { name: new RegExp(`^${course} — `) }).click();
  await page.getByTestId('entry-room').fill(room);
  await page.getByTestId('entry-save').click();
  await expect(page.getByTestId('entry-form')).toHaveCount(0);
}

test('two schedulers change one term: History names both, one undoes the other’s change, and both see it live', async ({ app, browser }) => {
  await app.api('/data/sample', { method: 'POST' });
  for (const [login, name] of [
    ['ana', 'Ana Scheduler'],
    ['bo', 'Bo Scheduler'],
  ])
    await app.api('/people', { method: 'POST', json: { login, name, role: 'scheduler', department_id: 1, password: `${login} long password` } });

  const ana = await signInWithPassword(browser, app, 'ana', 'ana long password');
  const bo = await signInWithPassword(browser, app, 'bo', 'bo long password');
  await goTo(ana, 'scheduler');
  await goTo(bo, 'scheduler');
  await bo.evaluate(() => {
    (window as unknown as { notReloaded?: boolean }).notReloaded = true;
  });

  await addSection(ana, 'CSC201', 'Bassil 105');
  await addSection(bo, 'CSC202', 'Bassil 106');

  // Each sees both changes, newest first, with who made them.
  for (const page of [ana, bo]) {
    const rows = page.getByTestId('history-row');
    await expect(rows).toHaveCount(2);
    await expect(rows.nth(0)).toContainText('added CSC202 §1');
    await expect(rows.nth(0)).toContainText('Bo Scheduler');
    await expect(rows.nth(1)).toContainText('added CSC201 §1');
    await expect(rows.nth(1)).toContainText('room Bassil 105');
    await expect(rows.nth(1)).toContainText('Ana Scheduler');
  }
  await screenshot(bo, 'scheduler-history');

  // Bo undoes Ana's change: her section is gone on both screens, and the undo is in both histories.
  await bo.getByTestId('history-row').filter({ hasText: 'added CSC201 §1' }).getByTestId('history-undo').click();
  for (const page of [ana, bo]) {
    await expect(page.getByTestId('history-row').first()).toContainText('deleted CSC201 §1');
    await expect(page.getByTestId('history-row').first()).toContainText('by an undo');
    await expect(page.getByTestId('history-row').first()).toContainText('Bo Scheduler');
  }
  const left = await app.api<{ course_code: string }[]>('/scheduler/');
  expect(left.map((e) => e.course_code)).not.toContain('CSC201');
  expect(left.map((e) => e.course_code)).toContain('CSC202');
  expect(await bo.evaluate(() => (window as unknown as { notReloaded?: boolean }).notReloaded)).toBe(true);

  // Undoing Ana's addition again is refused in words: the undo came after it.
  await ana.getByTestId('history-row').filter({ hasText: 'added CSC201 §1' }).getByTestId('history-undo').click();
  await expect(ana.getByTestId('history-refusal')).toContainText('Cannot undo: CSC201 section 1 was changed after it, by Bo Scheduler');

  // Filtered by person: Ana's own changes.
  await ana.getByTestId('history-person').click();
  await ana.getByRole('option', { name: 'Ana Scheduler' }).click();
  await expect(ana.getByTestId('history-row')).toHaveCount(1);
  await expect(ana.getByTestId('history-row')).toContainText('added CSC201 §1');
});
