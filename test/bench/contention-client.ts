import { readFileSync } from 'node:fs';
import { keepAliveClient } from './http-client';

/**
 * Many writers at once, each on a connection of its own, in one client process: each writer sends
 * its bookings one after another to its server, and the process prints each answer's status and
 * latency, per writer. Run with twenty writers by the stores and campus benchmarks, half against
 * each of two server processes on one database.
 * Usage: node --import tsx test/bench/contention-client.ts JOBS.json
 *
 * The writers share one process, not one each: on a 2-core machine twenty client processes that
 * start together also collect their garbage together, and their pauses and exits, not the servers',
 * made the slowest answers (people's browsers run on machines of their own).
 * As on a server that has run for a while, and a screen that is open, each writer's connection and
 * the server's booking path are warm before the first counted booking: before the common start it
 * books each of `warmup` and deletes it again, and the counted bookings follow at once, as they
 * would on a server in use (after seconds of idling, the first answers were the slowest).
 */
export interface ContentionJob {
  url: string;
  token: string;
  bodies: unknown[];
  /** Sent with every request (the department a registrar's writer acts in). */
  headers?: Record<string, string>;
  /** How long after the common start this writer begins (the common start is when every writer has warmed up). */
  offsetMs?: number;
  /** A booking every this many ms (a person's pace), else one after another. */
  intervalMs?: number;
  /** Booked and deleted again before the start, not counted. */
  warmup?: unknown[];
}

export interface Answer {
  status: number;
  ms: number;
}

/** What the client prints: each writer's answers, and the seconds from the common start to the last answer. */
export interface Answers {
  writers: Answer[][];
  seconds: number;
}

const wait = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, Math.max(0, ms)));

type Client = ReturnType<typeof keepAliveClient>;

async function warmUp(client: Client, job: ContentionJob): Promise<void> {
  for (const body of job.warmup ?? []) {
    const booked = await client.send('POST', 'scheduler/', body);
    if (booked.status === 400) continue; // refused in words (another writer's warm-up has the room): warm all the same
    if (booked.status !== 200) throw new Error(`a warm-up booking answered ${booked.status}: ${booked.body}`);
    await client.send('DELETE', `scheduler/${(JSON.parse(booked.body) as { id: number }).id}`);
  }
}

async function write(client: Client, job: ContentionJob, startAt: number): Promise<Answer[]> {
  const answers: Answer[] = [];
  await wait(startAt + (job.offsetMs ?? 0) - Date.now());
  const began = Date.now();
  for (const [i, body] of job.bodies.entries()) {
    if (job.intervalMs !== undefined) await wait(began + i * job.intervalMs - Date.now());
    const start = performance.now();
    const result = await client.send('POST', 'scheduler/', body);
    answers.push({ status: result.status, ms: performance.now() - start });
  }
  return answers;
}

async function main(): Promise<void> {
  const jobs = JSON.parse(readFileSync(process.argv[2] ?? '', 'utf8')) as ContentionJob[];
  const clients = jobs.map((job) => keepAliveClient(job.url, job.token, job.headers));
  try {
    await Promise.all(jobs.map((job, i) => warmUp(clients[i] as Client, job)));
    const startAt = Date.now() + 50;
    const writers = await Promise.all(jobs.map((job, i) => write(clients[i] as Client, job, startAt)));
    process.stdout.write(JSON.stringify({ writers, seconds: (Date.now() - startAt) / 1000 } satisfies Answers));
  } finally {
    for (const client of clients) client.close();
  }
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
