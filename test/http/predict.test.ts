import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { loadSample, startTestServer, json, type TestServer } from '../helpers/server';
import type { PredictionEntry, PredictionRun, TrainResult } from '../../core/predict/schema';
import type { DashboardMetrics } from '../../core/dashboard/service';
import type { CoreEvent, ProgressEvent } from '../../core/events';
import type { Doctor } from '../../core/faculty/schema';
import { mayTeach } from '../../core/domain/teaching';
import { storedList } from '../../core/domain/lists';
import ExcelJS from 'exceljs';

const bulk = (server: TestServer, body: Record<string, unknown>): Promise<Response> => server.api('/predict/bulk', { method: 'POST', json: body });
const base = { run_name: 'Plan', target_year: 2025, target_semester: 'Spring', target_campus: 'Beirut' };
const detail = async (response: Response): Promise<string> => (await json<{ detail: string }>(response)).detail;

describe('prediction on the sample data', () => {
  let server: TestServer;
  let trained: TrainResult;
  const events: CoreEvent[] = [];
  beforeAll(async () => {
    server = await startTestServer();
    await loadSample(server);
    server.core.events.subscribe((e) => events.push(e));
    const response = await server.api('/predict/train', { method: 'POST' });
    expect(response.status).toBe(200);
    trained = await json<TrainResult>(response);
  });
  afterAll(async () => {
    await server.close();
  });

  it('trains one model per campus and reports samples and holdout quality', () => {
    expect(trained.model_version).toMatch(/\S/);
    expect(Object.keys(trained.campuses).sort()).toEqual(['Beirut', 'Byblos']);
    let total = 0;
    for (const campus of ['Beirut', 'Byblos']) {
      const c = trained.campuses[campus];
      expect(c, campus).toMatchObject({
        samples: expect.any(Number) as number,
        positives: expect.any(Number) as number,
        threshold: expect.any(Number) as number,
        duration_ms: expect.any(Number) as number,
      });
      expect(c?.samples).toBeGreaterThan(1000);
      expect(c?.positives).toBeLessThan(c?.samples ?? 0);
      expect(c?.roc_auc).toBeGreaterThan(0.75);
      expect(c?.roc_auc).toBeLessThanOrEqual(1);
      expect(c?.f1).toBeGreaterThan(0.6);
      total += c?.samples ?? 0;
    }
    expect(trained.samples_trained).toBe(total);
  });

  it('reports training progress per campus as events', () => {
    const progress = events.filter((e): e is ProgressEvent => e.type === 'progress' && e.task === 'train');
    expect(new Set(progress.map((e) => e.campus).filter(Boolean))).toEqual(new Set(['Beirut', 'Byblos']));
    expect(progress.at(-1)).toMatchObject({ stage: 'done', percent: 100 });
    expect(progress.every((e) => e.percent >= 0 && e.percent <= 100)).toBe(true);
  });

  it('gives the term after the latest Fall/Spring record', async () => {
    expect(await json(await server.api('/predict/next-term'))).toEqual({ year: 2025, semester: 'Spring' });
  });

  it('scores every catalog course with every entry field', async () => {
    const response = await bulk(server, { ...base, run_name: 'Spring plan' });
    expect(response.status).toBe(200);
    const run = await json<PredictionRun>(response);
    expect(run).toMatchObject({
      id: expect.any(Number) as number,
      run_name: 'Spring plan',
      target_year: 2025,
      target_semester: 'Spring',
      target_campus: 'Beirut',
      model_version: trained.model_version,
    });
    expect(new Date(run.created_at).toISOString()).toBe(run.created_at);
    const courses = await json<{ code: string; name: string }[]>(await server.api('/data/courses'));
    expect(run.entries.map((e) => e.course_code).sort()).toEqual(courses.map((c) => c.code).sort());
    for (const e of run.entries) {
      expect(Object.keys(e).sort()).toEqual(
        [
          'bottleneck_score',
          'confidence',
          'course_code',
          'course_name',
          'enrollment_high',
          'enrollment_low',
          'latent_demand',
          'offer',
          'offer_score',
          'predicted_enrollment',
          'prefix',
          'projected_sections',
          'reasons',
          'section_size',
          'types',
          // Staff's decision (none yet) and the plan it makes with the model's.
          'staff_decision',
          'staff_sections',
          'staff_reason',
          'decided_at',
          'planned_offer',
          'planned_sections',
        ].sort(),
      );
      expect(e).toMatchObject({
        staff_decision: null,
        staff_sections: null,
        staff_reason: null,
        decided_at: null,
        planned_offer: e.offer,
        planned_sections: e.projected_sections,
      });
      expect(e.confidence).toBeGreaterThanOrEqual(0);
      expect(e.confidence).toBeLessThanOrEqual(1);
      expect(e.offer_score).toBeCloseTo(e.confidence * 100, 1);
      expect(Number.isInteger(e.predicted_enrollment) && e.predicted_enrollment >= 0).toBe(true);
      expect(Number.isInteger(e.latent_demand) && Number.isInteger(e.bottleneck_score)).toBe(true);
      // The 80 % range holds the estimate; sections are worked out with the seat size the entry states.
      expect(Number.isInteger(e.enrollment_low) && Number.isInteger(e.enrollment_high)).toBe(true);
      expect(e.enrollment_low).toBeLessThanOrEqual(e.predicted_enrollment);
      expect(e.enrollment_high).toBeGreaterThanOrEqual(e.predicted_enrollment);
      expect(e.section_size).toBe(40);
      expect(e.projected_sections).toBe(e.offer ? Math.max(1, Math.ceil(e.predicted_enrollment / e.section_size)) : 0);
      expect(e.reasons.length).toBeGreaterThanOrEqual(1);
      expect(e.reasons.length).toBeLessThanOrEqual(3);
      expect(e.course_name).toBe(courses.find((c) => c.code === e.course_code)?.name);
    }
    const offered = run.entries.filter((e) => e.offer);
    const skipped = run.entries.filter((e) => !e.offer);
    expect(offered.length).toBeGreaterThan(20);
    expect(skipped.length).toBeGreaterThan(20);
    expect(Math.min(...offered.map((e) => e.confidence))).toBeGreaterThanOrEqual(Math.max(...skipped.map((e) => e.confidence)));
    expect(run.entries.map((e) => e.offer_score)).toEqual([...run.entries.map((e) => e.offer_score)].sort((a, b) => b - a));
    const cross = run.entries.find((e) => e.course_code === 'CSC463/BIF463');
    expect(cross).toMatchObject({ prefix: 'CSC', types: ['core', 'elective'] });
    const calculus = run.entries.find((e) => e.course_code === 'MTH101');
    expect(calculus?.bottleneck_score).toBeGreaterThan(10);
  });

  it('explains with sentences drawn from the history', async () => {
    const run = await json<PredictionRun>(await bulk(server, { ...base, target_campus: 'Byblos', target_semester: 'Fall', target_year: 2025 }));
    const all = run.entries.flatMap((e) => e.reasons);
    expect(all.some((r) => /^Offered every Fall for the last 4 years$/.test(r))).toBe(true);
    expect(all.some((r) => /^\d+ students passed its prerequisites in the last two terms$/.test(r))).toBe(true);
    expect(all.some((r) => /^(Never offered at Byblos|Not offered since (Fall|Spring) \d{4})$/.test(r))).toBe(true);
  });

  it('says when a course has only ever been offered in the other semester', async () => {
    // MTH215 and CSC520 run every Spring at Beirut and have never run in a Fall there.
    const fall = await json<PredictionRun>(await bulk(server, { ...base, target_semester: 'Fall', target_year: 2025 }));
    for (const code of ['MTH215', 'CSC520']) {
      const entry = fall.entries.find((e) => e.course_code === code);
      expect(entry?.offer).toBe(false);
      expect(entry?.reasons).toContain('Only ever offered in Spring at Beirut, never in Fall');
    }
    const spring = await json<PredictionRun>(await bulk(server, base));
    for (const code of ['MTH215', 'CSC520']) {
      const entry = spring.entries.find((e) => e.course_code === code);
      expect(entry?.offer).toBe(true);
      expect(entry?.reasons.join(' ')).not.toMatch(/Only ever offered/);
    }
  });

  it('moves demand and sections of gateway courses with the cohort inputs', async () => {
    const plain = await json<PredictionRun>(await bulk(server, base));
    const cohorts = await json<PredictionRun>(await bulk(server, { ...base, new_freshman: 300, new_sophomores: 200, new_masters: 90 }));
    const by = (run: PredictionRun, code: string): PredictionEntry => run.entries.find((e) => e.course_code === code) as PredictionEntry;
    // MTH101: level 1 (freshman gateway); CSC243: level-2 core whose prerequisite CSC202 is level 2 (not a sophomore gateway).
    expect(by(cohorts, 'MTH101').predicted_enrollment - by(plain, 'MTH101').predicted_enrollment).toBe(150);
    expect(by(cohorts, 'MTH101').latent_demand - by(plain, 'MTH101').latent_demand).toBe(150);
    expect(by(cohorts, 'MTH101').reasons.join(' ')).toMatch(/300 new freshmen/);
    // STA201: level-2 core whose only prerequisite (MTH101) is level 1.
    expect(by(cohorts, 'STA201').predicted_enrollment - by(plain, 'STA201').predicted_enrollment).toBe(100);
    expect(by(cohorts, 'CSC510').latent_demand - by(plain, 'CSC510').latent_demand).toBe(30);
    expect(by(cohorts, 'CSC243').predicted_enrollment).toBe(by(plain, 'CSC243').predicted_enrollment);
    expect(by(cohorts, 'CSC425').predicted_enrollment).toBe(by(plain, 'CSC425').predicted_enrollment);
    const offeredGateway = cohorts.entries.find((e) => e.course_code === 'MTH101' && e.offer);
    if (offeredGateway) expect(offeredGateway.projected_sections).toBeGreaterThan(by(plain, 'MTH101').projected_sections);
  });

  it('fills the quota slots in order with the highest-scoring eligible courses', async () => {
    const slots = { csc_core: 5, csc_elective: 2, bif_core: 3, bif_elective: 1, mth: 4, sta: 2 };
    const run = await json<PredictionRun>(await bulk(server, { ...base, use_quotas: true, slots }));
    const chosen = new Set(run.entries.filter((e) => e.offer).map((e) => e.course_code));
    // Independent re-derivation of the rule from the entries.
    const expected = new Set<string>();
    const ranked = [...run.entries].sort((a, b) => b.offer_score - a.offer_score || a.course_code.localeCompare(b.course_code));
    const rules: [keyof typeof slots, string, string | null][] = [
      ['csc_core', 'CSC', 'core'],
      ['csc_elective', 'CSC', 'elective'],
      ['bif_core', 'BIF', 'core'],
      ['bif_elective', 'BIF', 'elective'],
      ['mth', 'MTH', null],
      ['sta', 'STA', null],
    ];
    for (const [slot, prefix, type] of rules) {
      const picks = ranked
        .filter(
          (e) =>
            !expected.has(e.course_code) &&
            !e.types.includes('masters') &&
            !e.types.includes('minor') &&
            e.course_code.split('/').some((c) => c.startsWith(prefix)) &&
            (type === null || e.types.includes(type)),
        )
        .slice(0, slots[slot]);
      for (const p of picks) expected.add(p.course_code);
    }
    expect(chosen).toEqual(expected);
    expect(chosen.size).toBe(17);
    expect(run.entries.filter((e) => e.offer).every((e) => !e.types.includes('masters') && !e.types.includes('minor'))).toBe(true);
    expect(run.entries.filter((e) => !e.offer).every((e) => e.projected_sections === 0)).toBe(true);
  });

  it('lets a cross-listed code fill a slot of any of its prefixes', async () => {
    const only = (s: Partial<Record<string, number>>): Record<string, number> => ({
      csc_core: 0,
      csc_elective: 0,
      bif_core: 0,
      bif_elective: 0,
      mth: 0,
      sta: 0,
      ...s,
    });
    const viaBif = await json<PredictionRun>(await bulk(server, { ...base, use_quotas: true, slots: only({ bif_core: 50 }) }));
    expect(viaBif.entries.find((e) => e.course_code === 'CSC463/BIF463')?.offer).toBe(true);
    expect(viaBif.entries.filter((e) => e.offer).every((e) => e.course_code.includes('BIF'))).toBe(true);
    const viaCscElective = await json<PredictionRun>(await bulk(server, { ...base, use_quotas: true, slots: only({ csc_elective: 50 }) }));
    expect(viaCscElective.entries.find((e) => e.course_code === 'CSC463/BIF463')?.offer).toBe(true);
    const none = await json<PredictionRun>(await bulk(server, { ...base, use_quotas: true, slots: only({}) }));
    expect(none.entries.filter((e) => e.offer)).toEqual([]);
  });

  it.each([
    ['run_name', { run_name: undefined }],
    ['run_name', { run_name: '  ' }],
    ['target_year', { target_year: '2025' }],
    ['target_year', { target_year: 2025.5 }],
    ['target_semester', { target_semester: 'Summer' }],
    ['target_campus', { target_campus: 'Tripoli' }],
    ['new_freshman', { new_freshman: -1 }],
    ['new_masters', { new_masters: 1.5 }],
    ['use_quotas', { use_quotas: 'yes' }],
    ['slots.csc_core', { slots: { csc_core: -2 } }],
    ['slots', { slots: { physics: 3 } }],
  ])('answers 422 naming %s', async (field, overrides) => {
    const response = await bulk(server, { ...base, ...overrides });
    expect(response.status).toBe(422);
    const body = await json<{ detail: string; fields: { field: string }[] }>(response);
    expect(body.fields.map((f) => f.field)).toContain(field);
  });

  it('lists runs newest first, filters by campus, and reads one', async () => {
    const first = await json<PredictionRun>(await bulk(server, { ...base, run_name: 'A', target_campus: 'Byblos' }));
    const second = await json<PredictionRun>(await bulk(server, { ...base, run_name: 'B' }));
    const all = await json<PredictionRun[]>(await server.api('/predict/runs'));
    expect(all[0]?.id).toBe(second.id);
    expect(all.map((r) => r.id)).toEqual([...all.map((r) => r.id)].sort((a, b) => b - a));
    expect(all[0]?.entries).toEqual(second.entries);
    const byblos = await json<PredictionRun[]>(await server.api('/predict/runs?campus=Byblos'));
    expect(byblos.length).toBeGreaterThan(0);
    expect(byblos.every((r) => r.target_campus === 'Byblos')).toBe(true);
    expect(byblos.map((r) => r.id)).toContain(first.id);
    expect(await json(await server.api(`/predict/runs/${first.id}`))).toEqual(first);
    expect((await server.api('/predict/runs/99999')).status).toBe(404);
    expect((await server.api('/predict/runs?campus=Tripoli')).status).toBe(422);
  });

  it('says what changed in one run since another, as the Predictions screen does', async () => {
    const spring = await json<PredictionRun>(await bulk(server, { ...base, run_name: 'Spring plan' }));
    const fall = await json<PredictionRun>(await bulk(server, { ...base, run_name: 'Fall plan', target_semester: 'Fall' }));
    const response = await server.api(`/predict/runs/${fall.id}/compare?since=${spring.id}`);
    expect(response.status).toBe(200);
    const changes = await json<{
      run_id: number;
      since_run_id: number;
      added: PredictionEntry[];
      dropped: PredictionEntry[];
      demand_moved: { course_code: string; from: number; to: number }[];
    }>(response);
    expect([changes.run_id, changes.since_run_id]).toEqual([fall.id, spring.id]);
    const offered = (run: PredictionRun): Set<string> => new Set(run.entries.filter((e) => e.offer).map((e) => e.course_code));
    const [before, after] = [offered(spring), offered(fall)];
    expect(changes.added.map((e) => e.course_code).sort()).toEqual([...after].filter((c) => !before.has(c)).sort());
    expect(changes.dropped.map((e) => e.course_code).sort()).toEqual([...before].filter((c) => !after.has(c)).sort());
    expect(changes.added.length + changes.dropped.length).toBeGreaterThan(0);
    const demand = (run: PredictionRun, code: string): number | undefined => run.entries.find((e) => e.course_code === code)?.predicted_enrollment;
    for (const move of changes.demand_moved) {
      expect([move.from, move.to]).toEqual([demand(spring, move.course_code), demand(fall, move.course_code)]);
      expect(Math.abs(move.to - move.from)).toBeGreaterThanOrEqual(5);
    }
    const same = await json<{ added: unknown[]; dropped: unknown[]; demand_moved: unknown[] }>(
      await server.api(`/predict/runs/${fall.id}/compare?since=${fall.id}`),
    );
    expect([same.added, same.dropped, same.demand_moved]).toEqual([[], [], []]);
    expect(await detail(await server.api(`/predict/runs/${fall.id}/compare?since=99999`))).toBe('No prediction run with id 99999');
    expect((await server.api(`/predict/runs/${fall.id}/compare`)).status).toBe(422);
    expect((await server.api(`/predict/runs/${fall.id}/compare?since=last`)).status).toBe(422);
  });

  it('reports the latest run on the dashboard', async () => {
    const run = await json<PredictionRun>(await bulk(server, { ...base, target_campus: 'Byblos' }));
    const metrics = await json<DashboardMetrics>(await server.api('/dashboard/metrics'));
    expect(metrics).toMatchObject({
      total_courses: 117,
      total_offerings: 1978,
      latest_run_id: run.id,
      average_model_confidence: Math.round((trained.campuses.Byblos?.roc_auc ?? 0) * 1000) / 10,
      total_predictions: 117,
      total_recommended_offerings: run.entries.filter((e) => e.offer).length,
    });
    expect(metrics.average_fail_ratio).toBeGreaterThan(5);
    expect(Object.values(metrics.recommended_by_prefix).reduce((a, b) => a + b, 0)).toBe(metrics.total_recommended_offerings);
    expect(metrics.models.map((m) => m.campus)).toEqual(['Beirut', 'Byblos']);
  });

  it('uses what staff recorded of the term: a retired course never proposed, a new one proposed, a course whose instructors are all away dropped', async () => {
    const before = await json<PredictionRun>(await bulk(server, { ...base, run_name: 'Before notes' }));
    const doctors = await json<Doctor[]>(await server.api('/scheduler/doctors'));
    const qualified = (code: string): Doctor[] => doctors.filter((d) => mayTeach(storedList(d.allowed_courses), code));
    const offered = before.entries.filter((e) => e.offer);
    const retired = offered[0];
    // A course the model offers that some instructors may teach: all of them away.
    const taughtByOne = offered.find((e) => e !== retired && qualified(e.course_code).length > 0);
    const approved = before.entries.find((e) => !e.offer);
    if (!retired || !taughtByOne || !approved) throw new Error('the sample should have such courses');
    const awayAll = qualified(taughtByOne.course_code);
    const away = awayAll[0] as Doctor;
    const note = async (body: Record<string, unknown>): Promise<{ id: number }> => {
      const response = await server.api('/predict/term-notes', { method: 'POST', json: { year: 2025, semester: 'Spring', ...body } });
      expect(response.status, await response.clone().text()).toBe(200);
      return json(response);
    };
    await note({ kind: 'course_retired', course_code: retired.course_code, reason: 'Replaced in the new curriculum' });
    const newCourse = await note({ kind: 'course_new', course_code: approved.course_code });
    for (const doctor of awayAll) await note({ kind: 'instructor_away', doctor_id: doctor.id, reason: 'sabbatical' });
    const notes = await json<{ kind: string; doctor_name: string | null; course_code: string | null }[]>(
      await server.api('/predict/term-notes?year=2025&semester=Spring'),
    );
    expect(notes.map((n) => [n.kind, n.course_code ?? n.doctor_name])).toEqual([
      ['course_retired', retired.course_code],
      ['course_new', approved.course_code],
      ...awayAll.map((d) => ['instructor_away', d.name]),
    ]);

    const after = await json<PredictionRun>(await bulk(server, { ...base, run_name: 'After notes' }));
    const entry = (code: string): PredictionEntry => after.entries.find((e) => e.course_code === code) as PredictionEntry;
    expect(entry(retired.course_code)).toMatchObject({ offer: false, projected_sections: 0 });
    expect(entry(retired.course_code).reasons[0]).toBe('Retired from Spring 2025 (Replaced in the new curriculum): never proposed');
    expect(entry(approved.course_code)).toMatchObject({ offer: true });
    expect(entry(approved.course_code).projected_sections).toBeGreaterThanOrEqual(1);
    expect(entry(approved.course_code).reasons[0]).toBe('Newly approved for Spring 2025: proposed, expecting the enrollment of similar courses');
    expect(entry(taughtByOne.course_code)).toMatchObject({ offer: false });
    expect(entry(taughtByOne.course_code).reasons[0]).toBe(
      awayAll.length === 1
        ? `Its only qualified instructor, ${away.name}, is away in Spring 2025 (sabbatical): dropped`
        : `All its qualified instructors (${awayAll.map((d) => d.name).join(', ')}) are away in Spring 2025: dropped`,
    );
    expect(after.term_notes).toEqual([
      `${retired.course_code} retired from Spring 2025 (Replaced in the new curriculum)`,
      `${approved.course_code} newly approved for Spring 2025`,
      ...awayAll.map((d) => `${d.name} away in Spring 2025 (sabbatical)`),
    ]);
    // In quota mode too, a retired course fills no category.
    const quotas = await json<PredictionRun>(await bulk(server, { ...base, use_quotas: true }));
    expect(quotas.entries.find((e) => e.course_code === retired.course_code)?.offer).toBe(false);

    // Exported with the run.
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(await (await server.api(`/predict/runs/${after.id}/export`)).arrayBuffer());
    const sheet = workbook.getWorksheet('Notes');
    expect(sheet?.getColumn(1).values.slice(1)).toEqual(['What staff recorded of the term', ...after.term_notes]);

    // Removed, the note no longer counts; notes of another term never did.
    expect((await server.api(`/predict/term-notes/${newCourse.id}`, { method: 'DELETE' })).status).toBe(200);
    expect((await server.api(`/predict/term-notes/${newCourse.id}`, { method: 'DELETE' })).status).toBe(404);
    const fall = await json<PredictionRun>(await bulk(server, { ...base, target_semester: 'Fall' }));
    expect(fall.term_notes).toEqual([]);
    for (const id of (await json<{ id: number }[]>(await server.api('/predict/term-notes?year=2025&semester=Spring'))).map((n) => n.id)) {
      await server.api(`/predict/term-notes/${id}`, { method: 'DELETE' });
    }
  });

  it('refuses a term note that names nothing it could mean', async () => {
    const add = (body: Record<string, unknown>): Promise<Response> =>
      server.api('/predict/term-notes', { method: 'POST', json: { year: 2025, semester: 'Spring', ...body } });
    expect((await add({ kind: 'instructor_away' })).status).toBe(422);
    expect((await add({ kind: 'instructor_away', doctor_id: 99999 })).status).toBe(404);
    expect((await add({ kind: 'course_new', course_code: 'nope!' })).status).toBe(422);
    const missing = await add({ kind: 'course_retired', course_code: 'ZZZ999' });
    expect(missing.status).toBe(404);
    expect(await detail(missing)).toBe('ZZZ999 is not in the course catalog: add it to the catalog first (POST /data/upload/courses)');
    expect((await add({ kind: 'course_new', course_code: 'CSC201', semester: 'Summer' })).status).toBe(422);
    expect((await add({ kind: 'vacation', course_code: 'CSC201' })).status).toBe(422);
  });

  it("works out sections with the department profile's seats per section and per-course sizes", async () => {
    const saved = await server.api('/settings/profile', { method: 'PATCH', json: { section_size: 25, section_sizes: { CSC201: 100 } } });
    expect(saved.status).toBe(200);
    try {
      const run = await json<PredictionRun>(await bulk(server, base));
      for (const e of run.entries) {
        const seats = e.course_code === 'CSC201' ? 100 : 25;
        expect(e.section_size, e.course_code).toBe(seats);
        expect(e.projected_sections).toBe(e.offer ? Math.max(1, Math.ceil(e.predicted_enrollment / seats)) : 0);
      }
    } finally {
      await server.api('/settings/profile', { method: 'PATCH', json: { section_size: null, section_sizes: null } });
    }
  });
});

