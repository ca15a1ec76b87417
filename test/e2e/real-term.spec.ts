import { readFileSync } from 'node:fs';
import { test, expect, goTo, screenshot, signIn, type TimetableEntry } from './fixtures';
import { realDataFile } from '../helpers/real-data';
import { pdfPageTexts } from '../helpers/pdf-text';

/**
 * A real department's term at the size staff import and browse: the University of Illinois summer
 * 2018 timetable (≈500 timed meetings, 60+ rooms, parts of term), its sessions' dates set.
 */
const LISTING = realDataFile('uiuc-timetable/2018-su.csv');

test.use({ dataFiles: { 'campuses.json': '["Urbana"]' } });

const SESSIONS = [
  { code: 'S1', name: 'Summer session I', start_date: '2018-05-15', end_date: '2018-06-09' },
  { code: 'S2', name: 'Summer session II', start_date: '2018-06-12', end_date: '2018-08-04' },
  { code: 'S2A', name: 'Summer II, first half', start_date: '2018-06-12', end_date: '2018-07-07' },
  { code: 'S2B', name: 'Summer II, second half', start_date: '2018-07-10', end_date: '2018-08-04' },
];

type Entry = TimetableEntry & { part_of_term: string; section_name: string };

/** Where the real data is absent the test is not defined, and says why in the test output. */
if (LISTING === null) {
  console.log('Not running the real summer term: the real UIUC data is not next to this checkout (../shared/data; see docs/configuration.md, "Real data")');
} else {
  test('the real summer 2018 term: imported, drawn by week, room and instructor, filtered by part of term, printed and exported', async ({ page, app }) => {
    test.setTimeout(180_000);
    for (const part of SESSIONS) await app.api('/scheduler/parts', { method: 'POST', json: { year: 2018, semester: 'Summer', ...part } });
    const form = new FormData();
    form.append('file', new Blob([readFileSync(LISTING)]), '2018-su.csv');
    form.append('dry_run', 'false');
    form.append('year', '2018');
    form.append('semester', 'Summer');
    const imported = await app.api<{ meetings: number }>('/scheduler/import', { method: 'POST', body: form });
    expect(imported.meetings).toBeGreaterThan(450);
    await app.api('/scheduler/settings', { method: 'PATCH', json: { current_term: { year: 2018, semester: 'Summer' } } });
    const entries = await app.api<Entry[]>('/scheduler/?year=2018&semester=Summer');
    const occurrences = entries.reduce((sum, e) => sum + e.day.length, 0);
    const rooms = new Set(entries.map((e) => e.room));
    expect(rooms.size).toBeGreaterThan(60);

    await page.setViewportSize({ width: 1366, height: 768 });
    await signIn(page, app);
    await goTo(page, 'scheduler');
    // The week: every meeting drawn or counted in a fold, no course code cut.
    const accounted = async (): Promise<number> =>
      page.evaluate(() => {
        const doc = (globalThis as unknown as { document: { querySelectorAll(s: string): ArrayLike<{ getAttribute(n: string): string | null }> } }).document;
        const counted = Array.from(doc.querySelectorAll('[data-testid="slot-more"]')).reduce((sum, b) => sum + Number(b.getAttribute('data-count') ?? 0), 0);
        return doc.querySelectorAll('[data-entry-id]').length + counted;
      });
    // Joint sections meeting together share a block: at least one block per meeting time, at most one per section.
    await expect.poll(accounted, { timeout: 30_000 }).toBeGreaterThan(occurrences * 0.8);
    expect(await accounted()).toBeLessThanOrEqual(occurrences);
    await screenshot(page, 'real-summer-week');

    // By room: a row per room, every meeting listed, every course code whole.
    await page.getByTestId('view-switch').getByText('By room').click();
    await expect(page.getByTestId('resource-row').first()).toBeVisible();
    // The rows in view come first and the rest just after: both counts are read once every row is drawn.
    await expect.poll(() => page.getByTestId('resource-row').count()).toBeGreaterThanOrEqual(rooms.size);
    const meetingsListed = () =>
      page.getByTestId('resource-meeting').evaluateAll((els) => els.reduce((sum, el) => sum + (el.getAttribute('data-entries') ?? '').split(',').length, 0));
    await expect.poll(meetingsListed).toBe(occurrences);
    const listed = await meetingsListed();
    await screenshot(page, 'real-summer-by-room');
    // Printed by room for the whole term, the codes read back from the PDF.
    const pdf = await page.pdf({ format: 'A4', landscape: true, printBackground: true, preferCSSPageSize: true });
    const text = (await pdfPageTexts(pdf)).join(' ');
    const missing = [...new Set(entries.map((e) => e.course_code))].filter((code) => !text.replace(/\s+/g, '').includes(code.replace(/\s+/g, '')));
    expect(missing).toEqual([]);

    await page.getByTestId('view-switch').getByText('By instructor').click();
    await expect(page.getByTestId('resource-row').first()).toBeVisible();

    // One part of term: only its sections.
    await page.getByTestId('filter-part').click();
    await page.getByRole('option', { name: /^S1 — / }).click();
    const inS1 = entries.filter((e) => e.part_of_term === 'S1');
    expect(inS1.length).toBeGreaterThan(0);
    const shownInS1 = await page
      .getByTestId('resource-meeting')
      .evaluateAll((els) => els.reduce((sum, el) => sum + (el.getAttribute('data-entries') ?? '').split(',').length, 0));
    expect(shownInS1).toBeLessThan(listed);

    // Exported as a spreadsheet.
    const download = page.waitForEvent('download');
    await page.getByTestId('export-xlsx').click();
    expect((await download).suggestedFilename()).toMatch(/\.xlsx$/);
  });
}
