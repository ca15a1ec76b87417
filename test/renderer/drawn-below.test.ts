import { act, renderHook } from '@testing-library/react';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { JSDOM } from 'jsdom';

// The page's window for React (jsdom has no IntersectionObserver or matchMedia: each test gives its own).
const page = new JSDOM('<!doctype html><html><body></body></html>', { url: 'http://127.0.0.1:4610/' });
const added: string[] = [];
beforeAll(() => {
  for (const key of Object.getOwnPropertyNames(page.window)) {
    if (key in globalThis) continue;
    added.push(key);
    Object.defineProperty(globalThis, key, { configurable: true, writable: true, value: (page.window as unknown as Record<string, unknown>)[key] });
  }
  Object.assign(globalThis, { window: page.window, document: page.window.document, IS_REACT_ACT_ENVIRONMENT: true });
  Object.assign(page.window, { matchMedia: () => ({ matches: false, addEventListener: () => undefined, removeEventListener: () => undefined }) });
});
afterAll(() => {
  for (const key of added) Reflect.deleteProperty(globalThis, key);
});

/** The observers the hook made: call `seen` to bring the marker into view. */
const observers: { element: Element | null; seen: () => void }[] = [];
beforeEach(() => {
  vi.useFakeTimers();
  observers.length = 0;
  vi.stubGlobal(
    'IntersectionObserver',
    class {
      constructor(private readonly report: (entries: { isIntersecting: boolean }[]) => void) {
        observers.push({ element: null, seen: () => this.report([{ isIntersecting: true }]) });
      }
      observe(element: Element) {
        const last = observers.at(-1);
        if (last) last.element = element;
      }
      disconnect() {}
    },
  );
});
afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

const { useDrawnBelow } = await import('../../renderer/src/lib/use-drawn-below');

describe('the panels below the week (useDrawnBelow)', () => {
  it('are not drawn while staff click, and are drawn once the screen has had no click for a second', async () => {
    const { result } = renderHook(() => useDrawnBelow());
    expect(result.current.ready).toBe(false);
    await act(() => vi.advanceTimersByTimeAsync(900));
    // A view switch at 0.9 s: the panels wait another quiet second.
    act(() => void window.dispatchEvent(new window.MouseEvent('pointerdown')));
    await act(() => vi.advanceTimersByTimeAsync(900));
    expect(result.current.ready).toBe(false);
    await act(() => vi.advanceTimersByTimeAsync(200));
    expect(result.current.ready).toBe(true);
  });

  it('are drawn as soon as their place comes near the view', () => {
    const { result } = renderHook(() => useDrawnBelow());
    const marker = document.createElement('div');
    act(() => void result.current.marker(marker));
    expect(observers.map((o) => o.element)).toEqual([marker]);
    expect(result.current.ready).toBe(false);
    act(() => observers[0]?.seen());
    expect(result.current.ready).toBe(true);
  });
});
