import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import ExcelJS from 'exceljs';
import { startTestServer, json, type TestServer } from '../helpers/server';
import { saveRun } from '../helpers/runs';
import type { PredictionEntry, PredictionRun } from '../../core/predict/schema';
import type { DashboardMetrics } from '../../core/dashboard/service';
import type { ScheduleEntry } from '../../core/timetable/schema';

let server: TestServer;
beforeEach(async () => {
  server = await startTestServer();
});
afterEach(async () => {
  await server.close();
});

const decide = (runId: number, code: string, body: unknown): Promise<Response> =>
  server.api(`/predict/runs/${runId}/entries/${encodeURIComponent(code)}`, { method: 'PATCH', json: body });
const decided = async (runId: number, code: string, body: unknown): Promise<PredictionEntry> => {
  const response = await decide(runId, code, body);
  expect(response.status, await response.clone().text()).toBe(200);
  return json<PredictionEntry>(response);
};
const detail = async (response: Response): Promise<string> => (await json<{ detail: string }>(response)).detail;
const entryOf = (run: PredictionRun, code: string): PredictionEntry | undefined => run.entries.find((e) => e.course_code === code);

async function sampleRun(): Promise<number> {
  return saveRun(server.core.context.db, 'Beirut', [
    { code: 'CSC310', enrollment: 100, sections: 3 },
    { code: 'CSC320', enrollment: 25, sections: 1 },
    { code: 'CSC498', enrollment: 8, sections: 0, offer: false },
    { code: 'CSC463/BIF463', enrollment: 20, sections: 1 },
  ]);
}

