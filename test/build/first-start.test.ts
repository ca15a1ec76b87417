import { createServer, type Server } from 'node:net';
import { mkdirSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { rendererBuildReason, BUILT_PAGE } from '../../build/renderer-freshness';
import { startServeProcess } from '../helpers/serve-process';

/** What a newcomer meets on `npm run serve` from a clone: a page built from the current sources, and a clear word on a busy port. */
const temps: string[] = [];
const temp = (prefix: string): string => {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  temps.push(dir);
  return dir;
};
afterEach(() => {
  for (const dir of temps.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function touch(root: string, path: string, secondsAgo: number): void {
  const file = join(root, path);
  mkdirSync(join(file, '..'), { recursive: true });
  writeFileSync(file, 'x');
  const when = Date.now() / 1000 - secondsAgo;
  utimesSync(file, when, when);
}

describe('npm run serve builds the app page when it is missing or stale', () => {
  it('builds on first start, not when the page is newer than every source, and again when any source changed since', () => {
    const root = temp('termwise-fresh-');
    touch(root, 'renderer/src/main.tsx', 300);
    touch(root, 'core/domain/terms.ts', 300);
    touch(root, 'package-lock.json', 300);
    expect(rendererBuildReason(root)).toBe('first start');

    touch(root, BUILT_PAGE, 100);
    expect(rendererBuildReason(root)).toBeNull();
    // Dependencies installed after the build do not count; the page does not read node_modules' dates.
    touch(root, 'renderer/node_modules/x/index.js', 10);
    expect(rendererBuildReason(root)).toBeNull();

    touch(root, 'core/domain/terms.ts', 10);
    expect(rendererBuildReason(root)).toBe(`${join('core', 'domain', 'terms.ts')} changed since the last build`);
    touch(root, BUILT_PAGE, 5);
    touch(root, 'package-lock.json', 1);
    expect(rendererBuildReason(root)).toBe('package-lock.json changed since the last build');
  });
});

describe('npm run serve on a busy port', () => {
  let blocker: Server | null = null;
  afterEach(async () => {
    await new Promise<void>((resolve) => (blocker ? blocker.close(() => resolve()) : resolve()));
    blocker = null;
  });

  it('says the port is in use and how to pick another, instead of a bare EADDRINUSE', async () => {
    blocker = createServer();
    const port = await new Promise<number>((resolve) => blocker?.listen(0, '127.0.0.1', () => resolve((blocker?.address() as { port: number }).port)));
    const started = startServeProcess(temp('termwise-busy-'), { TERMWISE_PORT: String(port) });
    await expect(started).rejects.toThrow(`Port ${port} is already in use`);
    await expect(started).rejects.toThrow(`TERMWISE_PORT=${port + 1} npm run serve`);
  }, 60_000);
});
