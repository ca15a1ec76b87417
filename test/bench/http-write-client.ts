import { readFileSync } from 'node:fs';
import { keepAliveClient } from './http-client';

/**
 * A script's client in a process of its own (as a user's script is): it sends each body as
 * `POST /scheduler/`, deletes the created meeting, and prints the POST latencies (ms) as JSON.
 * Run by the schedule benchmark as `node --import tsx test/bench/http-write-client.ts JOB.json`,
 * so the benchmark process's own heap (it seeded 5,000 meetings) adds no pauses to the timings.
 * Then, on the same connection, as many `GET /health` (no database, no body): the floor the
 * machine and loopback put under any request, printed next to the writes.
 */
export interface WriteJob {
  url: string;
  token: string;
  /** Requests sent first and not counted (JIT and connection warm-up). */
  warmup: number;
  bodies: unknown[];
}

/** What the client prints: POST latencies, and GET /health latencies on the same connection (ms). */
export interface WriteTimings {
  writes: number[];
  floor: number[];
}

async function main(): Promise<void> {
  const job = JSON.parse(readFileSync(process.argv[2] ?? '', 'utf8')) as WriteJob;
  const client = keepAliveClient(job.url, job.token);
  const samples: number[] = [];
  const floor: number[] = [];
  try {
    for (const [i, body] of job.bodies.entries()) {
      const start = performance.now();
      const result = await client.send('POST', 'scheduler/', body);
      const ms = performance.now() - start;
      if (result.status !== 200) throw new Error(`POST /scheduler/ answered ${result.status}: ${result.body}`);
      if (i >= job.warmup) samples.push(ms);
      await client.send('DELETE', `scheduler/${(JSON.parse(result.body) as { id: number }).id}`);
    }
    for (let i = 0; i < job.bodies.length; i++) {
      const start = performance.now();
      await client.send('GET', 'health');
      if (i >= job.warmup) floor.push(performance.now() - start);
    }
  } finally {
    client.close();
  }
  const timings: WriteTimings = { writes: samples, floor };
  process.stdout.write(JSON.stringify(timings));
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
