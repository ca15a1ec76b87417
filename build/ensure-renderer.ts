/**
 * Runs before `npm run serve`: builds the app page when it has not been built yet, or when a source
 * it is built from changed since (after a pull or an edit), so the page served is never stale.
 */
import { spawnSync } from 'node:child_process';
import { rendererBuildReason } from './renderer-freshness';

const reason = rendererBuildReason(process.cwd());
if (reason !== null) {
  console.log(`Building the app page (${reason})…`);
  const result = spawnSync(process.platform === 'win32' ? 'npm.cmd' : 'npm', ['run', 'build'], { stdio: 'inherit' });
  process.exit(result.status ?? 1);
}
