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
}

async function main(): Promise<void> {
  const job = JSON.parse(readFileSync(process.argv[2] ?? '', 'utf8')) as ContentionJob;
  const client = keepAliveClient(job.url, job.token, job.headers);
  const answers: { status: number; ms: number }[] = [];
  try {
    for (const body of job.bodies) {
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
