/** Runs before `npm run serve`: builds the app page once if it has not been built yet. */
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';

if (!existsSync('dist/renderer/index.html')) {
  console.log('Building the app page (first start only)…');
  const result = spawnSync(process.platform === 'win32' ? 'npm.cmd' : 'npm', ['run', 'build'], { stdio: 'inherit' });
  process.exit(result.status ?? 1);
}
