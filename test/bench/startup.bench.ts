import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createCore } from '../../core/index';
import { sampleFile } from '../helpers/server';
import { record } from './report';

/** Issue 2: `npm run serve` answers /health within 3 s on the sample database. */
export async function benchStartup(): Promise<void> {
  console.log('Headless start-up');
  const dataDir = mkdtempSync(join(tmpdir(), 'termwise-bench-start-'));
  const core = await createCore({ dataDir });
  await core.run('courses-upload', { file: { filename: 'courses.json', content: sampleFile('courses.json') } });
  await core.run('offerings-upload', { file: { filename: 'offerings.csv', content: sampleFile('offerings.csv') } });
  await core.run('doctors-upload', { file: { filename: 'doctors.csv', content: sampleFile('doctors.csv') } });
  await core.close();
  const port = 4700 + Math.floor(Math.random() * 200);
  const started = performance.now();
  const child = spawn(process.execPath, ['--import', 'tsx', 'core/serve.ts'], { env: { ...process.env, TERMWISE_DATA_DIR: dataDir, TERMWISE_PORT: String(port) }, stdio: 'ignore' });
  try {
    for (;;) {
      if (performance.now() - started > 20_000) throw new Error('npm run serve did not answer within 20 s');
      try {
        const response = await fetch(`http://127.0.0.1:${port}/health`);
        if (response.ok) break;
      } catch {
        await new Promise((r) => setTimeout(r, 25));
      }
    }
    record({ name: 'headless start (core/serve.ts) until /health answers, sample database', value: (performance.now() - started) / 1000, unit: 's', target: 3 });
  } finally {
    child.kill('SIGTERM');
    rmSync(dataDir, { recursive: true, force: true });
  }
}
