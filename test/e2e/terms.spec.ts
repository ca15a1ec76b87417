import { test, expect, goTo, screenshot, signIn } from './fixtures';

interface Entry {
  id: number;
  course_code: string;
  year: number;
  semester: string;
  doctor_ids: number[];
}

test('switches terms, copies last Fall forward, and draws a team-taught joint pair as one block', async ({ page, app }) => {
  await app.api('/data/sample', { method: 'POST' });
  await app.api('/scheduler/settings', { method: 'PATCH', json: { current_term: { year: 2025, semester: 'Fall' } } });
  const first = await app.api<{ id: number; name: string }>('/scheduler/doctors', { method: 'POST', json: { name: 'Dr. Team One' } });
  const second = await app.api<{ id: number; name: string }>('/scheduler/doctors', { method: 'POST', json: { name: 'Dr. Team Two' } });
  const together = { doctor_ids: [first.id, second.id], day: 'TR', start_time: '14:00', duration_mins: 75, room: 'Bassil 101', joint_group: 'CSC374+574', year: 2024, semester: 'Fall' };
  await app.api('/scheduler/', { method: 'POST', json: { course_code: 'CSC374', section_name: '1', ...together } });
  await app.api('/scheduler/', { method: 'POST', json: { course_code: 'CSC574', section_name: '1', ...together } });

  await signIn(page, app);
  await goTo(page, 'scheduler');
  await expect(page.getByTestId('term-switcher-semester')).toHaveValue('Fall');
  await expect(page.getByTestId('term-switcher-year')).toHaveValue('2025');
  await expect(page.locator('.fc-event')).toHaveCount(0);

  // Fall 2025 starts from Fall 2024: the dialog proposes the same semester a year earlier.
  await page.getByTestId('copy-open').click();
  await expect(page.getByTestId('copy-from-year')).toHaveValue('2024');
  await page.getByTestId('copy-run').click();
  await expect(page.getByTestId('copy-result')).toContainText('Copied 2 meetings; 0 not copied.');
  await page.getByRole('button', { name: 'Close', exact: true }).click();
  const copied = (await app.api<Entry[]>('/scheduler/?year=2025&semester=Fall')).map((e) => [e.course_code, e.doctor_ids.length]);
  expect(copied).toEqual([
    ['CSC374', 2],
    ['CSC574', 2],
  ]);
  // One block per day, labelled with both codes and both instructors.
  const block = page.locator('.fc-event', { hasText: 'CSC374 / CSC574 §1' });
  await expect(block).toHaveCount(2);
  await expect(block.first()).toContainText(`${first.name}, ${second.name}`);
  await screenshot(page, 'scheduler-joint');

  // Back to Fall 2024 with the switcher: its own two meetings are there.
  await page.getByTestId('term-switcher-year').fill('2024');
  await page.getByTestId('term-switcher-year').blur();
  await expect(page.locator('.fc-event', { hasText: 'CSC374 / CSC574 §1' })).toHaveCount(2);
  await block.first().click();
  await expect(page.getByRole('dialog', { name: 'Sections at this time' })).toContainText('CSC574');
});
