import { execFileSync, spawn } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Answers, ContentionJob } from './contention-client';

/** A client script's command line (test/bench/<script>.ts under tsx), on a job file written to `dir`. */
function clientArgs(script: string, job: unknown, dir: string): string[] {
  const file = join(dir, `${script}-${Math.random().toString(36).slice(2)}.json`);
  writeFileSync(file, JSON.stringify(job));
  return ['--import', 'tsx', `test/bench/${script}.ts`, file];
}

/** Runs a client script in a process of its own on a job file, and reads what it prints. */
export function runClient<T>(script: string, job: unknown, dir: string): T {
  return JSON.parse(execFileSync(process.execPath, clientArgs(script, job, dir), { encoding: 'utf8', maxBuffer: 256 * 1024 * 1024 })) as T;
}

/**
 * Many writers at once, each on a connection of its own, in one client process: each booking's
 * status and latency, per writer, and how long they all took. Asynchronous, so that this process
 * keeps reading what its servers and PostgreSQL print meanwhile (a full pipe would stop them).
 */
export function runWriters(jobs: readonly ContentionJob[], dir: string): Promise<Answers> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, clientArgs('contention-client', jobs, dir), { stdio: ['ignore', 'pipe', 'inherit'] });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.on('exit', (status) => (status === 0 ? resolve(JSON.parse(output) as Answers) : reject(new Error(`the writers' process exited ${status}`))));
  });
}
