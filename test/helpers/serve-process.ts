import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** `npm run serve` as a separate process (the way users and scripts meet it), on a free port. */
export interface ServeProcess {
  child: ChildProcess;
  url: string;
  token: string;
  dataDir: string;
  /** What the process has printed so far (standard output and error). */
  output(): string;
  /** Peak resident memory of the server process so far, in MB (Linux: VmHWM), or null where unknown. */
  peakMemoryMb(): number | null;
  stop(): void;
  /** Settles when the process has ended. */
  exited: Promise<void>;
}

/** The address a starting server prints ("running at …"), once it listens; refused when it exits first or stays silent 30 s. */
export function runningUrl(child: ChildProcess): Promise<string> {
  return new Promise<string>((resolve, reject) => {
    let output = '';
    const timer = setTimeout(() => reject(new Error(`npm run serve did not start: ${output}`)), 30_000);
    const onData = (chunk: Buffer): void => {
      output += chunk.toString();
      const m = /running at (http:\/\/127\.0\.0\.1:\d+\/)/.exec(output);
      if (m?.[1]) {
        clearTimeout(timer);
        resolve(m[1]);
      }
    };
    child.stdout?.on('data', onData);
    child.stderr?.on('data', onData);
    child.on('exit', (code) => reject(new Error(`npm run serve exited (${code}): ${output}`)));
  });
}

/**
 * Starts `npm run serve`'s server, core/serve.ts under tsx; or, given `bundle`, the same server as
 * bundled by build/bundle-node.ts (the browser tests' and the vitest run's: test/helpers/server-bundle.ts).
 */
export async function startServeProcess(dataDir: string, env: NodeJS.ProcessEnv = {}, bundle?: string): Promise<ServeProcess> {
  const child = spawn(process.execPath, bundle === undefined ? ['--import', 'tsx', 'core/serve.ts'] : [bundle], {
    env: { ...process.env, TERMWISE_DATA_DIR: dataDir, TERMWISE_PORT: '0', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let printed = '';
  const keep = (chunk: Buffer): void => {
    printed += chunk.toString();
  };
  child.stdout.on('data', keep);
  child.stderr.on('data', keep);
  const url = await runningUrl(child);
  return {
    child,
    url,
    output: () => printed,
    dataDir,
    token: env.TERMWISE_API_TOKEN ?? readFileSync(join(dataDir, 'api-token'), 'utf8').trim(),
    peakMemoryMb() {
      const status = `/proc/${child.pid}/status`;
      if (!existsSync(status)) return null;
      const kb = /VmHWM:\s+(\d+) kB/.exec(readFileSync(status, 'utf8'))?.[1];
      return kb ? Number(kb) / 1024 : null;
    },
    stop: () => child.kill('SIGTERM'),
    exited: new Promise((resolve) => child.once('exit', () => resolve())),
  };
}

/** Runs `work` against `npm run serve` in its own process with a fresh data folder, then stops it and removes the folder. */
export async function withServeProcess<T>(prefix: string, work: (server: ServeProcess) => Promise<T>): Promise<T> {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  const server = await startServeProcess(dir);
  try {
    return await work(server);
  } finally {
    server.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}
