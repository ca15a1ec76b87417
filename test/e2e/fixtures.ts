import AxeBuilder from '@axe-core/playwright';
import type { ChildProcess } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test as base, expect, type Browser, type Page } from '@playwright/test';
import { startServeProcess } from '../helpers/serve-process';
import { E2E_SERVER } from './server-bundle';

export const SAMPLE = join(process.cwd(), 'core', 'sample', 'data');
export const SCREENSHOTS = join(process.cwd(), 'test-results', 'screenshots');

export interface RunningApp {
  url: string;
  dataDir: string;
  token: string;
  /** The current one-time sign-in link (a fresh one after each use). */
  loginUrl(): string;
  /** The REST API as a script would use it. */
  api<T = unknown>(path: string, init?: { method?: string; json?: unknown; body?: FormData }): Promise<T>;
}

/** `npm run serve` (the headless app, as bundled by the global setup) on a free port with its own fresh data folder. */
async function startApp(dataFiles: Readonly<Record<string, string>> = {}, dataFolder?: string): Promise<{ app: RunningApp; child: ChildProcess }> {
  const dataDir = mkdtempSync(join(tmpdir(), 'termwise-e2e-'));
  if (dataFolder !== undefined) cpSync(dataFolder, dataDir, { recursive: true });
  // Configuration a department keeps in its data folder (campuses.json, profile.json), there before start.
  for (const [name, text] of Object.entries(dataFiles)) writeFileSync(join(dataDir, name), text);
  const { child, url, token } = await startServeProcess(dataDir, {}, E2E_SERVER);
  const app: RunningApp = {
    url,
    dataDir,
    token,
    loginUrl: () => readFileSync(join(dataDir, 'login-url'), 'utf8').trim(),
    async api<T>(path: string, init: { method?: string; json?: unknown; body?: FormData } = {}): Promise<T> {
      const headers: Record<string, string> = { authorization: `Bearer ${token}` };
      if (init.json !== undefined) headers['content-type'] = 'application/json';
      const response = await fetch(new URL(path.replace(/^\//, ''), url), {
        method: init.method ?? 'GET',
        headers,
        body: init.json !== undefined ? JSON.stringify(init.json) : init.body,
      });
      const body = (await response.json()) as T;
      if (!response.ok) throw new Error(`${path}: ${response.status} ${JSON.stringify(body)}`);
      return body;
    },
  };
  return { app, child };
}

/**
 * A department prepared once through the REST API of a server of its own (stopped when done), for
 * tests that each start from a copy of it (the `dataFolder` option) instead of preparing it again.
 */
export async function preparedDataFolder(prepare: (app: RunningApp) => Promise<void>): Promise<string> {
  const { app, child } = await startApp();
  try {
    await prepare(app);
  } finally {
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGTERM');
    await exited;
  }
  return app.dataDir;
}

export const test = base.extend<{ app: RunningApp; dataFiles: Record<string, string>; dataFolder: string | undefined }>({
  /** Files written to the data folder before the app starts (test.use({ dataFiles: { 'campuses.json': … } })). */
  dataFiles: [{}, { option: true }],
  /** A data folder (see preparedDataFolder) copied into the app's fresh one before it starts. */
  dataFolder: [undefined, { option: true }],
  app: async ({ dataFiles, dataFolder }, use) => {
    const { app, child } = await startApp(dataFiles, dataFolder);
    await use(app);
    child.kill('SIGTERM');
    rmSync(app.dataDir, { recursive: true, force: true });
  },
});

export { expect };

/** What the browser tests read of a timetable entry from GET /scheduler/. */
export interface TimetableEntry {
  id: number;
  course_code: string;
  day: string;
  start_time: string;
  room: string;
}

/** Opens the app signed in, as a user does with the link `npm run serve` printed. */
export async function signIn(page: Page, app: RunningApp): Promise<void> {
  await page.goto(app.loginUrl());
  await expect(page.getByTestId('nav-dashboard')).toBeVisible();
}

export async function screenshot(page: Page, name: string): Promise<void> {
  mkdirSync(SCREENSHOTS, { recursive: true });
  await page.screenshot({ path: join(SCREENSHOTS, `${name}.png`), fullPage: true });
}

export async function goTo(page: Page, screen: 'dashboard' | 'data' | 'predictions' | 'scheduler' | 'settings'): Promise<void> {
  await page.getByTestId(`nav-${screen}`).click();
  await expect(page.getByRole('heading', { level: 2, name: new RegExp(screen, 'i') })).toBeVisible();
}

/** A person signing in with their login and password in a browser of their own (a new context). */
export async function signInWithPassword(browser: Browser, app: RunningApp, login: string, password: string): Promise<Page> {
  const page = await (await browser.newContext({ viewport: { width: 1366, height: 860 } })).newPage();
  await page.goto(app.url);
  await expect(page.getByTestId('signed-out')).toBeVisible();
  await page.getByTestId('signin-login').fill(login);
  await page.getByTestId('signin-password').fill(password);
  await page.getByTestId('signin-submit').click();
  await expect(page.getByTestId('nav-dashboard')).toBeVisible();
  return page;
}

/**
 * Serious and critical accessibility problems axe-core finds on what is on screen (or in the `within` selector), as readable lines.
 * axe runs in the page itself (legacy mode): the app has no frames, and the default mode's second step in a blank page of its
 * own doubled each check's time (4 s against 9 s on the crowded week) for the same findings, node for node. Every rule still
 * runs on every node; only the violations come back with all their nodes (`resultTypes`): the passes' thousands of nodes,
 * which nothing reads, took half of a crowded screen's check (the scheduler's week 6.1 s → 2.9 s, By room 6.9 s → 3.4 s).
 * With `rules`, only those rules run.
 */
export async function seriousProblems(page: Page, within?: string, rules?: readonly string[]): Promise<string[]> {
  const every = new AxeBuilder({ page }).setLegacyMode(true).options({ resultTypes: ['violations'] });
  const builder = rules === undefined ? every : every.withRules([...rules]);
  const { violations } = await (within === undefined ? builder : builder.include(within)).analyze();
  return violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map(
      (v) =>
        `${v.impact}: ${v.id} (${v.help}) at ${v.nodes
          .slice(0, 3)
          .map((n) => n.target.join(' '))
          .join('; ')}`,
    );
}

/** A call as the server's own token acting in `department` (the registrar's header), which must succeed. */
export async function asRegistrarIn(
  app: RunningApp,
  department: string,
  path: string,
  init: { method: string; json?: unknown; body?: FormData },
): Promise<Response> {
  const headers: Record<string, string> = { authorization: `Bearer ${app.token}`, 'x-termwise-department': department };
  if (init.json !== undefined) headers['content-type'] = 'application/json';
  const response = await fetch(new URL(path.replace(/^\//, ''), app.url), {
    method: init.method,
    headers,
    body: init.json !== undefined ? JSON.stringify(init.json) : init.body,
  });
  expect(response.status, await response.clone().text()).toBe(200);
  return response;
}
