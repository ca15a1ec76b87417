import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { COURSE_JSON_KEYS } from '../../core/catalog/columns';
import { DOCTOR_JSON_KEYS } from '../../core/faculty/columns';
import { startTestServer, json, type TestServer } from '../helpers/server';

/** The preview and the upload read the same keys: a key one knows and the other does not fails here. */
let server: TestServer;
beforeEach(async () => {
  server = await startTestServer();
});
afterEach(async () => {
  await server.close();
});

interface Preview {
  columns: { header: string; field: string | null }[];
}
const preview = async (kind: string, filename: string, text: string): Promise<Preview> => json(await server.upload('/data/preview', filename, text, { kind }));

describe('import keys: one table for the preview and the upload', () => {
  it('reads every course key the preview recognises, and the preview recognises every key the upload reads', async () => {
    // One course per spelling of each field: the n-th course uses the n-th key of every field.
    const widest = Math.max(...Object.values(COURSE_JSON_KEYS).map((keys) => keys.length));
    const courses = Array.from({ length: widest }, (_, n) => {
      const pick = (keys: readonly string[]): string => keys[Math.min(n, keys.length - 1)] as string;
      return {
        [pick(COURSE_JSON_KEYS.code)]: `CSC10${n}`,
        [pick(COURSE_JSON_KEYS.name)]: `Course ${n}`,
        [pick(COURSE_JSON_KEYS.type)]: 'elective',
        [pick(COURSE_JSON_KEYS.prerequisites)]: n === 0 ? [] : ['CSC100'],
        [pick(COURSE_JSON_KEYS.study_plan)]: `Year ${n + 1}`,
      };
    });
    const text = JSON.stringify(courses);
    const seen = await preview('courses', 'c.json', text);
    expect(seen.columns.filter((c) => c.field === null)).toEqual([]);
    expect(new Set(seen.columns.map((c) => c.header))).toEqual(new Set(Object.values(COURSE_JSON_KEYS).flat()));
    expect((await server.upload('/data/upload/courses', 'c.json', text)).status).toBe(200);
    const stored = await json<{ code: string; name: string; type: string; study_plan: string; prerequisites: string | null }[]>(
      await server.api('/data/courses'),
    );
    expect(stored.map((c) => [c.code, c.name, c.type, c.study_plan])).toEqual(courses.map((_, n) => [`CSC10${n}`, `Course ${n}`, 'elective', `Year ${n + 1}`]));
    expect(stored.filter((c) => (c.prerequisites ?? '').includes('CSC100'))).toHaveLength(widest - 1);
  });

  it('reads every doctor key the preview recognises', async () => {
    const widest = Math.max(...Object.values(DOCTOR_JSON_KEYS).map((keys) => keys.length));
    const doctors = Array.from({ length: widest }, (_, n) => {
      const pick = (keys: readonly string[]): string => keys[Math.min(n, keys.length - 1)] as string;
      return { [pick(DOCTOR_JSON_KEYS.name)]: `Dr. Number ${n}`, [pick(DOCTOR_JSON_KEYS.allowed_courses)]: ['CSC201'], [pick(DOCTOR_JSON_KEYS.days)]: 'MW' };
    });
    const text = JSON.stringify(doctors);
    const seen = await preview('doctors', 'd.json', text);
    expect(seen.columns.filter((c) => c.field === null)).toEqual([]);
    expect((await server.upload('/data/upload/doctors', 'd.json', text)).status).toBe(200);
    const stored = await json<{ name: string; allowed_courses: string; available_days: string | null }[]>(await server.api('/scheduler/doctors'));
    expect(stored.map((d) => [d.name, JSON.parse(d.allowed_courses) as string[], d.available_days]).sort()).toEqual(
      doctors.map((_, n) => [`Dr. Number ${n}`, ['CSC201'], 'MW']).sort(),
    );
  });
});
