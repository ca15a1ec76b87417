import { readFileSync } from 'node:fs';
import { keepAliveClient } from './http-client';

/**
 * A script's client in a process of its own (as a user's script is): it sends each body as
 * `POST /scheduler/`, deletes the created meeting, and prints the POST latencies (ms) as JSON.
 * Run by the schedule benchmark as `node --import tsx test/bench/http-write-client.ts JOB.json`,
 * so the benchmark process's own heap (it seeded 5,000 meetings) adds no pauses to the timings.
 */
export interface WriteJob {
  url: string;
  token: string;
  /** Requests sent first and not counted (JIT and connection warm-up). */
  warmup: number;
  bodies: unknown[];
}

async function main(): Promise<void> {
  const job = JSON.parse(readFileSync(process.argv[2] ?? '', 'utf8')) as WriteJob;
  const client = keepAliveClient(job.url, job.token);
  const samples: number[] = [];
  try {
    for (const [i, body] of job.bodies.entries()) {
      const start = performance.now();
      const result = await client.send('POST', 'scheduler/', body);
      const ms = performance.now() - start;
      if (result.status !== 200) throw new Error(`POST /scheduler/ answered ${result.status}: ${result.body}`);
      if (i >= job.warmup) samples.push(ms);
      await client.send('DELETE', `scheduler/${(JSON.parse(result.body) as { id: number }).id}`);
    }
  } finally {
    client.close();
  }
  process.stdout.write(JSON.stringify(samples));
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
