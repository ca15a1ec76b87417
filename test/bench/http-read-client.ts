import { readFileSync } from 'node:fs';
import { keepAliveClient } from './http-client';

/**
 * A script reading in a process of its own: each path `repeats` times after `warmup` (round robin),
 * printing each path's latencies (ms) as JSON. Run by the stores benchmark.
 * Usage: node --import tsx test/bench/http-read-client.ts JOB.json
 */
export interface ReadJob {
  url: string;
  token: string;
  paths: string[];
  warmup: number;
  repeats: number;
}

async function main(): Promise<void> {
  const job = JSON.parse(readFileSync(process.argv[2] ?? '', 'utf8')) as ReadJob;
  const client = keepAliveClient(job.url, job.token);
  const timings: Record<string, number[]> = Object.fromEntries(job.paths.map((p) => [p, []]));
  try {
    for (let i = 0; i < job.warmup + job.repeats; i++) {
      for (const path of job.paths) {
        const start = performance.now();
        const result = await client.send('GET', path);
        const ms = performance.now() - start;
        if (result.status !== 200) throw new Error(`GET ${path} answered ${result.status}: ${result.body.slice(0, 200)}`);
        if (i >= job.warmup) timings[path]?.push(ms);
      }
    }
  } finally {
    client.close();
  }
  process.stdout.write(JSON.stringify(timings));
}

void main();
