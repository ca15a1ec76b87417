import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deflateBomb, lastColumnWorkbook, longSharedStringWorkbook, lyingDeflateBomb, SPACES_CELL, spacesCellWorkbook } from '../fixtures/hostile-workbooks';
import { startServeProcess, type ServeProcess } from '../helpers/serve-process';
import { TEST_SERVER } from '../helpers/server-bundle';

/**
 * Files built to sink a naive reader, sent to `npm run serve` running as its own process, as an
 * attacker on the machine would: each answers 4xx quickly and the server stays small and alive.
 */
let server: ServeProcess;
let dataDir: string;

beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'termwise-hostile-'));
  server = await startServeProcess(dataDir, {}, TEST_SERVER);
}, 60_000);
afterAll(() => {
  server.stop();
  rmSync(dataDir, { recursive: true, force: true });
});

async function upload(
  path: string,
  filename: string,
  content: Uint8Array | string,
  fields: Record<string, string> = {},
): Promise<{ status: number; detail: string; ms: number }> {
  const form = new FormData();
  for (const [k, v] of Object.entries(fields)) form.append(k, v);
  form.append('file', new Blob([typeof content === 'string' ? content : Buffer.from(content)]), filename);
  const started = performance.now();
  const response = await fetch(new URL(path.slice(1), server.url), { method: 'POST', headers: { authorization: `Bearer ${server.token}` }, body: form });
  const body = (await response.json()) as { detail?: string };
  return { status: response.status, detail: body.detail ?? JSON.stringify(body), ms: performance.now() - started };
}

const workbooks: [name: string, make: () => Uint8Array, expected: RegExp][] = [
  ['one cell in the last column (XFD) on 2,500 rows', () => lastColumnWorkbook(), /column XFD .*columns A to GR only/],
  ['a 200 MB deflate bomb', () => deflateBomb(200), /expands to 200 MB \(at most 120 MB\)/],
  ['a deflate bomb whose zip headers lie about its size', () => lyingDeflateBomb(200), /not a readable Excel workbook/],
  ['a 50 MB shared string', () => longSharedStringWorkbook(50), /more than 32,767 characters/],
];

describe('hostile workbooks', () => {
  for (const [name, make, expected] of workbooks) {
    it(`refuses ${name} on every upload route, in under 2 s each`, async () => {
      const file = make();
      for (const path of ['/data/upload/offerings', '/data/upload/doctors', '/data/upload/rooms']) {
        const answer = await upload(path, 'attack.xlsx', file);
        expect([400, 413], `${path}: ${answer.detail}`).toContain(answer.status);
        expect(answer.detail).toMatch(expected);
        expect(answer.detail.length).toBeLessThan(400);
        expect(answer.ms, path).toBeLessThan(2_000);
      }
      const preview = await upload('/data/preview', 'attack.xlsx', file, { kind: 'offerings' });
      expect([400, 413]).toContain(preview.status);
    }, 30_000);
  }

  it('reads a cell of 150,000 spaces quickly wherever it comes (XLSX, CSV, JSON), echoing at most 200 characters of it', async () => {
    const attempts: [string, string, Uint8Array | string][] = [
      ['/data/upload/offerings', 'o.xlsx', spacesCellWorkbook()],
      ['/data/upload/offerings', 'o.csv', `course_code,year,total_enrolled\n"${SPACES_CELL}",2024,10\n`],
      ['/data/upload/doctors', 'd.csv', `name,allowed_courses,days,start,end\nDr. A,"${SPACES_CELL}",${SPACES_CELL},${SPACES_CELL},9\n`],
      ['/data/upload/courses', 'c.json', JSON.stringify([{ code: SPACES_CELL, name: SPACES_CELL, prerequisites: SPACES_CELL, type: SPACES_CELL }])],
      ['/data/upload/rooms', 'r.csv', `room,seats\n"${SPACES_CELL}",${SPACES_CELL}\n`],
    ];
    for (const [path, filename, content] of attempts) {
      const answer = await upload(path, filename, content);
      expect(answer.status, `${path} ${filename}: ${answer.detail}`).toBeLessThan(500);
      expect(answer.ms, `${path} ${filename}`).toBeLessThan(2_000);
      expect(answer.detail.length, `${path} ${filename}`).toBeLessThan(5_000);
    }
  }, 30_000);

  it('refuses CSV and JSON files of millions of tiny rows or fields before parsing them', async () => {
    const attempts: [string, string, string, RegExp][] = [
      ['/data/upload/offerings', 'newlines.csv', `course_code,year\n${'\n'.repeat(5_000_000)}`, /more than 200,000 lines/],
      ['/data/upload/offerings', 'rows.csv', `course_code,year\n${'a,1\n'.repeat(1_000_000)}`, /more than 200,000 lines/],
      ['/data/upload/doctors', 'commas.csv', ','.repeat(5_000_000), /line 1 has more than 200 fields/],
      ['/data/upload/courses', 'many.json', JSON.stringify(Array.from({ length: 300_000 }, () => ({}))), /more than 200,000 records/],
    ];
    for (const [path, filename, content, expected] of attempts) {
      const answer = await upload(path, filename, content);
      expect(answer.status, `${filename}: ${answer.detail}`).toBe(413);
      expect(answer.detail).toMatch(expected);
      expect(answer.ms, filename).toBeLessThan(2_000);
    }
  }, 30_000);

  it('stays alive and under 300 MB of memory through all of the above', async () => {
    const health = await fetch(new URL('health', server.url));
    expect(health.status).toBe(200);
    const peak = server.peakMemoryMb();
    if (peak === null) {
      console.log('Peak memory not measured: /proc/<pid>/status is not available on this system');
      return;
    }
    console.log(`Peak memory of the server through the hostile uploads: ${peak.toFixed(0)} MB`);
    expect(peak).toBeLessThan(300);
  });
});
