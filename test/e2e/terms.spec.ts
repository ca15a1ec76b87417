import type { Page } from '@playwright/test';
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
  const together = {
    doctor_ids: [first.id, second.id],
    day: 'TR',
    start_time: '14:00',
    duration_mins: 75,
    room: 'Bassil 101',
    joint_group: 'CSC374+574',
    year: 2024,
    semester: 'Fall',
  };
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

const drawn = (page: Page, code: string) => page.locator('.fc-event', { hasText: code });

test('the part-of-term filter shows one half of a summer session, in every view', async ({ page, app }) => {
  await app.api('/data/sample', { method: 'POST' });
  const summer = { year: 2018, semester: 'Summer' };
  await app.api('/scheduler/settings', { method: 'PATCH', json: { current_term: summer } });
  await app.api('/scheduler/parts', { method: 'POST', json: { ...summer, code: 'S1', name: 'First half', start_date: '2018-06-11', end_date: '2018-07-06' } });
  await app.api('/scheduler/parts', { method: 'POST', json: { ...summer, code: 'S2', name: 'Second half', start_date: '2018-07-09', end_date: '2018-08-03' } });
  // One slot and room, used in each half by a different course.
  const slot = { section_name: '1', day: 'MW', start_time: '09:00', duration_mins: 75, room: 'Bassil 101', ...summer };
  await app.api('/scheduler/', { method: 'POST', json: { course_code: 'CSC201', part_of_term: 'S1', ...slot } });
  await app.api('/scheduler/', { method: 'POST', json: { course_code: 'CSC243', part_of_term: 'S2', ...slot } });

  await signIn(page, app);
  await goTo(page, 'scheduler');
  await expect(drawn(page, 'CSC201')).toHaveCount(2);
  await expect(drawn(page, 'CSC243')).toHaveCount(2);
  await page.getByRole('combobox', { name: 'Filter by part of term' }).click();
  await page.getByRole('option', { name: 'S2 — Second half' }).click();
  await expect(drawn(page, 'CSC201')).toHaveCount(0);
  await expect(drawn(page, 'CSC243')).toHaveCount(2);
  // Switching views keeps the filter.
  await page.getByTestId('view-switch').getByText('By room').click();
  const room = page.getByTestId('resource-row').filter({ hasText: 'Bassil 101' });
  await expect(room).toContainText('CSC243');
  await expect(room).not.toContainText('CSC201');
  // With the keyboard alone, the filter's list opens whole and named as open (it is drawn as the filter takes focus).
  const partFilter = page.getByRole('combobox', { name: 'Filter by part of term' });
  await partFilter.focus();
  await page.keyboard.press('ArrowDown');
  await expect(partFilter).toHaveAttribute('aria-expanded', 'true');
  await expect(page.getByRole('option', { name: 'S1 — First half' })).toBeVisible();
  await expect(page.getByRole('option', { name: 'S2 — Second half' })).toBeVisible();
  await page.keyboard.press('Escape');
});

test('the student-cohort filter shows the courses one cohort takes', async ({ page, app }) => {
  // The sample catalog's study plan puts CSC243 and CSC245 in Computer Science, Year 2, Fall; CSC201 is not in it.
  await app.api('/data/sample', { method: 'POST' });
  const fall = { year: 2025, semester: 'Fall' };
  await app.api('/scheduler/settings', { method: 'PATCH', json: { current_term: fall } });
  const meeting = { section_name: '1', duration_mins: 75, day: 'TR', ...fall };
  await app.api('/scheduler/', { method: 'POST', json: { ...meeting, course_code: 'CSC243', start_time: '08:00', room: 'Bassil 101' } });
  await app.api('/scheduler/', { method: 'POST', json: { ...meeting, course_code: 'CSC245', start_time: '11:00', room: 'Bassil 101' } });
  await app.api('/scheduler/', { method: 'POST', json: { ...meeting, course_code: 'CSC201', start_time: '14:00', room: 'Bassil 101' } });
  const cohorts = await app.api<{ label: string; courses: string[] }[]>('/scheduler/cohorts');
  const cohort = cohorts.find((c) => c.courses.includes('CSC243') && c.courses.includes('CSC245') && !c.courses.includes('CSC201'));
  if (!cohort) throw new Error(`no cohort takes CSC243 and CSC245 without CSC201: ${JSON.stringify(cohorts)}`);

  await signIn(page, app);
  await goTo(page, 'scheduler');
  await expect(drawn(page, 'CSC201')).toHaveCount(2);
  await page.getByRole('combobox', { name: 'Show the courses one cohort of students takes' }).click();
  await page.getByRole('option', { name: cohort.label, exact: true }).click();
  await expect(drawn(page, 'CSC243')).toHaveCount(2);
  await expect(drawn(page, 'CSC245')).toHaveCount(2);
  await expect(drawn(page, 'CSC201')).toHaveCount(0);
});
