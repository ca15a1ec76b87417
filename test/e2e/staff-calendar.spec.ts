import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import ICAL from 'ical.js';
import type { Page } from '@playwright/test';
import { test, expect, goTo, screenshot, signIn, SCREENSHOTS, type RunningApp, type TimetableEntry as Entry } from './fixtures';
import { pdfPageTexts } from '../helpers/pdf-text';
import { cutCodes, tabTo } from './week-checks';

const DAYS = ['MWF', 'TR', 'MW', 'S'];

/**
 * A campus week as a registrar's listing has it: `count` sections over 40 rooms, hour after hour in
 * alternating day patterns, starts staggered by a quarter hour from room to room, 50- and 75-minute classes.
 */
async function fillWeek(app: RunningApp, count: number): Promise<{ room: string; day: string }[]> {
  const made: { room: string; day: string }[] = [];
  for (let i = 0; i < count; i++) {
    const room = i % 40;
    const block = Math.floor(i / 40);
    const day = DAYS[block % DAYS.length] ?? 'MWF';
    const start = 8 * 60 + block * 60 + (room % 3) * 15;
    const json = {
      course_code: `ECE${100 + (i % 300)}`,
      section_name: `S${i}`,
      doctor_id: 0,
      day,
      start_time: `${String(Math.floor(start / 60)).padStart(2, '0')}:${String(start % 60).padStart(2, '0')}`,
      duration_mins: room % 2 ? 50 : 75,
      room: `Hall ${room}`,
    };
    await app.api('/scheduler/', { method: 'POST', json });
    made.push({ room: json.room, day });
  }
  return made;
}

/** Pages in a PDF Chromium printed. */
const pageCount = (pdf: Buffer): number => pdf.toString('latin1').match(/\/Type\s*\/Page[^s]/g)?.length ?? 0;

const occurrencesOf = (entries: readonly { day: string }[]): number => entries.reduce((sum, e) => sum + e.day.length, 0);

/** Sections the week calendar accounts for: drawn (each member of a joint block) plus those counted in "+N sections" blocks. */
async function accountedOnWeek(page: Page): Promise<{ drawn: number; counted: number; calendarLinks: number }> {
  return page.evaluate(() => {
    const doc = (globalThis as unknown as { document: { querySelectorAll(s: string): ArrayLike<{ getAttribute(n: string): string | null }> } }).document;
    const drawn = doc.querySelectorAll('[data-entry-id]').length;
    const counted = Array.from(doc.querySelectorAll('[data-testid="slot-more"]')).reduce((sum, b) => sum + Number(b.getAttribute('data-count') ?? 0), 0);
    return { drawn, counted, calendarLinks: doc.querySelectorAll('.fc-more-link, .fc-timegrid-more-link').length };
  });
}

