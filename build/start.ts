/**
 * npm start: the desktop app where Electron's binary exists (installing it once if it is
 * missing), otherwise headless mode with the same screens in the browser.
 */
import { spawn, spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { electronBinary } from './electron-binary';

const require = createRequire(import.meta.url);

function run(command: string, args: string[]): boolean {
  return spawnSync(command, args, { stdio: 'inherit', shell: process.platform === 'win32' }).status === 0;
}

let binary = electronBinary();
if (!binary) {
  const installed = spawnSync(process.execPath, [require.resolve('electron/install.js')], { stdio: 'pipe', timeout: 120_000 }).status === 0;
  binary = installed ? electronBinary() : null;
}
const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
if (!binary) {
  console.log("Electron's binary is not installed and could not be downloaded here; starting headless mode instead (the same app in your browser).");
  if (!run(npm, ['run', 'build'])) process.exit(1);
  spawn(npm, ['run', 'serve', '--', '--open'], { stdio: 'inherit', shell: process.platform === 'win32' }).on('exit', (code) => process.exit(code ?? 0));
} else {
  if (!run(npm, ['run', 'build']) || !run(npm, ['run', 'build:electron'])) process.exit(1);
  spawn(binary, ['dist-electron/main.js'], { stdio: 'inherit' }).on('exit', (code) => process.exit(code ?? 0));
}
