import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createCore } from '../../core/index';
import { startServeProcess, type ServeProcess } from '../helpers/serve-process';
import { createDatabase, createTemplateDatabase, startThrowawayPostgres, type PostgresServer } from '../helpers/postgres';
import { openStore } from '../../core/db/store';
import { refreshStatistics } from '../../core/db/versions';
import { DATA_TABLES } from '../../core/db/tables';
import { syntheticListing } from '../fixtures/synthetic-listing';
import { fill, probe, SHAPE, WARMUP } from './schedule.bench';
import type { WriteJob, WriteTimings } from './http-write-client';
import type { ReadJob } from './http-read-client';
import type { ContentionJob } from './contention-client';
import { percentile, record, timed } from './report';
import { runClient, runWriters } from './clients';

/**
 * Issue 36: the same measurements on both stores, side by side — SQLite in the data folder (the
 * laptop) and PostgreSQL (a shared server: a throwaway server started here, or
 * TERMWISE_BENCH_DATABASE_URL). The server is `npm run serve` in its own process; every client is a
 * script in another process.
 */
type StoreKind = 'SQLite' | 'PostgreSQL';

const READ_PATHS = [
  '/scheduler/',
  '/scheduler/rooms',
  '/scheduler/doctors',
  '/scheduler/terms',
  '/data/courses',
  '/data/offerings',
  '/dashboard/metrics',
  '/predict/runs',
];

const TOKEN = 'bench-stores-token-0123456789abcdef0123456789';

/** Runs `work` while a monitoring script in another process polls GET /health every 10 ms. */
async function whileProbing<T>(server: ServeProcess, work: () => Promise<T>): Promise<{ result: T; health: number[] }> {
  const probeProcess = spawn(process.execPath, ['--import', 'tsx', 'test/bench/health-probe.ts', server.url], { stdio: ['pipe', 'pipe', 'inherit'] });
  let output = '';
  probeProcess.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<void>((resolve) => probeProcess.on('exit', () => resolve()));
  await new Promise((resolve) => setTimeout(resolve, 1_500));
  const result = await work();
  probeProcess.stdin.end();
  await exited;
  return { result, health: JSON.parse(output || '[]') as number[] };
}

async function importListing(server: ServeProcess, csv: string): Promise<{ status: number; meetings: number }> {
  const form = new FormData();
  form.append('dry_run', 'false');
  form.append('file', new Blob([csv]), 'listing.csv');
  const response = await fetch(new URL('scheduler/import', server.url), { method: 'POST', headers: { authorization: `Bearer ${server.token}` }, body: form });
  const answer = (await response.json()) as { meetings?: number };
  return { status: response.status, meetings: answer.meetings ?? 0 };
}

interface StoreFigures {
  writes: number[];
  reads: Record<string, number[]>;
  importSeconds: number;
  healthDuringImport: number[];
}

