import ExcelJS from 'exceljs';
import type { Page } from '@playwright/test';
import { test, expect, goTo, screenshot, signIn, type TimetableEntry as Entry } from './fixtures';

/** The point on the calendar for a day (2024-01-01 is the Monday of the reference week) and time. */
async function slot(page: Page, date: string, time: string): Promise<{ x: number; y: number }> {
  const column = await page.locator(`td.fc-timegrid-col[data-date="${date}"]`).boundingBox();
  const lane = await page.locator(`td.fc-timegrid-slot-lane[data-time="${time}:00"]`).boundingBox();
  if (!column || !lane) throw new Error(`No calendar slot for ${date} ${time}`);
  return { x: column.x + column.width / 2, y: lane.y + 4 };
}

async function drag(page: Page, from: { x: number; y: number }, to: { x: number; y: number }): Promise<void> {
  await page.mouse.move(from.x, from.y);
  await page.mouse.down();
  await page.mouse.move(from.x + 5, from.y + 5, { steps: 5 });
  await page.mouse.move(to.x, to.y, { steps: 20 });
  await page.mouse.up();
}

test('creates by clicking, moves by dragging, reverts a conflicting move, exports and persists', async ({ page, app }) => {
  await app.api('/data/sample', { method: 'POST' });
  const blocker = await app.api<Entry>('/scheduler/', {
    method: 'POST',
    json: { course_code: 'MTH201', section_name: '1', doctor_id: 0, day: 'TR', start_time: '11:00', duration_mins: 90, room: 'Bassil 101' },
  });
  await signIn(page, app);
  await goTo(page, 'scheduler');
  await expect(page.getByTestId(`event-${blocker.id}`)).toHaveCount(2);

  // Click an empty Monday 09:00 slot: MWF and 60 minutes are proposed.
  const monday9 = await slot(page, '2024-01-01', '09:00');
  await page.mouse.click(monday9.x, monday9.y);
  await expect(page.getByTestId('entry-day')).toHaveValue('MWF');
  await expect(page.getByTestId('entry-start')).toHaveValue('09:00');
  await expect(page.getByTestId('entry-duration')).toHaveValue('60');
  await page.getByTestId('entry-course').click();
  await page.getByTestId('entry-course').fill('CSC201');
  await page.getByRole('option', { name: /^CSC201 — / }).click();
  await page.getByTestId('entry-room').fill('Bassil 101');
  await page.getByTestId('entry-save').click();
  await expect(page.getByTestId('entry-form')).toHaveCount(0);

  const [created] = (await app.api<Entry[]>('/scheduler/')).filter((e) => e.course_code === 'CSC201');
  expect(created).toMatchObject({ day: 'MWF', start_time: '09:00', room: 'Bassil 101' });
  const id = created?.id ?? 0;
  await expect(page.getByTestId(`event-${id}`)).toHaveCount(3);
  await screenshot(page, 'scheduler');

  // Drag Monday's session one hour later: the whole MWF pattern moves.
  const onMonday = page.locator(`td.fc-timegrid-col[data-date="2024-01-01"] [data-testid="event-${id}"]`);
  const box = await onMonday.boundingBox();
  if (!box) throw new Error('The new entry is not on Monday');
  await drag(page, { x: box.x + box.width / 2, y: box.y + 6 }, { x: box.x + box.width / 2, y: (await slot(page, '2024-01-01', '10:00')).y + 2 });
  await expect.poll(async () => (await app.api<Entry[]>('/scheduler/')).find((e) => e.id === id)?.start_time).toBe('10:00');
  // Moved with the mouse, the block says where it is now, not where it was.
  const movedBlock = page.locator(`td.fc-timegrid-col[data-date="2024-01-01"] .fc-event:has([data-testid="event-${id}"])`);
  await expect(movedBlock).toHaveAttribute('aria-label', /^CSC201 §1, Monday 10:00–11:00, Bassil 101, /);
  await expect(movedBlock).toHaveAttribute('title', /^CSC201 §1, Monday 10:00–11:00, Bassil 101, /);

  // Drag it onto Tuesday 11:00, where MTH201 holds the room: refused, reverted, and the server says why.
  const moved = await page.locator(`td.fc-timegrid-col[data-date="2024-01-01"] [data-testid="event-${id}"]`).boundingBox();
  if (!moved) throw new Error('The entry vanished');
  await drag(
    page,
    { x: moved.x + moved.width / 2, y: moved.y + 6 },
    { ...(await slot(page, '2024-01-02', '11:00')), y: (await slot(page, '2024-01-02', '11:00')).y + 2 },
  );
  await expect(page.getByTestId('schedule-refusal')).toContainText('Room Bassil 101 is already booked by MTH201 section 1 on Tuesday and Thursday 11:00-12:30');
  await expect(page.getByTestId('event-refusal')).toHaveCount(3);
  await expect(page.locator(`td.fc-timegrid-col[data-date="2024-01-01"] [data-testid="event-${id}"]`)).toHaveCount(1);
  expect((await app.api<Entry[]>('/scheduler/')).find((e) => e.id === id)).toMatchObject({ day: 'MWF', start_time: '10:00' });
  await screenshot(page, 'scheduler-conflict');

  // Export the timetable: the registrar's seven columns first, then its term, part, group, campus and course names.
  const [download] = await Promise.all([page.waitForEvent('download'), page.getByTestId('export-xlsx').click()]);
  expect(download.suggestedFilename()).toMatch(/^timetable_(Fall|Spring|Summer)_\d{4}\.xlsx$/);
  const workbook = new ExcelJS.Workbook();
  await workbook.xlsx.readFile(await download.path());
  const sheet = workbook.getWorksheet('Final Schedule');
  expect((sheet?.getRow(1).values as unknown[]).slice(1)).toEqual([
    'Days Pattern',
    'Course Code',
    'Section Name',
    'Instructor',
    'Start Time',
    'End Time',
    'Room',
    'Term',
    'Part of Term',
    'Joint Group',
    'Campus',
    'Course Name',
  ]);
  expect((sheet?.getRow(2).values as unknown[]).slice(1, 8)).toEqual(['MWF', 'CSC201', '1', '', '10:00', '10:50', 'Bassil 101']);
  expect((sheet?.getRow(2).values as unknown[])[12]).toBe('Computer Programming');

  // Everything is still there after a reload.
  await page.reload();
  await goTo(page, 'scheduler');
  await expect(page.getByTestId(`event-${id}`)).toHaveCount(3);
  await expect(page.getByTestId(`event-${blocker.id}`)).toHaveCount(2);
  await goTo(page, 'settings');
  await expect(page.getByTestId('data-dir')).toHaveText(app.dataDir);
  await screenshot(page, 'settings');
});
