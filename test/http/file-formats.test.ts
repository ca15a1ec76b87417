import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { json, startTestServer, type TestServer } from '../helpers/server';

/**
 * docs/file-formats.md shows an example of each file an import reads: each is uploaded here as it
 * stands, in the page's order, and every row of it must be read.
 */
const page = readFileSync(new URL('../../docs/file-formats.md', import.meta.url), 'utf8');

/** The code blocks of a section of the page (its `## ` heading starting with `title`). */
function examples(title: string): { language: string; text: string }[] {
  const section = page.split(/^## /m).find((part) => part.startsWith(title));
  if (section === undefined) throw new Error(`docs/file-formats.md has no section "${title}"`);
  return [...section.matchAll(/```(\w+)\n([\s\S]*?)```/g)].map((m) => ({ language: m[1] ?? '', text: m[2] ?? '' }));
}

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => {
  await server.close();
});

interface Report {
  processed: number;
  skipped: number;
  warnings: string[];
}

async function uploadAll(path: string, title: string, name: string): Promise<Report[]> {
  const reports: Report[] = [];
  for (const { language, text } of examples(title)) {
    const response = await server.upload(path, `${name}.${language}`, text);
    expect(response.status, `${title} (${language}): ${await response.clone().text()}`).toBe(200);
    reports.push(await json<Report>(response));
  }
  return reports;
}

describe('the file formats page', () => {
  it('has examples that import whole: courses, offerings, doctors (CSV and JSON), rooms and a timetable listing', async () => {
    for (const report of await uploadAll('/data/upload/courses', 'Course catalog', 'courses')) expect(report).toMatchObject({ processed: 2, skipped: 0 });
    for (const report of await uploadAll('/data/upload/offerings', 'Offering history', 'offerings')) expect(report).toMatchObject({ processed: 2, skipped: 0 });
    const doctors = await uploadAll('/data/upload/doctors', 'Doctors', 'doctors');
    expect(doctors.map((r) => [r.processed, r.skipped])).toEqual([
      [2, 0],
      [1, 0],
    ]);
    for (const report of await uploadAll('/data/upload/rooms', 'Rooms', 'rooms')) expect(report).toMatchObject({ processed: 2, skipped: 0, warnings: [] });

    const [listing] = examples("A registrar's timetable listing");
    const form = new FormData();
    form.append('dry_run', 'false');
    form.append('file', new Blob([listing?.text ?? '']), 'listing.csv');
    const imported = await server.api('/scheduler/import', { method: 'POST', body: form });
    expect(imported.status, await imported.clone().text()).toBe(200);
    const meetings = await json<{ course_code: string }[]>(await server.api('/scheduler/?year=2025&semester=Fall'));
    const untimed = await json<{ course_code: string }[]>(await server.api('/scheduler/unscheduled?year=2025&semester=Fall'));
    expect([meetings.length, untimed.length]).toEqual([2, 1]);
  });
});
