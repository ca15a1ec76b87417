import { readFileSync } from 'node:fs';
import { chromium } from '@playwright/test';

/** The browser the tests drive: Debian's Chromium, or the one CHROMIUM_PATH names. */
export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

/** Chromium's switches for the tests: headless, without a sandbox or a GPU, and without its background network or first-run work. */
export const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
];

/**
 * Parts of Chromium's own window that a headless test browser builds for every context and never
 * shows: the omnibox's drop-downs, each a page of Chromium's own in a renderer of its own. Left out,
 * the browser tests took a sixth to a fifth less CPU (three specs: 124 → 99–107 core-seconds, 96 → 85–91 s).
 */
const UNSHOWN_PARTS = ['WebUIOmniboxPopup', 'WebUIOmniboxAimPopup', 'WebUIOmniboxFullPopup'];

/** Where the global setup leaves the features the tests' Chromium starts without (see disabledFeatures). */
export const DISABLED_FEATURES_ENV = 'TERMWISE_CHROMIUM_DISABLED_FEATURES';

/**
 * The features the tests' Chromium starts without: Playwright's own, and UNSHOWN_PARTS. Chromium
 * reads only the last --disable-features it is given, so the one the tests add must carry
 * Playwright's list as well: it is read from the switches Playwright starts Chromium with (in
 * /proc; where that cannot be read, the tests start Chromium with Playwright's switches alone).
 */
export async function disabledFeatures(): Promise<string[]> {
  const server = await chromium.launchServer({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS });
  try {
    const pid = server.process().pid;
    const switches = pid === undefined ? [] : readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0');
    const given = switches.filter((s) => s.startsWith('--disable-features='));
    if (given.length === 0) return [];
    return [...new Set([...given.flatMap((s) => s.slice('--disable-features='.length).split(',')), ...UNSHOWN_PARTS])];
  } catch {
    return [];
  } finally {
    await server.close();
  }
}

/** The switch that starts the tests' Chromium without the features the global setup found (none before it has run). */
export function disabledFeaturesSwitch(): string[] {
  const features = process.env[DISABLED_FEATURES_ENV];
  return features ? [`--disable-features=${features}`] : [];
}
