import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startTestServer, json, sampleFile, type TestServer } from '../helpers/server';
import type { Course } from '../../core/catalog/schema';

let server: TestServer;
beforeEach(async () => {
  server = await startTestServer();
});
afterEach(async () => {
  await server.close();
});

const uploadCourses = (content: unknown, filename = 'courses.json'): Promise<Response> =>
  server.upload('/data/upload/courses', filename, typeof content === 'string' ? content : JSON.stringify(content));
const courses = async (): Promise<Course[]> => json<Course[]>(await server.api('/data/courses'));

describe('POST /data/upload/courses', () => {
  it('reads a root array, normalising codes, types and prerequisites', async () => {
    const response = await uploadCourses([
      { code: 'csc 310', course_name: 'Algorithms', type: 'Core', study_plan: 'Year 2, Spring', prerequisites: 'csc243, CSC 215' },
      { code: 'CSC498hn', name: 'Honors Research', type: ['core', 'elective'], prerequisites: ['CSC310'] },
      { code: 'CSC599', name: 'Thesis', type: '["masters"]', prerequisites: [] },
    ]);
    expect(response.status).toBe(200);
    expect(await json(response)).toEqual({ status: 'success', processed: 3, skipped: 0, warnings: [] });
    expect(await courses()).toEqual([
      {
        code: 'CSC310',
        name: 'Algorithms',
        prefix: 'CSC',
        number: '310',
        type: 'core',
        study_plan: 'Year 2, Spring',
        prerequisites: '["CSC243","CSC215"]',
        course_level: 3,
      },
      {
        code: 'CSC498HN',
        name: 'Honors Research',
        prefix: 'CSC',
        number: '498HN',
        type: '["core","elective"]',
        study_plan: null,
        prerequisites: '["CSC310"]',
        course_level: 4,
      },
      { code: 'CSC599', name: 'Thesis', prefix: 'CSC', number: '599', type: '["masters"]', study_plan: null, prerequisites: null, course_level: 5 },
    ]);
  });

  it('reads an object wrapping the array under any key', async () => {
    for (const key of ['courses', 'data', 'items']) {
      const response = await uploadCourses({ meta: { source: 'registrar' }, [key]: [{ code: `MTH10${key.length}`, name: 'Calculus' }] });
      expect(await json(response)).toMatchObject({ status: 'success', processed: 1 });
    }
    expect((await courses()).map((c) => c.code)).toEqual(['MTH104', 'MTH105', 'MTH107']);
  });

  it('reads an object keyed by course code', async () => {
    const response = await uploadCourses({
      'STA 201': { name: 'Elementary Statistics', type: 'core' },
      'CSC463/BIF463': { name: 'Genomics', type: ['core', 'elective'] },
    });
    expect(await json(response)).toMatchObject({ status: 'success', processed: 2 });
    const list = await courses();
    expect(list.find((c) => c.code === 'CSC463/BIF463')).toMatchObject({ prefix: 'CSC', number: '463', type: '["core","elective"]', course_level: 4 });
    expect(list.find((c) => c.code === 'STA201')).toMatchObject({ name: 'Elementary Statistics', course_level: 2 });
  });

  it('upserts by code: re-uploading changes nothing, a changed name updates the course', async () => {
    await uploadCourses([{ code: 'CSC310', name: 'Algorithms' }]);
    await uploadCourses([{ code: 'CSC310', name: 'Algorithms' }]);
    expect(await courses()).toHaveLength(1);
    await uploadCourses([{ code: 'csc310', name: 'Algorithms and Data Structures' }]);
    expect(await courses()).toMatchObject([{ code: 'CSC310', name: 'Algorithms and Data Structures' }]);
  });

  it('skips unusable records with warnings naming them', async () => {
    const response = await uploadCourses([{ code: 'not a code', name: 'X' }, { name: 'No code' }, 'text', { code: 'CSC201', name: 'Programming' }]);
    const result = await json<{ status: string; processed: number; skipped: number; warnings: string[] }>(response);
    expect(result).toMatchObject({ status: 'success', processed: 1, skipped: 3 });
    expect(result.warnings).toEqual([
      expect.stringMatching(/^Item 1: "not a code" is not a course code/),
      expect.stringMatching(/^Item 2: no "code"/),
      expect.stringMatching(/^Item 3: not a course object/),
    ]);
  });

  it('answers a parseable file without records with status "empty"', async () => {
    const response = await uploadCourses([]);
    expect(response.status).toBe(200);
    expect(await json(response)).toEqual({ status: 'empty', processed: 0, skipped: 0, warnings: ['The file holds no records'] });
  });

  it('refuses malformed JSON, another extension and a missing file with 400', async () => {
    const malformed = await uploadCourses('{"courses": [', 'courses.json');
    expect(malformed.status).toBe(400);
    expect((await json<{ detail: string }>(malformed)).detail).toMatch(/courses\.json" is not valid JSON/);
    const csv = await uploadCourses('code,name\nCSC201,X', 'courses.csv');
    expect(csv.status).toBe(400);
    expect((await json<{ detail: string }>(csv)).detail).toMatch(/\.json/);
    const form = new FormData();
    form.append('other', 'x');
    const missing = await server.api('/data/upload/courses', { method: 'POST', body: form });
    expect(missing.status).toBe(400);
    expect((await json<{ detail: string }>(missing)).detail).toMatch(/field "file"/);
    const notMultipart = await server.api('/data/upload/courses', { method: 'POST', json: { code: 'CSC201' } });
    expect(notMultipart.status).toBe(400);
    expect(await courses()).toEqual([]);
  });

  it('loads the sample catalog', async () => {
    const response = await server.upload('/data/upload/courses', 'courses.json', sampleFile('courses.json'));
    const result = await json<{ processed: number }>(response);
    expect(result.processed).toBeGreaterThanOrEqual(110);
    const list = await courses();
    const types = new Set(list.flatMap((c) => (c.type?.startsWith('[') ? (JSON.parse(c.type) as string[]) : [c.type])));
    expect(types).toEqual(new Set(['core', 'elective', 'masters', 'minor']));
    expect(new Set(list.map((c) => c.prefix))).toEqual(new Set(['CSC', 'BIF', 'MTH', 'STA']));
  });
});