test("500 sections: every one drawn or counted on the week, by room and by instructor; a room's week printed on one landscape page, all rooms on two", async ({
  page,
  app,
}) => {
  test.setTimeout(180_000);
  const made = await fillWeek(app, 500);
  const occurrences = occurrencesOf(made);
  const hall3 = made.filter((e) => e.room === 'Hall 3');
  await page.setViewportSize({ width: 1366, height: 768 });
  await signIn(page, app);
  await goTo(page, 'scheduler');
  await expect
    .poll(
      async () => {
        const a = await accountedOnWeek(page);
        return a.drawn + a.counted;
      },
      { timeout: 30_000 },
    )
    .toBe(occurrences);
  const week = await accountedOnWeek(page);
  // The code first: at 1366 px no drawn block cuts its course code; a block too narrow for it joined a fold.
  const codes = await cutCodes(page);
  expect(codes.blocks).toBeGreaterThan(50);
  expect(codes.cut).toEqual([]);
  // One overflow mechanism: the calendar's own "+N" links never appear.
  expect(week.calendarLinks).toBe(0);
  expect(week.counted).toBeGreaterThan(0);
  await screenshot(page, 'scheduler-500-week');

  // A long list below the week (the term's last 200 changes, newest first) draws the rows in view,
  // not all 200, and scrolling it reaches every one: the oldest listed is the 301st section added.
  const changes = page.getByRole('region', { name: 'Changes to this term' });
  await expect(changes.getByTestId('history-row').first()).toContainText('§S499');
  expect(await changes.getByTestId('history-row').count()).toBeLessThan(60);
  await changes.evaluate((box) => box.scrollTo(0, box.scrollHeight));
  await expect(changes.getByTestId('history-row').last()).toContainText('added ECE100 §S300');
  await expect(changes.getByTestId('history-row').filter({ hasText: '§S499' })).toHaveCount(0);

  // A "+N sections" block lists exactly the sections it counts, and each opens.
  const block = page.getByTestId('slot-more').first();
  const count = Number(await block.getAttribute('data-count'));
  await block.click();
  const listed = page.getByRole('dialog', { name: 'Sections at this time' }).getByRole('row');
  await expect(listed).toHaveCount(count);
  await listed.first().click();
  await expect(page.getByTestId('entry-form')).toBeVisible();
  await page.keyboard.press('Escape');

  // The same by keyboard: Enter on the fold lists its sections, each reached with Tab and the arrow
  // keys; Escape gives the focus back to the fold; Enter on a row opens that section.
  const fold = page.locator('.fc-event:has([data-testid="slot-more"])').first();
  await fold.focus();
  await page.keyboard.press('Enter');
  const rows = page.getByTestId('sections-list-row');
  await expect(rows.first()).toBeFocused();
  expect(count).toBeGreaterThan(1);
  await page.keyboard.press('ArrowDown');
  await expect(rows.nth(1)).toBeFocused();
  await page.keyboard.press('ArrowUp');
  await expect(rows.first()).toBeFocused();
  await page.keyboard.press('Tab');
  await expect(rows.nth(1)).toBeFocused();
  await expect(rows.nth(1)).toHaveAttribute('aria-label', /^[A-Z]+\d+ §\S+, [MTWRFSU]+ \d\d:\d\d, .*Press Enter to open\.$/);
  await page.keyboard.press('Escape');
  await expect(page.getByRole('dialog', { name: 'Sections at this time' })).toHaveCount(0);
  await expect(fold).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(rows.first()).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('entry-form')).toBeVisible();
  await page.keyboard.press('Escape');

  // By room: 40 rows, every meeting placed; filters and term carry over between views.
  await page.getByTestId('view-switch').getByText('By room').click();
  await expect(page.getByTestId('resource-row')).toHaveCount(40);
  const placed = await page
    .getByTestId('resource-meeting')
    .evaluateAll((els) => els.reduce((sum, el) => sum + (el.getAttribute('data-entries') ?? '').split(',').length, 0));
  expect(placed).toBe(occurrences);
  await expect(page.getByTestId('resource-row').filter({ hasText: 'Hall 7' }).first().getByTestId('resource-meeting').first()).toHaveAttribute(
    'aria-label',
    /^ECE\d+ §S\d+, (Monday|Tuesday|Wednesday|Thursday|Friday|Saturday) \d\d:\d\d–\d\d:\d\d, Hall 7, no instructor yet$/,
  );
  await screenshot(page, 'scheduler-500-by-room');
  // Every course code reads in full on screen: no code is cut by its cell.
  const cutInRooms = await page.getByTestId('meeting-code').evaluateAll(
    (els) =>
      els.filter((el) => {
        const cell = el.closest('td');
        const box = el.getBoundingClientRect();
        const cellBox = cell?.getBoundingClientRect();
        return !cellBox || box.right > cellBox.right + 0.5 || box.left < cellBox.left - 0.5;
      }).length,
  );
  expect(cutInRooms).toBe(0);
  // Printed, the whole week by room is one page set: 40 rooms on rows (a row never split, the day
  // header repeated on every page), every course code legible in the PDF's text; no controls.
  await page.emulateMedia({ media: 'print' });
  await expect(page.getByTestId('view-days')).toBeHidden();
  await expect(page.getByText(/timetable · By room/)).toBeVisible();
  await page.emulateMedia({ media: null });
  const roomsPdf = await page.pdf({ format: 'A4', landscape: true, printBackground: true, preferCSSPageSize: true });
  mkdirSync(SCREENSHOTS, { recursive: true });
  writeFileSync(join(SCREENSHOTS, 'scheduler-by-room-week.pdf'), roomsPdf);
  const printed = await pdfPageTexts(roomsPdf);
  expect(printed.length).toBeGreaterThan(1);
  expect(printed.length).toBeLessThanOrEqual(16);
  // Every page that holds rooms repeats the day header (the notes under the table may end on a page of their own).
  const withRooms = printed.filter((text) => /Hall\s+\d/.test(text));
  expect(withRooms.length).toBeGreaterThan(1);
  for (const text of withRooms) expect(text).toMatch(/Monday .*Tuesday .*Saturday/);
  const printedText = printed.join(' ');
  const codesMade = new Set(Array.from({ length: 500 }, (_, i) => `ECE${100 + (i % 300)}`));
  expect([...codesMade].filter((code) => !printedText.includes(code))).toEqual([]);
  expect(Array.from({ length: 40 }, (_, r) => `Hall ${r}`).filter((room) => !new RegExp(`\\b${room.replace(' ', '\\s+')}\\b`).test(printedText))).toEqual([]);
  // Each meeting's section is printed next to its code.
  expect(printedText.match(/ECE\d{3}\s+§S\d+/g)?.length).toBe(occurrences);
  await page.getByTestId('filter-room').click();
  await page.getByRole('option', { name: 'Hall 3', exact: true }).click();
  await page.getByTestId('view-switch').getByText('By instructor').click();
  await expect(page.getByTestId('resource-row')).toHaveCount(1);
  await expect(page.getByTestId('resource-row')).toContainText('No instructor yet');
  await expect(page.getByTestId('resource-row')).toContainText(`${hall3.length} sections`);
  await page.getByTestId('view-switch').getByText('Week').click();
  await expect
    .poll(async () => {
      const a = await accountedOnWeek(page);
      return a.drawn + a.counted;
    })
    .toBe(occurrencesOf(hall3));

  // Print: the room's week on one A4 landscape page, without the app around it.
  await page.emulateMedia({ media: 'print' });
  await expect(page.getByTestId('view-switch')).toBeHidden();
  await expect(page.getByText(/timetable · Week · Hall 3/)).toBeVisible();
  await screenshot(page, 'scheduler-print');
  // (page.pdf prints with print media unless screen media is being emulated.)
  const pdf = await page.pdf({ format: 'A4', landscape: true, printBackground: true, preferCSSPageSize: true });
  mkdirSync(SCREENSHOTS, { recursive: true });
  writeFileSync(join(SCREENSHOTS, 'scheduler-print.pdf'), pdf);
  expect(pageCount(pdf)).toBe(1);
  // Printed, the week keeps the code-first rule: every section of the room is read by its code.
  const weekText = (await pdfPageTexts(pdf)).join(' ');
  const hall3Codes = (await app.api<Entry[]>('/scheduler/')).filter((e) => e.room === 'Hall 3').map((e) => e.course_code);
  expect(hall3Codes.filter((code) => !weekText.includes(code))).toEqual([]);
});

