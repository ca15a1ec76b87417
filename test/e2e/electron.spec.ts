import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { _electron as electron } from '@playwright/test';
import { test, expect, screenshot } from './fixtures';
import { electronBinary } from '../../build/electron-binary';

const binary = electronBinary();

test('the desktop app opens the dashboard through IPC', async () => {
  if (!binary) {
    // Printed to the test output, not only kept in the report.
    console.log("Skipping the Electron end-to-end test: Electron's binary is not installed on this machine (its download is skipped at npm install and the download host is unreachable); run `npm start` where Electron is installed");
    test.skip(true, "Electron's binary is not installed on this machine: run `npm start` where Electron is installed");
  }
  const app = await electron.launch({ executablePath: binary ?? undefined, args: ['dist-electron/main.js'], env: { ...process.env, TERMWISE_PORT: '0', ELECTRON_USER_DATA: mkdtempSync(join(tmpdir(), 'termwise-electron-')) } });
  const window = await app.firstWindow();
  await expect(window.getByRole('heading', { name: /Welcome to Termwise|Dashboard/ })).toBeVisible();
  expect(await window.evaluate(() => typeof (window as unknown as { termwise?: unknown }).termwise)).toBe('object');
  await screenshot(window, 'electron');
  await app.close();
});
