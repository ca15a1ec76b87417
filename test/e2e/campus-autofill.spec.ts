import { test, expect, goTo, screenshot, seriousProblems, signInWithPassword, asRegistrarIn } from './fixtures';

/**
 * The registrar's auto-fill of the whole campus, in two browsers: the registrar drafts it on the
 * Campus screen and reads each department's part; a department's scheduler sees their part in their
 * own Scheduler, read-only, on the week; the registrar applies it and the scheduler's notice goes.
 */

const TERM = { year: 2031, semester: 'Fall' } as const;

test("the registrar drafts the whole campus, a department's scheduler reviews its part read-only, the registrar applies it", async ({ app, browser }) => {
  test.setTimeout(150_000);
  await app.api('/people', { method: 'POST', json: { login: 'rana', name: 'Rana Registrar', role: 'registrar', password: 'registrar password 1' } });
  for (const code of ['MTH', 'PHY']) {
    const made = await app.api<{ id: number }>('/departments', { method: 'POST', json: { code, name: `${code} department` } });
    await app.api('/people', {
      method: 'POST',
      json: { login: code.toLowerCase(), name: `${code} Scheduler`, role: 'scheduler', department_id: made.id, password: `${code} scheduler password` },
    });
  }
  await app.api('/scheduler/rooms', { method: 'POST', json: { name: 'Hall A', capacity: 40 } });
  await app.api('/scheduler/rooms', { method: 'POST', json: { name: 'Hall B', capacity: 40 } });
  await app.api('/scheduler/settings', { method: 'PATCH', json: { current_term: TERM } });
  for (const code of ['MTH', 'PHY']) await asRegistrarIn(app, code, '/scheduler/settings', { method: 'PATCH', json: { current_term: TERM } });
  // Two sections of one course at one hour in each department: a rebuild sets them apart.
  for (const [code, course] of [
    ['MTH', 'MTH101'],
    ['PHY', 'PHY101'],
  ] as const)
    for (const [section, room] of [
      ['1', 'Hall A'],
      ['2', 'Hall B'],
    ] as const)
      await asRegistrarIn(app, code, '/scheduler/', {
        method: 'POST',
        json: { ...TERM, course_code: course, section_name: section, day: code === 'MTH' ? 'MW' : 'TR', start_time: '09:00', duration_mins: 75, room },
      });

  const registrar = await signInWithPassword(browser, app, 'rana', 'registrar password 1');
  await registrar.getByTestId('nav-campus').click();
  await expect(registrar.getByRole('heading', { level: 2, name: 'Campus week' })).toBeVisible();
  await registrar.getByTestId('campus-autofill-open').click();
  await registrar.getByTestId('campus-autofill-rebuild').check();
  await registrar.getByTestId('campus-autofill-draft').click();
  await expect(registrar.getByTestId('campus-autofill-headline')).toContainText(/Moves \d+ meetings in 2 departments; 0 left without a time/);
  await expect(registrar.getByTestId('campus-part-MTH')).toBeVisible();
  await expect(registrar.getByTestId('campus-part-PHY')).toBeVisible();
  expect(await seriousProblems(registrar, '.mantine-Modal-content')).toEqual([]);
  await registrar.setViewportSize({ width: 1366, height: 768 });
  await screenshot(registrar, 'campus-autofill-registrar');

  // MTH's scheduler sees MTH's part only, on their own week, and cannot apply it.
  const mth = await signInWithPassword(browser, app, 'mth', 'MTH scheduler password');
  await goTo(mth, 'scheduler');
  const notice = mth.getByTestId('campus-draft-notice');
  await expect(notice).toContainText(/MTH: \d+ meetings? moved/);
  await expect(notice).not.toContainText('PHY');
  await mth.getByTestId('campus-draft-review').click();
  await expect(mth.getByTestId('autofill-summary')).toContainText(/Draft: moves \d+ meetings?/);
  await expect(mth.getByTestId('autofill-read-only')).toContainText('the registrar applies it');
  await expect(mth.getByTestId('autofill-apply')).toHaveCount(0);
  await expect(mth.getByTestId('autofill-summary')).not.toContainText('PHY101');
  await screenshot(mth, 'campus-autofill-department-part');
  await mth.getByTestId('autofill-close').click();

  // The registrar reads the draft on the campus week: moved meetings at their new places, saying where they were.
  await registrar.getByTestId('campus-autofill-show').click();
  await expect(registrar.getByTestId('campus-draft-shown')).toBeVisible();
  await expect(registrar.getByRole('dialog')).toHaveCount(0);
  await expect(registrar.getByTestId('campus-draft-booking').first()).toContainText(/draft: was (MW|TR) 09:00 in Hall [AB]/);
  await screenshot(registrar, 'campus-autofill-on-the-week');
  await registrar.getByTestId('campus-draft-back').click();
  // The registrar applies the whole draft: MTH's notice goes without a reload.
  await registrar.getByTestId('campus-autofill-apply').click();
  await expect(registrar.getByText('Campus auto-fill applied')).toBeVisible();
  await expect(notice).toHaveCount(0);
  await expect(registrar.getByTestId('campus-draft-shown')).toHaveCount(0);
  await expect(registrar.getByTestId('campus-draft-booking')).toHaveCount(0);
});
