import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { _electron as electron } from '@playwright/test';
import { test, expect, screenshot } from './fixtures';
import { electronBinary } from '../../build/electron-binary';

const binary = electronBinary();

/** Where Electron's binary is missing the test is not defined, and says why in the test output. */
if (!binary) {
  console.log(
    "Not running the Electron end-to-end test: Electron's binary is not installed on this machine (its download is skipped at npm install and the download host is unreachable); run `npm start` where Electron is installed",
  );
} else {
  test('the desktop app opens the dashboard through IPC', async () => {
    const app = await electron.launch({
      executablePath: binary,
      args: ['dist-electron/main.js'],
      env: { ...process.env, TERMWISE_PORT: '0', ELECTRON_USER_DATA: mkdtempSync(join(tmpdir(), 'termwise-electron-')) },
    });
    const window = await app.firstWindow();
    await expect(window.getByRole('heading', { name: /Welcome to Termwise|Dashboard/ })).toBeVisible();
    expect(await window.evaluate(() => typeof (window as unknown as { termwise?: unknown }).termwise)).toBe('object');
    await screenshot(window, 'electron');
    await app.close();
  });
}
