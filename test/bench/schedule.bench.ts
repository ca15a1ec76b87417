import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createCore, type Core } from '../../core/index';
import { formatHHMM } from '../../core/domain/time';
import { upsertCourses } from '../../core/catalog/repo';
import type { Course } from '../../core/catalog/schema';
import { startServeProcess } from '../helpers/serve-process';
import { percentile, record, timed } from './report';
import type { WriteJob, WriteTimings } from './http-write-client';

const DAYS = ['M', 'T', 'W', 'R', 'F', 'S'];

const TERMS = [
  { year: 2025, semester: 'Fall' },
  { year: 2026, semester: 'Spring' },
  { year: 2026, semester: 'Summer' },
] as const;

/**
 * 5,000 stored meetings as a real department's timetable holds them: three terms, 200 rooms at two
 * campuses (declared), 250 doctors, 20 % team-taught (two instructors), 10 % in joint pairs (two
 * sections meeting together). A meeting that the rules refuse is skipped and the next one tried.
 */
export async function fill(core: Core, count: number, withCatalog = false): Promise<number[]> {
  if (withCatalog) await upsertCourses(core.context.db, core.context.department, benchCatalog());
  const doctors: number[] = [];
  for (let i = 0; i < 250; i++) doctors.push((await core.run('doctors-create', { name: `Dr. Bench ${i}`, allowed_courses: ['CSC201'] })).id);
  for (let r = 0; r < 200; r++) await core.run('rooms-create', { name: `Room ${r}`, capacity: 40, campus: r < 100 ? 'Beirut' : 'Byblos' });
  await core.run('schedule-settings-update', { current_term: TERMS[0] });
  let stored = 0;
  for (let i = 0; stored < count; i++) {
    const term = TERMS[i % TERMS.length] ?? TERMS[0];
    const j = Math.floor(i / TERMS.length);
    const slot = Math.floor(j / 200);
    const lead = doctors[j % 250] ?? 0;
    const meeting = {
      ...term,
      course_code: `CSC${200 + (i % 400)}`,
      section_name: String(i),
      doctor_ids: i % 5 === 0 ? [lead, doctors[(j + 125) % 250] ?? 0] : [lead],
      day: DAYS[slot % DAYS.length] ?? 'M',
      start_time: formatHHMM(7 * 60 + Math.floor(slot / DAYS.length) * 90),
      duration_mins: 60,
      room: `Room ${j % 200}`,
    };
    const members =
      i % 10 === 1 && stored + 2 <= count
        ? [
            { ...meeting, joint_group: `J${i}` },
            { ...meeting, course_code: `CSC${600 + (i % 400)}`, joint_group: `J${i}` },
          ]
        : [meeting];
    try {
      for (const m of members) {
        await core.run('schedule-create', m);
        stored++;
      }
    } catch (error) {
      if ((error as { code?: string }).code !== 'conflict') throw error;
    }
  }
  return doctors;
}

/**
 * The catalog the meetings' courses come from, each in a study plan for Fall: cohorts of six courses
 * (a program's year of study), so every write also works out its curriculum conflicts. The probe
 * course MTH201 shares a cohort with CSC200-CSC205.
 */
function benchCatalog(): Course[] {
  const course = (prefix: string, n: number, plan: string): Course => ({
    code: `${prefix}${n}`,
    name: `${prefix} ${n}`,
    prefix,
    number: String(n),
    type: 'core',
    study_plan: plan,
    prerequisites: null,
    course_level: Math.floor(n / 100),
  });
  const planOf = (n: number): string => `Program ${Math.floor((n - 200) / 24)} — Year ${1 + (Math.floor((n - 200) / 6) % 4)}, Fall`;
  return [...Array.from({ length: 800 }, (_, i) => course('CSC', 200 + i, planOf(200 + i))), course('MTH', 201, planOf(200))];
}

/** A probe meeting in the current term: checked against the term's instructors, rooms and sections, then removed. */
export function probe(i: number, doctors: readonly number[]): Record<string, unknown> {
  const lead = doctors[i % doctors.length] ?? 0;
  return {
    course_code: 'MTH201',
    section_name: `p${i}`,
    doctor_ids: i % 5 === 0 ? [lead, doctors[(i + 125) % doctors.length] ?? 0] : [lead],
    day: 'MWF',
    start_time: '22:00',
    duration_mins: 60,
    room: `Room ${i % 200}`,
    ...(i % 10 === 1 ? { joint_group: `J${i}` } : {}),
  };
}

export const SHAPE = '5,000 meetings (3 terms, 2 campuses, 20 % team-taught, 10 % joint)';

