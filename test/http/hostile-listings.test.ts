import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { distinctMeetsWith, oneRoomOneSlot, plainListing, repeatedRowsManyInstructors } from '../fixtures/hostile-listings';
import { startServeProcess, type ServeProcess } from '../helpers/serve-process';
import { TEST_SERVER } from '../helpers/server-bundle';
import { testDatabase } from '../helpers/test-store';
import type { TimetableImportResult } from '../../core/timetable-import/service';

/**
 * Registrar listings built to make the timetable import's work grow with the square of their rows,
 * sent to `npm run serve` in its own process, as a script on the machine would: each is answered
 * with a bounded answer (or refused, 413, naming why), the server keeps answering other routes
 * while it works, and its memory stays bounded.
 */
let server: ServeProcess;
let dataDir: string;
let database: Awaited<ReturnType<typeof testDatabase>>;

// On the project's store: the server process is given the PostgreSQL project's database.
beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'termwise-hostile-listings-'));
  database = await testDatabase();
  server = await startServeProcess(dataDir, database.databaseUrl === undefined ? {} : { TERMWISE_DATABASE_URL: database.databaseUrl }, TEST_SERVER);
}, 60_000);
afterAll(async () => {
  server.stop();
  await server.exited;
  await database.drop();
  rmSync(dataDir, { recursive: true, force: true });
});

const auth = (): Record<string, string> => ({ authorization: `Bearer ${server.token}` });

async function importListing(csv: string, fields: Record<string, string> = {}): Promise<{ status: number; text: string }> {
  const form = new FormData();
  for (const [k, v] of Object.entries({ year: '2030', semester: 'Fall', ...fields })) form.append(k, v);
  form.append('file', new Blob([csv]), 'listing.csv');
  const response = await fetch(new URL('scheduler/import', server.url), { method: 'POST', headers: auth(), body: form });
  return { status: response.status, text: await response.text() };
}

const detail = (text: string): string => (JSON.parse(text) as { detail: string }).detail;

describe('hostile registrar listings', () => {
  it('keeps answering other requests while a 20,000-row listing is imported, and stores it all', async () => {
    const importing = importListing(plainListing(20_000), { dry_run: 'false' });
    let answeredDuring = 0;
    let done = false;
    void importing.then(() => (done = true));
    while (!done) {
      const health = await fetch(new URL('health', server.url));
      expect(health.status).toBe(200);
      if (!done) answeredDuring++;
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    const { status, text } = await importing;
    expect(status, text.slice(0, 300)).toBe(200);
    const result = JSON.parse(text) as TimetableImportResult;
    expect(result).toMatchObject({ status: 'success', meetings: 20_000, conflicts: [] });
    expect(result.created.rooms).toHaveLength(200);
    expect(result.totals.rooms).toBe(20_000);
    // The import ran off the request thread: the server answered meanwhile.
    expect(answeredDuring).toBeGreaterThan(3);
  }, 60_000);

  it('refuses 4,000 sections piled into one room and slot (413, saying why); 100 of them as one joint group of too many sections', async () => {
    const { status, text } = await importListing(oneRoomOneSlot(4_000));
    expect(status).toBe(413);
    expect(detail(text)).toMatch(/so many meetings in one room, with one instructor or at one time/);
    const hundred = await importListing(oneRoomOneSlot(100));
    expect(hundred.status).toBe(413);
    expect(detail(hundred.text)).toMatch(/joint group .* would hold more than 40 sections meeting together/);
    expect(text.length).toBeLessThan(1_000);
  });

  it('lists the first 200 of 1,999 clashes of sections that each "meet with" another group, with the total, in a bounded answer', async () => {
    const { status, text } = await importListing(distinctMeetsWith(2_000), { conflicts: 'flag' });
    expect(status, text.slice(0, 300)).toBe(200);
    const result = JSON.parse(text) as TimetableImportResult;
    expect(result.conflicts).toHaveLength(200);
    expect(result.totals.conflicts).toBe(1_999);
    expect(result.conflicts.every((c) => c.detail.length < 2_000)).toBe(true);
    expect(text.length).toBeLessThan(500_000);
  });

  it('refuses a listing that would need millions of comparisons (413), instead of comparing every pair', async () => {
    const { status, text } = await importListing(distinctMeetsWith(4_000), { conflicts: 'flag' });
    expect(status).toBe(413);
    expect(detail(text)).toMatch(/so many meetings in one room, with one instructor or at one time/);
  });

  it('leaves out a meeting repeated on 16,000 rows with another instructor each (at most 8 per meeting), saying why', async () => {
    const { status, text } = await importListing(repeatedRowsManyInstructors(16_000));
    expect(status, text.slice(0, 300)).toBe(200);
    const result = JSON.parse(text) as TimetableImportResult;
    expect(result.meetings).toBe(0);
    expect(result.skipped).toEqual({ 'more than 8 instructors for one meeting (a timetable entry holds at most 8)': 1 });
    expect(result.merged).toBe(15_999);
    expect(text.length).toBeLessThan(20_000);
  });

  it('stays within 500 MB of memory through all of the above', () => {
    const peak = server.peakMemoryMb();
    if (peak === null) console.warn('Not checking peak memory: /proc is not available on this system');
    else expect(peak).toBeLessThan(500);
  });
});