test('250 instructors: By instructor draws the rows in view, reaches every one by scrolling, and prints every one', async ({ page, app }) => {
  test.setTimeout(120_000);
  for (let i = 0; i < 250; i++) await app.api('/scheduler/doctors', { method: 'POST', json: { name: `Instructor ${String(i).padStart(3, '0')}` } });
  await page.setViewportSize({ width: 1366, height: 768 });
  await signIn(page, app);
  await goTo(page, 'scheduler');
  await page.getByTestId('view-switch').getByText('By instructor').click();
  const rows = page.getByTestId('view-instructor').getByTestId('resource-row');
  await expect(rows.first()).toContainText('Instructor 000');
  expect(await rows.count()).toBeLessThan(60);
  // Scrolled to the end, the last instructor's row is drawn (and the first no longer is).
  await page.locator('.tw-resource-scroll').evaluate((box) => box.scrollTo(0, box.scrollHeight));
  await expect(rows.filter({ hasText: 'Instructor 249' })).toHaveCount(1);
  await expect(rows.filter({ hasText: 'Instructor 000' })).toHaveCount(0);
  // Printed, every row is drawn, and every instructor is on paper.
  await page.emulateMedia({ media: 'print' });
  await expect(rows).toHaveCount(250);
  const printed = (await pdfPageTexts(await page.pdf({ format: 'A4', landscape: true, printBackground: true, preferCSSPageSize: true }))).join(' ');
  const missing = Array.from({ length: 250 }, (_, i) => `Instructor ${String(i).padStart(3, '0')}`).filter(
    (name) => !printed.replace(/\s+/g, ' ').includes(name),
  );
  expect(missing).toEqual([]);
});

