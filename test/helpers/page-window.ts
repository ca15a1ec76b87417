import { JSDOM } from 'jsdom';

/**
 * Gives the test's process a page's window for React (jsdom's), beside Node's own globals: the core
 * and the test keep Node's URL and timers. A file that calls it runs in a process of its own
 * (vitest.config.ts finds it by this call), so nothing is taken back. Answers the window.
 */
export function installPageWindow(): JSDOM['window'] {
  const page = new JSDOM('<!doctype html><html><body></body></html>', { url: 'http://127.0.0.1:4610/' });
  for (const key of Object.getOwnPropertyNames(page.window)) {
    if (!(key in globalThis))
      Object.defineProperty(globalThis, key, { configurable: true, writable: true, value: (page.window as unknown as Record<string, unknown>)[key] });
  }
  Object.assign(globalThis, { window: page.window, document: page.window.document, navigator: page.window.navigator, IS_REACT_ACT_ENVIRONMENT: true });
  return page.window;
}
