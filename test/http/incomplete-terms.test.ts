import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadSample, sampleFile, startTestServer, json, type TestServer } from '../helpers/server';
import type { PredictionRun } from '../../core/predict/schema';
import type { IncompleteTerm } from '../../core/offerings/completeness';

/**
 * A report exported before every grade was in: Spring 2025 at Beirut lists two courses where its
 * last four Springs listed dozens. Flagged on upload and on the Data screen's list, left out of the
 * model until staff confirm it (or upload it in full), and said so in the run's caveats.
 */
let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
  await loadSample(server);
});
afterAll(async () => {
  await server.close();
});

const springsAtBeirut = (): Map<string, Set<number>> => {
  const offered = new Map<string, Set<number>>();
  for (const line of new TextDecoder().decode(sampleFile('offerings.csv')).trim().split(/\r?\n/).slice(1)) {
    const [code, year, semester, campus, , , , isOffered] = line.split(',');
    if (semester !== 'Spring' || campus !== 'Beirut' || isOffered !== 'true' || !code) continue;
    offered.set(code, (offered.get(code) ?? new Set()).add(Number(year)));
  }
  return offered;
};
const fall2025 = { run_name: 'Fall plan', target_year: 2025, target_semester: 'Fall', target_campus: 'Beirut' };
const runFall = async (): Promise<PredictionRun> => {
  const response = await server.api('/predict/bulk', { method: 'POST', json: fall2025 });
  expect(response.status, await response.clone().text()).toBe(200);
  return json<PredictionRun>(response);
};
const upload = async (rows: string[]): Promise<{ warnings: string[]; incomplete_terms: IncompleteTerm[]; processed: number }> => {
  const response = await server.upload('/data/upload/offerings', 'spring-2025.csv', `course_code,year,semester,campus,total_enrolled\n${rows.join('\n')}\n`);
  expect(response.status, await response.clone().text()).toBe(200);
  return json(response);
};

describe('incomplete terms', () => {
  it('flags a term uploaded with a handful of courses, leaves it out of the model until confirmed, and says so in the run', async () => {
    const every = [...springsAtBeirut().entries()].filter(([, years]) => [2021, 2022, 2023, 2024].every((y) => years.has(y))).map(([code]) => code);
    expect(every.length).toBeGreaterThan(10);
    const answer = await upload(every.slice(0, 2).map((code) => `${code},2025,Spring,Beirut,40`));
    expect(answer.incomplete_terms).toEqual([expect.objectContaining({ campus: 'Beirut', year: 2025, semester: 'Spring', courses: 2, compared_with: 4 })]);
    const [flag] = answer.incomplete_terms;
    expect(flag?.message).toBe(`Spring 2025 at Beirut lists 2 courses; its last four Springs listed ${flag?.usual_low}–${flag?.usual_high}. Incomplete?`);
    expect(answer.warnings[0]).toMatch(/^Spring 2025 at Beirut lists 2 courses; .* It is left out of the recommendations until you confirm it complete/);
    expect(await json<IncompleteTerm[]>(await server.api('/data/terms/incomplete'))).toEqual(answer.incomplete_terms);

    // The run for Fall 2025 reads Spring 2025 as unknown, not as "nothing offered": courses offered every
    // Fall keep their confidence; the caveat says what was left out.
    const left = await runFall();
    expect(left.caveats).toEqual([
      expect.stringMatching(/^Spring 2025 at Beirut lists 2 courses; .* It was left out of this run; if it is complete, confirm it on the Data screen/),
    ]);

    // Confirmed complete: no longer flagged, the models train again with it, and the run has no caveat.
    const confirmed = await server.api('/data/terms/confirm', { method: 'POST', json: { campus: 'beirut', year: 2025, semester: 'Spring' } });
    expect(confirmed.status, await confirmed.clone().text()).toBe(200);
    expect(await json(confirmed)).toEqual({ confirmed: { campus: 'Beirut', year: 2025, semester: 'Spring' }, incomplete_terms: [] });
    expect(await json(await server.api('/data/terms/incomplete'))).toEqual([]);
    const kept = await runFall();
    expect(kept.caveats).toEqual([]);
    expect(kept.model_version).not.toBe(left.model_version);
    // Read as "offered two courses", Spring 2025 now says every other course was not offered last term.
    const mean = (run: PredictionRun): number => {
      const codes = new Set(every.slice(2));
      const scores = run.entries.filter((e) => codes.has(e.course_code)).map((e) => e.confidence);
      return scores.reduce((a, b) => a + b, 0) / scores.length;
    };
    expect(mean(left)).toBeGreaterThan(mean(kept));
  }, 120_000);

  it('refuses to confirm a term without records, and bad fields', async () => {
    const none = await server.api('/data/terms/confirm', { method: 'POST', json: { campus: 'Beirut', year: 2031, semester: 'Fall' } });
    expect(none.status).toBe(404);
    expect((await json<{ detail: string }>(none)).detail).toBe('There are no offering records for Fall 2031 at Beirut');
    expect((await server.api('/data/terms/confirm', { method: 'POST', json: { campus: 'Mars', year: 2025, semester: 'Fall' } })).status).toBe(422);
    expect((await server.api('/data/terms/confirm', { method: 'POST', json: { campus: 'Beirut', year: 2025, semester: 'Winter' } })).status).toBe(422);
  });

  it('takes a term uploaded again in full back into the model', async () => {
    const answer = await upload(['CSC201,2026,Spring,Beirut,40']);
    expect(answer.incomplete_terms).toHaveLength(1);
    const left = await server.api('/predict/bulk', { method: 'POST', json: { ...fall2025, target_year: 2026 } });
    expect((await json<PredictionRun>(left)).caveats).toHaveLength(1);
    const full = [...springsAtBeirut().keys()].map((code) => `${code},2026,Spring,Beirut,40`);
    expect((await upload(full)).incomplete_terms).toEqual([]);
    const after = await json<PredictionRun>(await server.api('/predict/bulk', { method: 'POST', json: { ...fall2025, target_year: 2026 } }));
    expect(after.caveats).toEqual([]);
  }, 120_000);
});