describe('trainings asked for at once', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer();
    await loadSample(server);
  });
  afterAll(async () => {
    await server.close();
  });

  it('shares one training among ten asked for at once: every answer the same, one model per campus stored', async () => {
    const answers = await Promise.all(Array.from({ length: 10 }, () => server.api('/predict/train', { method: 'POST' })));
    expect(answers.map((a) => a.status)).toEqual(Array.from({ length: 10 }, () => 200));
    const versions = new Set((await Promise.all(answers.map((a) => json<TrainResult>(a)))).map((t) => t.model_version));
    expect(versions.size).toBe(1);
    const stored = await server.core.context.db
      .selectFrom('models')
      .select('campus')
      .where('model_version', '=', [...versions][0] ?? '')
      .orderBy('campus')
      .execute();
    expect(stored.map((m) => m.campus)).toEqual(['Beirut', 'Byblos']);
  }, 60_000);
});

describe('prediction edge cases', () => {
  // A server of each test's own: each starts from an empty store.
  let server: TestServer;
  beforeEach(async () => {
    server = await startTestServer();
  });
  afterEach(async () => {
    await server.close();
  });

  it('refuses to train, plan or guess the next term without offerings', async () => {
    const train = await server.api('/predict/train', { method: 'POST' });
    expect(train.status).toBe(400);
    expect(await detail(train)).toMatch(/no offering records/);
    const next = await server.api('/predict/next-term');
    expect(next.status).toBe(400);
    expect(await detail(next)).toMatch(/upload the offering history/);
    const run = await bulk(server, base);
    expect(run.status).toBe(400);
    expect(await detail(run)).toMatch(/catalog is empty/);
  });

  it('orders Spring before Fall within a year and ignores Summer', async () => {
    await server.upload('/data/upload/offerings', 'a.csv', 'course,year,semester\nCSC201,2023,Fall\nCSC201,2024,Spring\n');
    expect(await json(await server.api('/predict/next-term'))).toEqual({ year: 2024, semester: 'Fall' });
    await server.upload('/data/upload/offerings', 'b.csv', 'course,year,semester\nCSC201,2024,Summer\n');
    expect(await json(await server.api('/predict/next-term'))).toEqual({ year: 2024, semester: 'Fall' });
    await server.upload('/data/upload/offerings', 'c.csv', 'course,year,semester\nCSC201,2024,Fall\n');
    expect(await json(await server.api('/predict/next-term'))).toEqual({ year: 2025, semester: 'Spring' });
  });

  /** Two courses with six years of history at Beirut, and none at Byblos. */
  async function twoCoursesAtBeirut(): Promise<void> {
    await server.upload(
      '/data/upload/courses',
      'c.json',
      JSON.stringify([
        { code: 'CSC201', name: 'Programming', type: 'core' },
        { code: 'CSC202', name: 'OOP', type: 'core', prerequisites: ['CSC201'] },
      ]),
    );
    const rows = ['course,year,semester,campus,total_enrolled'];
    for (let year = 2019; year <= 2024; year++) {
      rows.push(`CSC201,${year},Fall,Beirut,${50 + year - 2019}`, `CSC202,${year},Spring,Beirut,30`);
      if (year % 2 === 0) rows.push(`CSC202,${year},Fall,Beirut,12`);
    }
    await server.upload('/data/upload/offerings', 'o.csv', rows.join('\n'));
  }

  it('skips a campus without enough history and trains first when a run needs a model', async () => {
    await twoCoursesAtBeirut();
    const run = await bulk(server, { ...base, target_campus: 'Beirut' });
    expect(run.status).toBe(200);
    const models = await json<DashboardMetrics>(await server.api('/dashboard/metrics'));
    expect(models.models.map((m) => m.campus)).toEqual(['Beirut']);
    const trained = await json<TrainResult>(await server.api('/predict/train', { method: 'POST' }));
    expect(trained.campuses.Byblos).toMatchObject({ samples: 0 });
    expect(trained.campuses.Beirut?.samples).toBeGreaterThan(0);
    const byblos = await bulk(server, { ...base, target_campus: 'Byblos' });
    expect(byblos.status).toBe(400);
    expect(await detail(byblos)).toMatch(/not enough history at Byblos/);
  });

  it('says when a course has little or no history, and trusts its range less', async () => {
    await twoCoursesAtBeirut();
    await server.upload(
      '/data/upload/courses',
      'new.json',
      JSON.stringify([
        { code: 'CSC390', name: 'Topics', type: 'elective' },
        { code: 'CSC391', name: 'New topics', type: 'elective' },
      ]),
    );
    await server.upload('/data/upload/offerings', 'new.csv', 'course,year,semester,campus,total_enrolled\nCSC390,2024,Fall,Beirut,25\n');
    const run = await json<PredictionRun>(await bulk(server, { ...base, target_campus: 'Beirut', target_year: 2025, target_semester: 'Spring' }));
    const by = (code: string): PredictionEntry | undefined => run.entries.find((e) => e.course_code === code);
    expect(by('CSC390')?.reasons).toContain('Little history: offered only once at Beirut, so the figures are less sure');
    expect(by('CSC391')?.reasons).toContain('No history at Beirut: enrollment estimated from similar CSC 300-level courses');
    expect(by('CSC201')?.reasons.join(' ')).not.toMatch(/history/i);
  });

  it('retrains a model stored by an earlier version (other features) before using it, and reads runs saved before ranges', async () => {
    await twoCoursesAtBeirut();
    const db = server.core.context.db;
    const before = await json<PredictionRun>(await bulk(server, { ...base, target_campus: 'Beirut' }));
    await db.updateTable('models').set({ features: '["same_semester_1y"]', adjustments: null }).execute();
    await db.updateTable('prediction_entries').set({ enrollment_low: null, enrollment_high: null }).where('run_id', '=', before.id).execute();
    const after = await json<PredictionRun>(await bulk(server, { ...base, target_campus: 'Beirut' }));
    expect(after.model_version).not.toBe(before.model_version);
    expect(after.entries.every((e) => e.enrollment_low !== null && e.enrollment_high !== null)).toBe(true);
    const old = await json<PredictionRun>(await server.api(`/predict/runs/${before.id}`));
    expect(old.entries.every((e) => e.enrollment_low === null && e.enrollment_high === null && e.section_size === 40)).toBe(true);
  });

  it('retrains a model whose demand model read every feature (stored before it had its own) before using it', async () => {
    await twoCoursesAtBeirut();
    const before = await json<PredictionRun>(await bulk(server, { ...base, target_campus: 'Beirut' }));
    await server.core.context.db.updateTable('models').set({ demand_features: null }).execute();
    const after = await json<PredictionRun>(await bulk(server, { ...base, target_campus: 'Beirut' }));
    expect(after.model_version).not.toBe(before.model_version);
    const again = await json<PredictionRun>(await bulk(server, { ...base, target_campus: 'Beirut' }));
    expect(again.model_version).toBe(after.model_version);
  });

  it('shows an empty dashboard before any run', async () => {
    const fresh = await startTestServer();
    try {
      expect(await json(await fresh.api('/dashboard/metrics'))).toMatchObject({
        total_courses: 0,
        total_offerings: 0,
        latest_run_id: null,
        average_model_confidence: 0,
        average_fail_ratio: 0,
        total_predictions: 0,
        total_recommended_offerings: 0,
      });
    } finally {
      await fresh.close();
    }
  });
});
