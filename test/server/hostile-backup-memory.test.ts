import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServeProcess, type ServeProcess } from '../helpers/serve-process';
import { TEST_SERVER } from '../helpers/server-bundle';
import { sampleFile } from '../helpers/server';

/**
 * A backup whose trained model is random bytes: XGBoost reads its sizes as gigabytes. The check
 * runs in a thread whose XGBoost heap is capped, so `npm run serve` (its own process, measured by
 * its peak resident memory) refuses it without taking the machine's memory.
 */
const LIMIT_MB = 600;
let server: ServeProcess;
let work: string;

const call = (path: string, init: RequestInit = {}): Promise<Response> =>
  fetch(new URL(path, server.url), { ...init, headers: { authorization: `Bearer ${server.token}`, ...(init.headers as Record<string, string>) } });

const upload = (path: string, filename: string, content: Uint8Array): Promise<Response> => {
  const form = new FormData();
  form.append('file', new Blob([content as BlobPart]), filename);
  return call(path, { method: 'POST', body: form });
};

beforeAll(async () => {
  work = mkdtempSync(join(tmpdir(), 'termwise-hostile-backup-'));
  server = await startServeProcess(join(work, 'data'), {}, TEST_SERVER);
  for (const [path, file] of [
    ['/data/upload/courses', 'courses.json'],
    ['/data/upload/offerings', 'offerings.csv'],
    ['/data/upload/doctors', 'doctors.csv'],
  ] as const)
    expect((await upload(path, file, sampleFile(file))).status).toBe(200);
  expect((await call('/predict/train', { method: 'POST' })).status).toBe(200);
}, 120_000);

afterAll(async () => {
  server.stop();
  await server.exited;
  rmSync(work, { recursive: true, force: true });
});

describe('a restore checks trained models in bounded memory', () => {
  it(`refuses a backup whose model is random bytes, the server staying under ${LIMIT_MB} MB; a sound backup with models still restores`, async () => {
    const good = Buffer.from(await (await call('/data/backup')).arrayBuffer());
    const file = join(work, 'evil.db');
    writeFileSync(file, good);
    const db = new Database(file);
    db.prepare('UPDATE models SET classifier = ?').run(randomBytes(1_000_000));
    db.close();
    const before = server.peakMemoryMb();
    const refused = await upload('/data/restore', 'evil.db', readFileSync(file));
    expect(refused.status).toBe(400);
    expect(((await refused.json()) as { detail: string }).detail).toMatch(/damaged trained model/);
    const peak = server.peakMemoryMb();
    if (peak === null) console.log('Peak memory is not measured on this system (no /proc/<pid>/status)');
    else {
      console.log(`Hostile backup: peak memory ${before?.toFixed(0)} MB before, ${peak.toFixed(0)} MB after`);
      expect(peak).toBeLessThan(LIMIT_MB);
    }
    // Twice: the thread that met the damaged model served nothing else.
    expect((await upload('/data/restore', 'evil.db', readFileSync(file))).status).toBe(400);
    const restored = await upload('/data/restore', 'good.db', good);
    expect(restored.status, await restored.clone().text()).toBe(200);
    expect(((await restored.json()) as { tables: Record<string, number> }).tables.models).toBeGreaterThan(0);
  }, 120_000);
});
