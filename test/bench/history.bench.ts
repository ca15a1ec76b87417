import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createCore } from '../../core/index';
import { openStore } from '../../core/db/store';
import { refreshStatistics } from '../../core/db/versions';
import { DATA_TABLES } from '../../core/db/tables';
import { startServeProcess, type ServeProcess } from '../helpers/serve-process';
import { createDatabase, createTemplateDatabase, startThrowawayPostgres, type PostgresServer } from '../helpers/postgres';
import { fill } from './schedule.bench';
import { percentile, record } from './report';
import { createdOnLaptop } from '../helpers/published-change';
import { CampusServer, fetchTerm, publishTerm } from '../../electron/campus';

/**
 * Issue 52's targets, on both stores: a term's history read over HTTP (2,000 meetings, 10,000
 * changes), and a publish of 500 changes replayed through the checked write path. The server is
 * `npm run serve` in its own process; this process is the client.
 */
type StoreKind = 'SQLite' | 'PostgreSQL';
const TOKEN = 'bench-history-token-0123456789abcdef0123456789';
const TERM = { year: 2025, semester: 'Fall' } as const;

async function get(server: ServeProcess, path: string): Promise<{ ms: number; body: unknown }> {
  const started = performance.now();
  const response = await fetch(new URL(path.replace(/^\//, ''), server.url), { headers: { authorization: `Bearer ${TOKEN}` } });
  const body = (await response.json()) as unknown;
  if (!response.ok) throw new Error(`${path}: ${response.status} ${JSON.stringify(body)}`);
  return { ms: performance.now() - started, body };
}

/** The i-th of the meetings a laptop created, as a publish carries them. */
const created = (uid: string, i: number) =>
  createdOnLaptop(uid, {
    course_code: `PUB${100 + (i % 800)}`,
    section_name: String(i),
    day: ['M', 'T', 'W', 'R', 'F'][i % 5] ?? 'M',
    start_time: `${String(7 + (i % 12)).padStart(2, '0')}:00`,
    instructors: [{ id: 0, name: `Dr. Publish ${i % 40}`, role: 'coordinates' }],
  });

async function measureStore(kind: StoreKind, databaseUrl: string | undefined): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), `termwise-bench-history-${kind}-`));
  try {
    const seeding = await createCore({ dataDir: dir, databaseUrl });
    await seeding.run('sample-load', {});
    await fill(seeding, 6000);
    // 8,000 changes more in the first term (each meeting locked and unlocked, twice: every change checked and recorded like
    // a move, without moving the term's clash-free packing): 10,000 changes with the 2,000 creations.
    const meetings = (await seeding.run('schedule-list', TERM)).slice(0, 2000);
    for (let round = 0; round < 2; round++) {
      for (const m of meetings) await seeding.run('schedule-update', { entry_id: m.id, locked: true });
      for (const m of meetings) await seeding.run('schedule-update', { entry_id: m.id, locked: false });
    }
    await refreshStatistics(seeding.context.db, DATA_TABLES);
    await seeding.close();
    const server = await startServeProcess(dir, { TERMWISE_API_TOKEN: TOKEN, ...(databaseUrl ? { TERMWISE_DATABASE_URL: databaseUrl } : {}) });
    try {
      const { revision } = (await get(server, `/scheduler/revision?year=${TERM.year}&semester=${TERM.semester}`)).body as { revision: number };
      const reads: Record<string, number[]> = { 'the newest 2,000 changes': [], 'one section': [], 'since a revision (the last 100)': [] };
      const paths: Record<string, string> = {
        'the newest 2,000 changes': `/scheduler/history?year=${TERM.year}&semester=${TERM.semester}`,
        'one section': `/scheduler/history?year=${TERM.year}&semester=${TERM.semester}&course_code=CSC200&section_name=0`,
        'since a revision (the last 100)': `/scheduler/history?year=${TERM.year}&semester=${TERM.semester}&since_revision=${revision - 100}`,
      };
      for (let i = 0; i < 60; i++) {
        for (const [name, path] of Object.entries(paths)) {
          const { ms } = await get(server, path);
          if (i >= 10) reads[name]?.push(ms);
        }
      }
      for (const [name, samples] of Object.entries(reads)) {
        record({
          name: `${kind}: GET /scheduler/history, ${name} (term of 2,000 meetings, ${revision.toLocaleString('en-US')} changes): p99`,
          value: percentile(samples, 99),
          unit: 'ms',
          target: name === 'the newest 2,000 changes' ? 200 : undefined,
          note: `median ${percentile(samples, 50).toFixed(1)} ms over ${samples.length} reads after 10`,
        });
      }
      const publishes: number[] = [];
      for (let run = 0; run < 3; run++) {
        const term = { year: 2032 + run, semester: 'Spring' };
        const changes = Array.from({ length: 500 }, (_, i) => created(`bench-${run}-${i}`, i));
        const started = performance.now();
        const response = await fetch(new URL('scheduler/terms/publish-changes', server.url), {
          method: 'POST',
          headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' },
          body: JSON.stringify({ ...term, base_revision: 0, key: `bench-publish-${run}`, changes }),
        });
        const answer = (await response.json()) as { status?: string; applied?: number };
        publishes.push(performance.now() - started);
        if (answer.status !== 'published' || answer.applied !== 500) throw new Error(`the publish answered ${JSON.stringify(answer).slice(0, 300)}`);
      }
      record({
        name: `${kind}: publish of 500 changes (new meetings, replayed through every rule), median of 3`,
        value: percentile(publishes, 50) / 1000,
        unit: 's',
        target: kind === 'PostgreSQL' ? 2 : undefined,
        note: `each ${publishes.map((ms) => (ms / 1000).toFixed(2)).join(', ')} s`,
      });
      await laptopPublishes(kind, server, dir);
    } finally {
      server.stop();
      await server.exited;
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * What staff wait for when they press Publish on a laptop with two new meetings: the laptop's own
 * core (SQLite, in this process, as in the desktop app's main process) fetches the server's changes,
 * publishes its two, marks them published and fetches again, over HTTP to the server's process.
 */
async function laptopPublishes(kind: StoreKind, server: ServeProcess, dir: string): Promise<void> {
  const password = 'laptop bench passphrase';
  const created = await fetch(new URL('people', server.url), {
    method: 'POST',
    headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' },
    body: JSON.stringify({ login: 'laptop-bench', name: 'Laptop Bench', role: 'scheduler', department_id: 1, password }),
  });
  if (!created.ok) throw new Error(`no laptop person: ${await created.text()}`);
  const campus = await CampusServer.signIn(server.url, 'laptop-bench', password, 'bench laptop');
  const laptop = await createCore({ dataDir: join(dir, 'laptop') });
  try {
    const term = { year: 2040, semester: 'Fall' } as const;
    await fetchTerm(laptop, campus, term);
    const times: number[] = [];
    for (let run = 0; run < 25; run++) {
      for (const i of [0, 1])
        await laptop.run('schedule-create', {
          ...term,
          course_code: `LAP${100 + run}`,
          section_name: String(i + 1),
          day: i === 0 ? 'MW' : 'TR',
          start_time: `${String(7 + (run % 12)).padStart(2, '0')}:00`,
          duration_mins: 50,
          room: 'TBD',
        });
      const started = performance.now();
      const outcome = await publishTerm(laptop, campus, term);
      if (run >= 5) times.push(performance.now() - started);
      if (outcome.status !== 'published' || outcome.published !== 2) throw new Error(`the publish answered ${JSON.stringify(outcome).slice(0, 300)}`);
    }
    record({
      name: `${kind}: a laptop publishes 2 new meetings, end to end (fetch, publish, mark, fetch over HTTP): p99`,
      value: percentile(times, 99),
      unit: 'ms',
      target: 300,
      note: `median ${percentile(times, 50).toFixed(0)} ms over ${times.length} publishes after 5, the server holding 6,000 meetings`,
    });
  } finally {
    await laptop.close();
  }
}

export async function benchHistory(): Promise<void> {
  console.log('Change history and publish (npm run serve in its own process, the client in this one)');
  await measureStore('SQLite', undefined);
  const given = process.env.TERMWISE_BENCH_DATABASE_URL;
  let postgres: PostgresServer | null = null;
  let adminUrl = given;
  if (!adminUrl) {
    postgres = await startThrowawayPostgres();
    adminUrl = postgres.adminUrl;
  }
  try {
    const template = await createTemplateDatabase(adminUrl, async (url) =>
      (await openStore({ kind: 'postgres', url }, { migrate: true, poolSize: 1 })).close(),
    );
    const database = await createDatabase(adminUrl, template, 'termwise_bench');
    try {
      await measureStore('PostgreSQL', database.url);
    } finally {
      await database.drop();
    }
  } finally {
    await postgres?.stop();
  }
}