test('keyboard only: create a section, move it, delete it, and download an instructor calendar (.ics)', async ({ page, app }) => {
  await app.api('/data/sample', { method: 'POST' });
  await signIn(page, app);
  await goTo(page, 'scheduler');

  // Create: New section, then the form, without the mouse.
  await tabTo(page, page.getByTestId('new-section'));
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('entry-form')).toBeVisible();
  await tabTo(page, page.getByTestId('entry-course'));
  await page.keyboard.type('CSC201');
  await page.keyboard.press('ArrowDown');
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('entry-course')).toHaveValue(/^CSC201 — /);
  await tabTo(page, page.getByTestId('entry-room'));
  await page.keyboard.type('Bassil 105');
  await tabTo(page, page.getByTestId('entry-save'));
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('entry-form')).toHaveCount(0);
  const created = (await app.api<Entry[]>('/scheduler/')).find((e) => e.course_code === 'CSC201');
  expect(created).toMatchObject({ day: 'MWF', start_time: '09:00', room: 'Bassil 105' });
  const id = created?.id ?? 0;

  // Move: the section on the calendar takes the focus, Enter opens it, a new start time is typed.
  const onMonday = page.locator(`td.fc-timegrid-col[data-date="2024-01-01"] .fc-event:has([data-entry-id="${id}"])`);
  await tabTo(page, onMonday, 400);
  await expect(onMonday).toHaveAttribute('aria-label', /^CSC201 §1, Monday 09:00–10:00, Bassil 105, no instructor yet$/);
  await page.keyboard.press('Enter');
  await tabTo(page, page.getByTestId('entry-start'));
  await page.keyboard.press('ControlOrMeta+a');
  await page.keyboard.type('11:00');
  await tabTo(page, page.getByTestId('entry-save'));
  await page.keyboard.press('Enter');
  await expect.poll(async () => (await app.api<Entry[]>('/scheduler/')).find((e) => e.id === id)?.start_time).toBe('11:00');
  // The block's accessible name and hover text follow the move.
  await expect(onMonday).toHaveAttribute('aria-label', 'CSC201 §1, Monday 11:00–12:00, Bassil 105, no instructor yet');
  await expect(onMonday).toHaveAttribute('title', 'CSC201 §1, Monday 11:00–12:00, Bassil 105, no instructor yet');

  // Delete it the same way.
  await tabTo(page, onMonday, 400);
  await page.keyboard.press('Enter');
  await tabTo(page, page.getByTestId('entry-delete'));
  await page.keyboard.press('Enter');
  await expect.poll(async () => (await app.api<Entry[]>('/scheduler/')).some((e) => e.id === id)).toBe(false);

  // One instructor's week as a calendar file, read back by a calendar library.
  const doctors = await app.api<{ id: number; name: string }[]>('/scheduler/doctors');
  const doctor = doctors.find((d) => d.name === 'Dr. Karim Nassar');
  if (!doctor) throw new Error('The sample has no Dr. Karim Nassar');
  const taught = await app.api<Entry>('/scheduler/', {
    method: 'POST',
    json: { course_code: 'CSC243', section_name: '2', doctor_id: doctor.id, day: 'TR', start_time: '11:00', duration_mins: 75, room: 'Bassil 101' },
  });
  await page.reload();
  await page.getByTestId('filter-doctor').click();
  await page.getByRole('option', { name: doctor.name, exact: true }).click();
  const download = page.waitForEvent('download');
  await page.getByTestId('export-ics').click();
  const file = await (await download).path();
  const calendar = new ICAL.Component(ICAL.parse(readFileSync(file, 'utf8')) as unknown[]);
  const events = calendar.getAllSubcomponents('vevent').map((v) => new ICAL.Event(v));
  expect(events.map((e) => e.summary)).toEqual([`CSC243 section 2`]);
  const [event] = events;
  expect(event?.startDate.toJSDate().getHours()).toBe(11);
  expect(event?.duration.toSeconds()).toBe(75 * 60);
  expect(event?.component.getFirstPropertyValue('rrule')?.toString()).toMatch(/BYDAY=TU,TH/);
  expect(taught.day).toBe('TR');
});
