import { act, renderHook } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { installPageWindow } from '../helpers/page-window';

// The page's window for React; jsdom has no IntersectionObserver (each test gives its own) or matchMedia (printing reads it).
const pageWindow = installPageWindow();
Object.assign(pageWindow, { matchMedia: () => ({ matches: false, addEventListener: () => undefined, removeEventListener: () => undefined }) });

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
