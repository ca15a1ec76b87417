import { readFileSync } from 'node:fs';
import { keepAliveClient } from './http-client';

/**
 * One of many writers at once, in a process of its own: sends its bookings one after another to
 * its server and prints each answer's status and latency. Run twenty at a time by the stores
 * benchmark, half against each of two server processes on one database.
 * Usage: node --import tsx test/bench/contention-client.ts JOB.json
 */
export interface ContentionJob {
  url: string;
  token: string;
  bodies: unknown[];
  /** Sent with every request (the department a registrar's writer acts in). */
  headers?: Record<string, string>;
  /** When to start (epoch ms): every writer begins together, after all have started up. */
  startAt?: number;
  /** A booking every this many ms (a person's pace), else one after another. */
  intervalMs?: number;
}

async function main(): Promise<void> {
  const job = JSON.parse(readFileSync(process.argv[2] ?? '', 'utf8')) as ContentionJob;
  const client = keepAliveClient(job.url, job.token, job.headers);
  const answers: { status: number; ms: number }[] = [];
  const wait = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, Math.max(0, ms)));
  try {
    await wait((job.startAt ?? 0) - Date.now());
    const began = Date.now();
    for (const [i, body] of job.bodies.entries()) {
      if (job.intervalMs !== undefined) await wait(began + i * job.intervalMs - Date.now());
      const start = performance.now();
      const result = await client.send('POST', 'scheduler/', body);
      answers.push({ status: result.status, ms: performance.now() - start });
    }
  } finally {
    client.close();
  }
  process.stdout.write(JSON.stringify(answers));
}

void main();