/** The data of a department with 5,000 meetings, seeded in-process, then measured through `npm run serve`. */
async function measureStore(kind: StoreKind, databaseUrl: string | undefined): Promise<StoreFigures> {
  const dir = mkdtempSync(join(tmpdir(), `termwise-bench-stores-${kind}-`));
  try {
    const seeding = await createCore({ dataDir: dir, databaseUrl });
    await seeding.run('sample-load', {});
    await seeding.run('predict-bulk', { run_name: 'bench', target_year: 2025, target_semester: 'Fall', target_campus: 'Beirut' });
    const doctors = await fill(seeding, 5000);
    // The planner's statistics as autovacuum keeps them on a server in use (PostgreSQL; nothing on SQLite).
    await refreshStatistics(seeding.context.db, DATA_TABLES);
    await seeding.close();
    const server = await startServeProcess(dir, { TERMWISE_API_TOKEN: TOKEN, ...(databaseUrl ? { TERMWISE_DATABASE_URL: databaseUrl } : {}) });
    try {
      const warmup = WARMUP;
      const { writes } = runClient<WriteTimings>(
        'http-write-client',
        { url: server.url, token: TOKEN, warmup, bodies: Array.from({ length: warmup + 1000 }, (_, i) => probe(i, doctors)) } satisfies WriteJob,
        dir,
      );
      const reads = runClient<Record<string, number[]>>(
        'http-read-client',
        { url: server.url, token: TOKEN, paths: READ_PATHS, warmup: 50, repeats: 200 } satisfies ReadJob,
        dir,
      );
      const listing = syntheticListing(20_000, { year: 2030, semester: 'Fall' });
      const { result, health } = await whileProbing(server, () => timed(() => importListing(server, listing)));
      if (result.result.status !== 200 || result.result.meetings !== 20_000)
        throw new Error(`the 20,000-row import on ${kind} answered ${result.result.status} with ${result.result.meetings} meetings`);
      return { writes, reads, importSeconds: result.ms / 1000, healthDuringImport: health };
    } finally {
      server.stop();
      await server.exited;
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * Twenty writers at once over two server processes on one PostgreSQL database, each booking 50
 * meetings in one week of 40 rooms and 60 instructors, so that writers often want the same room or
 * instructor at the same time: every answer 200 or a refusal in words, and no double booking stored.
 */
async function contention(adminUrl: string, template: string): Promise<void> {
  const database = await createDatabase(adminUrl, template, 'termwise_bench');
  const dirs = [mkdtempSync(join(tmpdir(), 'termwise-bench-contention-a-')), mkdtempSync(join(tmpdir(), 'termwise-bench-contention-b-'))];
  const seeding = await createCore({ dataDir: dirs[0] as string, databaseUrl: database.url });
  const doctors: number[] = [];
  for (let i = 0; i < 60; i++) doctors.push((await seeding.run('doctors-create', { name: `Dr. Busy ${i}` })).id);
  await seeding.close();
  const servers = await Promise.all(dirs.map((dir) => startServeProcess(dir, { TERMWISE_API_TOKEN: TOKEN, TERMWISE_DATABASE_URL: database.url })));
  try {
    const slots = ['MW 08:00', 'MW 09:30', 'MW 11:00', 'TR 08:00', 'TR 09:30', 'TR 11:00'];
    let n = 0;
    const jobs = Array.from({ length: 20 }, (_, w) => ({
      url: (servers[w % 2] as ServeProcess).url,
      token: TOKEN,
      bodies: Array.from({ length: 50 }, () => {
        const i = n++;
        const [day, start] = (slots[(i * 7) % slots.length] as string).split(' ');
        return {
          year: 2031,
          semester: 'Spring',
          course_code: `BUS${100 + (i % 300)}`,
          section_name: String(i),
          doctor_id: doctors[(i * 13) % doctors.length],
          day,
          start_time: start,
          duration_mins: 75,
          room: `Room ${(i * 11) % 40}`,
        };
      }),
    }));
    const { writers, seconds } = await runWriters(jobs satisfies ContentionJob[], dirs[0] as string);
    const answers = writers.flat();
    const response = await fetch(new URL('scheduler/?year=2031&semester=Spring', (servers[0] as ServeProcess).url), {
      headers: { authorization: `Bearer ${TOKEN}` },
    });
    const stored = (await response.json()) as { room: string; day: string; start_time: string; doctor_ids: number[] }[];
    const taken = new Set<string>();
    let doubles = 0;
    for (const e of stored) {
      for (const key of [`room ${e.room}`, ...e.doctor_ids.map((d) => `doctor ${d}`)]) {
        for (const day of e.day) {
          const slot = `${key} ${day} ${e.start_time}`;
          if (taken.has(slot)) doubles++;
          taken.add(slot);
        }
      }
    }
    const failures = answers.filter((a) => a.status >= 500).length;
    const latencies = answers.map((a) => a.ms);
    const note = `${answers.length} bookings by 20 writers (each on a connection of its own) over 2 server processes in ${seconds.toFixed(1)} s; ${answers.filter((a) => a.status === 200).length} stored, ${answers.filter((a) => a.status === 400).length} refused in words`;
    record({ name: 'PostgreSQL, 20 concurrent writers over two server processes: 5xx answers', value: failures, unit: '', target: 0, note });
    record({ name: 'PostgreSQL, 20 concurrent writers over two server processes: double bookings stored', value: doubles, unit: '', target: 0 });
    record({
      name: 'PostgreSQL, 20 concurrent writers over two server processes: booking latency p99',
      value: percentile(latencies, 99),
      unit: 'ms',
      note: `median ${percentile(latencies, 50).toFixed(1)} ms`,
    });
  } finally {
    for (const server of servers) server.stop();
    await Promise.all(servers.map((s) => s.exited));
    await database.drop();
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  }
}

export async function benchStores(): Promise<void> {
  console.log('Both stores, side by side (npm run serve in its own process, clients in others; SQLite in the data folder, PostgreSQL on this machine)');
  const given = process.env.TERMWISE_BENCH_DATABASE_URL;
  let server: PostgresServer | null = null;
  let adminUrl = given;
  if (!adminUrl) {
    server = await startThrowawayPostgres();
    adminUrl = server.adminUrl;
    console.log(`  PostgreSQL ${server.version}, throwaway server (fsync off: durability is not what is measured)`);
  }
  try {
    const template = await createTemplateDatabase(adminUrl, async (url) =>
      (await openStore({ kind: 'postgres', url }, { migrate: true, poolSize: 1 })).close(),
    );
    const figures = new Map<StoreKind, StoreFigures>();
    figures.set('SQLite', await measureStore('SQLite', undefined));
    const database = await createDatabase(adminUrl, template, 'termwise_bench');
    try {
      figures.set('PostgreSQL', await measureStore('PostgreSQL', database.url));
    } finally {
      await database.drop();
    }
    const lite = figures.get('SQLite') as StoreFigures;
    const postgres = figures.get('PostgreSQL') as StoreFigures;
    for (const [kind, f] of figures) {
      record({ name: `${kind}: conflict-checked POST /scheduler/ over HTTP, ${SHAPE}: median`, value: percentile(f.writes, 50), unit: 'ms' });
      record({
        name: `${kind}: conflict-checked POST /scheduler/ over HTTP, ${SHAPE}: p99`,
        value: percentile(f.writes, 99),
        unit: 'ms',
        target: kind === 'SQLite' ? 5 : 10,
      });
    }
    for (const path of READ_PATHS) {
      const a = percentile(lite.reads[path] ?? [], 50);
      const b = percentile(postgres.reads[path] ?? [], 50);
      record({
        name: `GET ${path} (median of 200): PostgreSQL / SQLite`,
        value: b / a,
        unit: '×',
        target: 2,
        note: `SQLite ${a.toFixed(2)} ms (p99 ${percentile(lite.reads[path] ?? [], 99).toFixed(2)}), PostgreSQL ${b.toFixed(2)} ms (p99 ${percentile(postgres.reads[path] ?? [], 99).toFixed(2)})`,
      });
    }
    for (const [kind, f] of figures) {
      record({ name: `${kind}: import a 20,000-row listing (400 rooms, 2,000 instructors), applied`, value: f.importSeconds, unit: 's', target: 5 });
      record({
        name: `${kind}: GET /health while it imports: p99`,
        value: percentile(f.healthDuringImport, 99),
        unit: 'ms',
        target: 50,
        note: `median ${percentile(f.healthDuringImport, 50).toFixed(1)} ms over ${f.healthDuringImport.length} requests`,
      });
    }
    await contention(adminUrl, template);
  } finally {
    await server?.stop();
  }
}
