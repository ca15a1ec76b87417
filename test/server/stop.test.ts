import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { startServeProcess, type ServeProcess } from '../helpers/serve-process';
import { TEST_SERVER } from '../helpers/server-bundle';

/**
 * `npm run serve` stops when asked, as a service manager or Ctrl+C asks it: open event streams (a page
 * left open) are ended, the process exits within the grace period, killed by the signal it was sent.
 */
let dir: string;
let server: ServeProcess | undefined;
afterEach(() => {
  server?.stop();
  rmSync(dir, { recursive: true, force: true });
});

describe('stopping the server', () => {
  for (const signal of ['SIGTERM', 'SIGINT'] as const) {
    it(`exits within 5 s of ${signal} while pages hold their event streams, and says it was stopped by it`, async () => {
      dir = mkdtempSync(join(tmpdir(), 'termwise-stop-'));
      server = await startServeProcess(dir, {}, TEST_SERVER);
      const running = server;
      const streams = await Promise.all([1, 2, 3].map(() => fetch(new URL('/events', running.url), { headers: { authorization: `Bearer ${running.token}` } })));
      for (const stream of streams) expect(stream.status).toBe(200);
      const ended = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
        running.child.once('exit', (code, by) => resolve({ code, signal: by })),
      );
      const asked = performance.now();
      running.child.kill(signal);
      const exit = await ended;
      const seconds = (performance.now() - asked) / 1000;
      console.log(`${signal} with 3 open event streams: exited in ${seconds.toFixed(2)} s`);
      expect(seconds).toBeLessThan(5);
      expect(exit).toEqual({ code: null, signal });
      // Each stream ended (not cut mid-event): its reader sees the end.
      for (const stream of streams) await expect(stream.text()).resolves.toMatch(/^: connected/);
    }, 40_000);
  }
});
