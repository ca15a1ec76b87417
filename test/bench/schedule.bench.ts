import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createCore, type Core } from '../../core/index';
import { formatHHMM } from '../../core/domain/time';
import { startServeProcess } from '../helpers/serve-process';
import { percentile, record, timed } from './report';

const DAYS = ['M', 'T', 'W', 'R', 'F', 'S'];

/** 5,000 non-conflicting entries: 200 rooms × 25 slots (one day, 90-minute steps), 250 doctors. */
async function fill(core: Core, count: number): Promise<number[]> {
  const doctors: number[] = [];
  for (let i = 0; i < 250; i++) doctors.push((await core.run('doctors-create', { name: `Dr. Bench ${i}`, allowed_courses: ['CSC201'] })).id);
  for (let i = 0; i < count; i++) {
    const room = `Room ${i % 200}`;
    const slot = Math.floor(i / 200);
    const day = DAYS[slot % DAYS.length] ?? 'M';
    const start = 7 * 60 + Math.floor(slot / DAYS.length) * 90;
    await core.run('schedule-create', { course_code: `CSC${200 + (i % 400)}`, section_name: String(i), doctor_id: doctors[i % 250] ?? 0, day, start_time: formatHHMM(start), duration_mins: 60, room });
  }
  return doctors;
}

/** Issue 4: conflict-checked POST latency with 5,000 entries stored, and the export. */
export async function benchSchedule(): Promise<void> {
  console.log('Timetable');
  const dataDir = mkdtempSync(join(tmpdir(), 'termwise-bench-schedule-'));
  const core = createCore({ dataDir });
  try {
    const doctors = await fill(core, 5000);
    const samples: number[] = [];
    for (let i = 0; i < 500; i++) {
      // Each probe is checked against rooms and a doctor, then removed, so the table stays at 5,000.
      const { ms, result } = await timed(() =>
        core.run('schedule-create', { course_code: 'MTH201', section_name: `p${i}`, doctor_id: doctors[i % doctors.length] ?? 0, day: 'MWF', start_time: '22:00', duration_mins: 60, room: `Probe ${i % 50}` }),
      );
      samples.push(ms);
      await core.run('schedule-delete', { entry_id: result.id });
    }
    record({ name: 'conflict-checked create, in-process, 5,000 entries: median', value: percentile(samples, 50), unit: 'ms' });
    record({ name: 'conflict-checked create, in-process, 5,000 entries: p99', value: percentile(samples, 99), unit: 'ms', target: 2 });
    const exported = await timed(() => core.run('schedule-export', {}));
    record({ name: 'XLSX export of 5,000 entries', value: exported.ms / 1000, unit: 's', target: 1, note: `${(exported.result.content.byteLength / 1e3).toFixed(0)} kB` });
  } finally {
    core.close();
    rmSync(dataDir, { recursive: true, force: true });
  }

  // Over HTTP as a script meets it: the server is `npm run serve` in its own process, the client here.
  const httpDir = mkdtempSync(join(tmpdir(), 'termwise-bench-schedule-http-'));
  const seeding = createCore({ dataDir: httpDir });
  const doctors = await fill(seeding, 5000);
  seeding.close();
  const server = await startServeProcess(httpDir);
  const post = async (body: unknown): Promise<{ id: number }> => {
    const response = await fetch(new URL('scheduler/', server.url), { method: 'POST', headers: { authorization: `Bearer ${server.token}`, 'content-type': 'application/json' }, body: JSON.stringify(body) });
    return (await response.json()) as { id: number };
  };
  try {
    const samples: number[] = [];
    for (let i = -100; i < 1000; i++) {
      // The first 100 requests warm the JIT and the connection and are not counted.
      const body = { course_code: 'MTH201', section_name: `p${i}`, doctor_id: doctors[(i + 100) % doctors.length] ?? 0, day: 'MWF', start_time: '22:00', duration_mins: 60, room: `Probe ${(i + 100) % 50}` };
      const { ms, result } = await timed(() => post(body));
      if (i >= 0) samples.push(ms);
      await fetch(new URL(`scheduler/${result.id}`, server.url), { method: 'DELETE', headers: { authorization: `Bearer ${server.token}` } });
    }
    const note = 'server in its own process (npm run serve), 1,000 requests after 100 warm-up';
    record({ name: 'conflict-checked POST /scheduler/ over HTTP, 5,000 entries: median', value: percentile(samples, 50), unit: 'ms', note });
    record({ name: 'conflict-checked POST /scheduler/ over HTTP, 5,000 entries: p99', value: percentile(samples, 99), unit: 'ms', target: 5, note });
  } finally {
    server.stop();
    rmSync(httpDir, { recursive: true, force: true });
  }
}
