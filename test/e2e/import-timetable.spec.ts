import { test, expect, goTo, screenshot, signIn } from './fixtures';

const LISTING = [
  'Subject,Number,Section,Days of Week,Start Time,End Time,Building,Room,Instructors,Year,Term',
  'CS,374,AL1,TR,09:30 AM,10:45 AM,Siebel,1404,"Erickson, J",2025,Fall',
  'ECE,374,AL1,TR,09:30 AM,10:45 AM,Siebel,1404,"Erickson, J",2025,Fall',
  'MATH,221,A1,MWF,09:00 AM,09:50 AM,Altgeld,145,"Lead, A;Taylor, B",2025,Fall',
  'MATH,221,A2,MWF,09:00 AM,09:50 AM,Altgeld,147,"Lead, A;Young, C",2025,Fall',
  'PHYS,211,A,MWF,09:00 AM,09:50 AM,Altgeld,145,"Ng, P",2025,Fall',
  'PHYS,498,IND,,ARRANGED,,,,"Ng, P",2025,Fall',
].join('\n');

test('imports a registrar listing: preview, a role decided by staff, then applied and drawn', async ({ page, app }) => {
  await app.api('/scheduler/settings', { method: 'PATCH', json: { current_term: { year: 2025, semester: 'Fall' } } });
  await signIn(page, app);
  await goTo(page, 'scheduler');
  await page.getByTestId('import-timetable-open').click();
  const dialog = page.getByTestId('import-timetable');
  await dialog.locator('input[type=file]').setInputFiles({ name: 'fall-2025.csv', mimeType: 'text/csv', buffer: Buffer.from(LISTING) });

  // The dry run: the joint pair found, Lead coordinating the parallel MATH221 sections, PHYS211 refused on the room.
  await expect(page.getByTestId('import-timetable-counts')).toContainText('Would store 4 meetings of 4 sections from 6 rows; 1 clash to look at.');
  await expect(page.getByTestId('import-joint-groups')).toContainText('CS374/ECE374 AL1');
  await expect(page.getByTestId('import-joint-groups')).toContainText('same room, time and instructor');
  await expect(page.getByTestId('import-roles')).toContainText('Lead, A');
  await expect(page.getByTestId('import-conflicts')).toContainText('Room Altgeld 145 is already booked by MATH221 section A1');
  // Each clash shows both rows of the file.
  await expect(page.getByTestId('import-conflicts')).toContainText('row 4: MATH221 §A1');
  // The arranged row is a section without a time, kept (not a skipped row).
  await expect(page.getByTestId('import-untimed')).toContainText('Would keep 1 section without a time');
  await screenshot(page, 'import-timetable-preview');
  // Nothing is stored by the preview.
  expect(await app.api<unknown[]>('/scheduler/?year=2025&semester=Fall')).toEqual([]);

  // Staff say Lead teaches: the parallel section becomes a real double-booking in the preview.
  await page.getByRole('combobox', { name: 'Role of Lead, A' }).click();
  await page.getByRole('option', { name: 'Teaches (checked)' }).click();
  await expect(page.getByTestId('import-timetable-counts')).toContainText('Would store 3 meetings of 3 sections from 6 rows; 2 clashes to look at.');
  await page.getByRole('combobox', { name: 'Role of Lead, A' }).click();
  await page.getByRole('option', { name: 'Coordinates (not checked)' }).click();
  await expect(page.getByTestId('import-timetable-counts')).toContainText('Would store 4 meetings');

  await page.getByTestId('import-timetable-apply').click();
  await expect(page.getByTestId('import-timetable-counts')).toContainText('Stored 4 meetings of 4 sections');
  await page.getByRole('button', { name: 'Close', exact: true }).click();
  await expect(page.locator('.fc-event', { hasText: 'CS374 / ECE374 §AL1' })).toHaveCount(2);
  const stored = await app.api<{ course_code: string; doctors: { name: string; role: string }[] }[]>('/scheduler/?year=2025&semester=Fall');
  expect(stored.map((e) => e.course_code)).toEqual(['CS374', 'ECE374', 'MATH221', 'MATH221']);
  expect(stored[2]?.doctors).toEqual([
    expect.objectContaining({ name: 'Lead, A', role: 'coordinates' }),
    expect.objectContaining({ name: 'Taylor, B', role: 'teaches' }),
  ]);
});
