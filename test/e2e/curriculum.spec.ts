import { test, expect, goTo, screenshot, signIn } from './fixtures';

test('draws a curriculum conflict on both sections, lists it first among the warnings and counts it on the dashboard, until one moves', async ({
  page,
  app,
}) => {
  // The sample catalog's study plan puts CSC243 and CSC245 in Computer Science, Year 2, Fall.
  await app.api('/data/sample', { method: 'POST' });
  await app.api('/scheduler/settings', { method: 'PATCH', json: { current_term: { year: 2025, semester: 'Fall' } } });
  const meeting = { section_name: '1', doctor_id: 0, duration_mins: 75, year: 2025, semester: 'Fall' };
  await app.api('/scheduler/', { method: 'POST', json: { ...meeting, course_code: 'CSC243', day: 'TR', start_time: '09:30', room: 'Bassil 101' } });
  const moving = await app.api<{ id: number }>('/scheduler/', {
    method: 'POST',
    json: { ...meeting, course_code: 'CSC245', day: 'TR', start_time: '10:00', room: 'Bassil 102' },
  });
  await app.api('/scheduler/', { method: 'POST', json: { ...meeting, course_code: 'CSC201', day: 'MW', start_time: '10:00', room: 'Bassil 103' } });

  await signIn(page, app);
  await goTo(page, 'dashboard');
  await expect(page.getByTestId('kpi-curriculum-conflicts')).toHaveText('1');
  await goTo(page, 'scheduler');
  const marked = page.getByTestId('event-curriculum');
  await expect(marked).toHaveCount(4); // two sections, Tuesday and Thursday
  await expect(page.locator('.fc-event.tw-curriculum', { hasText: 'CSC243' }).first()).toContainText('Clashes for students with CSC245');
  await expect(page.locator('.fc-event', { hasText: 'CSC201' }).first()).not.toContainText('Clashes');
  await expect(page.getByTestId('curriculum-count')).toHaveText('2 in curriculum conflicts');
  const rows = page.getByTestId('warnings-list').locator('tr');
  await expect(rows.first()).toContainText('curriculum');
  await expect(rows.first()).toContainText('every choice of their sections overlaps');
  await screenshot(page, 'scheduler-curriculum');

  // Moving CSC245 to Monday and Wednesday clears both sections (the screen refreshes by itself).
  await app.api(`/scheduler/${moving.id}`, { method: 'PATCH', json: { day: 'MW' } });
  await expect(marked).toHaveCount(0);
  await expect(page.getByTestId('curriculum-count')).toHaveCount(0);
});

test('the timetable import previews the curriculum conflicts the term will hold', async ({ page, app }) => {
  await app.api('/data/sample', { method: 'POST' });
  await app.api('/scheduler/settings', { method: 'PATCH', json: { current_term: { year: 2025, semester: 'Fall' } } });
  const listing = [
    'Course,Section,Days,Start Time,End Time,Room,Year,Term',
    'CSC243,1,TR,09:30 AM,10:45 AM,Bassil 101,2025,Fall',
    'CSC245,1,TR,10:00 AM,11:15 AM,Bassil 102,2025,Fall',
  ].join('\n');
  await signIn(page, app);
  await goTo(page, 'scheduler');
  await page.getByTestId('import-timetable-open').click();
  await page
    .getByTestId('import-timetable')
    .locator('input[type=file]')
    .setInputFiles({ name: 'fall.csv', mimeType: 'text/csv', buffer: Buffer.from(listing) });
  const listed = page.getByTestId('import-curriculum-conflicts');
  await expect(listed).toContainText('1 curriculum conflict');
  await expect(listed).toContainText('take CSC243 and CSC245 together');
});