/**
 * Warm-up before a latency is measured: a server that has answered this many writes has compiled
 * (JIT) its hot paths, as any server does within its first minute of use.
 */
export const WARMUP = 1000;

/** In-process create latency: 1,000 probes after WARMUP warm-up, each removed so the table stays at 5,000. */
async function inProcessCreates(core: Core, doctors: readonly number[]): Promise<number[]> {
  const samples: number[] = [];
  for (let i = -WARMUP; i < 1000; i++) {
    const { ms, result } = await timed(() => core.run('schedule-create', probe(i + WARMUP, doctors) as never));
    if (i >= 0) samples.push(ms);
    await core.run('schedule-delete', { entry_id: result.id });
  }
  return samples;
}

/** Issues 4, 11 and 12: conflict-checked write latency with 5,000 meetings stored, and the export. */
export async function benchSchedule(): Promise<void> {
  console.log('Timetable');
  const dataDir = mkdtempSync(join(tmpdir(), 'termwise-bench-schedule-'));
  const core = await createCore({ dataDir });
  try {
    const samples = await inProcessCreates(core, await fill(core, 5000));
    record({ name: `conflict-checked create, in-process, ${SHAPE}: median`, value: percentile(samples, 50), unit: 'ms' });
    record({ name: `conflict-checked create, in-process, ${SHAPE}: p99`, value: percentile(samples, 99), unit: 'ms', target: 2 });
    const exported = await timed(() => core.run('schedule-export', {}));
    record({
      name: 'XLSX export of the current term (about 1,700 meetings)',
      value: exported.ms / 1000,
      unit: 's',
      target: 1,
      note: `${(exported.result.content.byteLength / 1e3).toFixed(0)} kB`,
    });
  } finally {
    await core.close();
    rmSync(dataDir, { recursive: true, force: true });
  }

  // The same with every course in a study plan, so each write also works out its curriculum conflicts.
  const planDir = mkdtempSync(join(tmpdir(), 'termwise-bench-schedule-plans-'));
  const planned = await createCore({ dataDir: planDir });
  try {
    const samples = await inProcessCreates(planned, await fill(planned, 5000, true));
    const note = 'catalog of 801 courses in study-plan cohorts of six';
    record({ name: `create with curriculum warnings, in-process, ${SHAPE}: median`, value: percentile(samples, 50), unit: 'ms', note });
    record({ name: `create with curriculum warnings, in-process, ${SHAPE}: p99`, value: percentile(samples, 99), unit: 'ms', note });
  } finally {
    await planned.close();
    rmSync(planDir, { recursive: true, force: true });
  }

  // Over HTTP as a script meets it: the server is `npm run serve` in its own process, the client in another.
  const httpDir = mkdtempSync(join(tmpdir(), 'termwise-bench-schedule-http-'));
  const seeding = await createCore({ dataDir: httpDir });
  const doctors = await fill(seeding, 5000);
  await seeding.close();
  const server = await startServeProcess(httpDir);
  try {
    const warmup = WARMUP;
    const job: WriteJob = { url: server.url, token: server.token, warmup, bodies: Array.from({ length: warmup + 1000 }, (_, i) => probe(i, doctors)) };
    const jobFile = join(httpDir, 'write-job.json');
    writeFileSync(jobFile, JSON.stringify(job));
    const output = execFileSync(process.execPath, ['--import', 'tsx', 'test/bench/http-write-client.ts', jobFile], {
      encoding: 'utf8',
      maxBuffer: 16 * 1024 * 1024,
    });
    const { writes, floor } = JSON.parse(output) as WriteTimings;
    const note =
      'server in its own process (npm run serve), the client in another (node:http, one kept-alive connection), 1,000 requests after 1,000 warm-up, each created meeting deleted';
    record({ name: `conflict-checked POST /scheduler/ over HTTP, ${SHAPE}: median`, value: percentile(writes, 50), unit: 'ms', note });
    record({ name: `conflict-checked POST /scheduler/ over HTTP, ${SHAPE}: p99`, value: percentile(writes, 99), unit: 'ms', target: 5, note });
    // The machine's own floor under the same conditions: what any request costs before the write's work.
    const floorNote = 'GET /health on the same connection right after, 1,000 after 1,000 warm-up: no database, no body';
    record({ name: 'floor: GET /health over HTTP: median', value: percentile(floor, 50), unit: 'ms', note: floorNote });
    record({ name: 'floor: GET /health over HTTP: p99', value: percentile(floor, 99), unit: 'ms', note: floorNote });
  } finally {
    server.stop();
    rmSync(httpDir, { recursive: true, force: true });
  }
}
