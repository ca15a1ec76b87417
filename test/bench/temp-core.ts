import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createCore, type Core } from '../../core/index';

/** A core on a fresh data folder for one measurement, removed afterwards. */
export async function withTempCore<T>(label: string, work: (core: Core, dataDir: string) => Promise<T>): Promise<T> {
  const dataDir = mkdtempSync(join(tmpdir(), `termwise-bench-${label}-`));
  const core = await createCore({ dataDir });
  try {
    return await work(core, dataDir);
  } finally {
    await core.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}