describe('PATCH /predict/runs/{id}/entries/{course_code}: staff decisions beside the model', () => {
  it("records offer/skip, sections and a reason, keeps the model's own decision beside them, and clears with null", async () => {
    const runId = await sampleRun();
    const fresh = entryOf(await json<PredictionRun>(await server.api(`/predict/runs/${runId}`)), 'CSC310');
    expect(fresh).toMatchObject({
      offer: true,
      projected_sections: 3,
      staff_decision: null,
      staff_sections: null,
      staff_reason: null,
      decided_at: null,
      planned_offer: true,
      planned_sections: 3,
    });

    // "Two sections of CSC310, not three": a number of sections alone means offer.
    const two = await decided(runId, 'csc 310', { sections: 2, reason: 'One room fewer this term' });
    expect(two).toMatchObject({
      course_code: 'CSC310',
      offer: true,
      projected_sections: 3,
      staff_decision: 'offer',
      staff_sections: 2,
      staff_reason: 'One room fewer this term',
      planned_offer: true,
      planned_sections: 2,
    });
    expect(Date.parse(two.decided_at ?? '')).not.toBeNaN();
    // "We offer CSC498 anyway": the model said no; the plan opens one section (the model's count, at least one).
    expect(await decided(runId, 'CSC498', { decision: 'offer', reason: 'Accreditation visit' })).toMatchObject({
      offer: false,
      staff_decision: 'offer',
      planned_offer: true,
      planned_sections: 1,
    });
    // Skipping a course: the model's yes stays visible; the plan drops it.
    expect(await decided(runId, 'CSC320', { decision: 'skip' })).toMatchObject({
      offer: true,
      staff_decision: 'skip',
      staff_sections: null,
      planned_offer: false,
      planned_sections: 0,
    });
    // A cross-listed course is found by any of its codes.
    expect(await decided(runId, 'BIF463', { decision: 'skip', reason: 'Instructor retired' })).toMatchObject({
      course_code: 'CSC463/BIF463',
      planned_offer: false,
    });
    // Changing the reason alone keeps the decision.
    expect(await decided(runId, 'CSC310', { reason: 'Room shortage' })).toMatchObject({
      staff_decision: 'offer',
      staff_sections: 2,
      staff_reason: 'Room shortage',
    });

    const run = await json<PredictionRun>(await server.api(`/predict/runs/${runId}`));
    expect(run.entries.map((e) => [e.course_code, e.offer, e.planned_offer, e.planned_sections])).toEqual([
      ['CSC310', true, true, 2],
      ['CSC320', true, false, 0],
      ['CSC498', false, true, 1],
      ['CSC463/BIF463', true, false, 0],
    ]);
    // The Dashboard counts the plan.
    expect(await json<DashboardMetrics>(await server.api('/dashboard/metrics'))).toMatchObject({ latest_run_id: runId, total_recommended_offerings: 2 });

    // null clears staff's decision: the model's stands again.
    expect(await decided(runId, 'CSC320', { decision: null })).toMatchObject({
      staff_decision: null,
      staff_sections: null,
      staff_reason: null,
      decided_at: null,
      planned_offer: true,
      planned_sections: 1,
    });
  });

  it('refuses what cannot be meant, field by field, and changes nothing', async () => {
    const runId = await sampleRun();
    const before = await (await server.api(`/predict/runs/${runId}`)).text();
    for (const [body, field] of [
      [{ decision: 'skip', sections: 2 }, 'sections'],
      [{ decision: 'maybe' }, 'decision'],
      [{ sections: 0 }, 'sections'],
      [{ sections: 1.5 }, 'sections'],
      [{ sections: 1001 }, 'sections'],
      [{ reason: 'x'.repeat(501) }, 'reason'],
      [{}, 'decision'],
      [{ decision: 'offer', extra: 1 }, ''],
      [{ reason: 'No decision yet to explain' }, 'decision'],
    ] as const) {
      const response = await decide(runId, 'CSC320', body);
      expect(response.status, JSON.stringify(body)).toBe(422);
      expect(await detail(response), JSON.stringify(body)).toMatch(new RegExp(`Not accepted — .*\\(?${field}\\)?`));
    }
    expect(await detail(await decide(runId, 'MTH999', { decision: 'offer' }))).toBe(`Run ${runId} has no course MTH999`);
    expect((await decide(runId, 'MTH999', { decision: 'offer' })).status).toBe(404);
    expect(await detail(await decide(99999, 'CSC320', { decision: 'offer' }))).toBe('No prediction run with id 99999');
    expect((await decide(runId, 'not a code!', { decision: 'offer' })).status).toBe(422);
    expect(await (await server.api(`/predict/runs/${runId}`)).text()).toBe(before);
  });

  it('announces the change to the screens that show runs', async () => {
    const runId = await sampleRun();
    const changes: unknown[] = [];
    server.core.events.subscribe((e) => {
      if (e.type === 'changed') changes.push(e);
    });
    await decided(runId, 'CSC310', { decision: 'skip' });
    expect(changes).toEqual([expect.objectContaining({ areas: ['runs'] })]);
  });

  it('exports both decisions and compares plans', async () => {
    const first = await sampleRun();
    const second = await sampleRun();
    await decided(second, 'CSC310', { decision: 'skip', reason: 'No instructor' });
    await decided(second, 'CSC498', { sections: 1 });
    const csv = await (await server.api(`/predict/runs/${second}/export?format=csv`)).text();
    const [header, ...lines] = csv
      .replace(/^\uFEFF/, '')
      .trim()
      .split(/\r?\n/);
    expect(header).toContain('Offer,');
    expect(header).toMatch(/Staff Decision,Staff Sections,Staff Reason,Planned Offer,Planned Sections$/);
    expect(lines.find((l) => l.includes('CSC310'))).toMatch(/,yes,.*,skip,,No instructor,no,0$/);
    expect(lines.find((l) => l.includes('CSC498'))).toMatch(/,no,.*,offer,1,,yes,1$/);
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(await (await server.api(`/predict/runs/${second}/export`)).arrayBuffer());
    const sheet = workbook.worksheets[0];
    const headers = (sheet?.getRow(1).values as unknown[]).slice(1);
    const row = sheet?.getRows(2, 4)?.find((r) => r.getCell(2).value === 'CSC310');
    expect(row?.getCell(headers.indexOf('Staff Reason') + 1).value).toBe('No instructor');

    const changes = await json<{ added: PredictionEntry[]; dropped: PredictionEntry[] }>(await server.api(`/predict/runs/${second}/compare?since=${first}`));
    expect(changes.added.map((e) => e.course_code)).toEqual(['CSC498']);
    expect(changes.dropped).toEqual([expect.objectContaining({ course_code: 'CSC310', offer: true, staff_decision: 'skip', staff_reason: 'No instructor' })]);
  });

  it('auto-fill drafts the decided plan: skipped courses left out, staff section counts', async () => {
    await server.api('/scheduler/doctors', {
      method: 'POST',
      json: { name: 'Dr. Rana Haddad', allowed_courses: ['CSC310', 'CSC320', 'CSC498'], available_days: 'MTWRF', available_time: '08:00-18:00' },
    });
    await server.api('/scheduler/rooms', { method: 'POST', json: { name: 'B1', capacity: 60, campus: 'Beirut' } });
    const runId = await saveRun(server.core.context.db, 'Beirut', [
      { code: 'CSC310', enrollment: 100, sections: 3 },
      { code: 'CSC320', enrollment: 25, sections: 1 },
      { code: 'CSC498', enrollment: 8, sections: 0, offer: false },
    ]);
    await decided(runId, 'CSC310', { sections: 2 });
    await decided(runId, 'CSC320', { decision: 'skip' });
    await decided(runId, 'CSC498', { decision: 'offer' });
    const response = await server.api('/scheduler/auto', { method: 'POST', json: { run_id: runId, year: 2025, semester: 'Fall' } });
    expect(response.status, await response.clone().text()).toBe(200);
    const { placed } = await json<{ placed: ScheduleEntry[] }>(response);
    expect(placed.map((e) => `${e.course_code}-${e.section_name}`).sort()).toEqual(['CSC310-1', 'CSC310-2', 'CSC498-1']);
  });
});
