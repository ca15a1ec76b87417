import { describe, expect, it } from 'vitest';
import { runWorker, WorkerLimitError } from '../../core/workers';
import type { TestJob } from '../fixtures/job-worker';

const MODULE = new URL('../fixtures/job-worker.ts', import.meta.url);
const BOUNDS = { timeoutMs: 5_000, maxHeapMb: 128 };
const run = (job: TestJob, timeoutMs = BOUNDS.timeoutMs): Promise<number> => runWorker<number>(MODULE, job, { bounds: { ...BOUNDS, timeoutMs } });

describe('worker threads kept between jobs', () => {
  it('runs the next job on the thread the last one ended on, a refusal included; a thread out of time ends, and the next job gets a new one', async () => {
    const first = await run({ kind: 'thread' });
    expect(await run({ kind: 'thread' })).toBe(first);
    await expect(run({ kind: 'refuse' })).rejects.toThrow(`refused on thread ${first}`);
    expect(await run({ kind: 'thread' })).toBe(first);
    await expect(run({ kind: 'spin' }, 300)).rejects.toBeInstanceOf(WorkerLimitError);
    const next = await run({ kind: 'thread' });
    expect(next).not.toBe(first);
    expect(await run({ kind: 'thread' })).toBe(next);
  }, 30_000);

  it('runs jobs asked at once on threads of their own, each reporting its own progress', async () => {
    const progress: unknown[][] = [[], []];
    const [a, b] = await Promise.all(
      [0, 1].map((i) =>
        runWorker<number>(MODULE, { kind: 'wait', ms: 300 } satisfies TestJob, { bounds: BOUNDS, onProgress: (value) => progress[i]?.push(value) }),
      ),
    );
    expect(a).not.toBe(b);
    expect(progress).toEqual([['wait'], ['wait']]);
  }, 30_000);
});
