import { startTransition, useEffect, useState } from 'react';

/**
 * Whether a screen's secondary parts may be drawn: false on its first render, true once the browser
 * is idle after it (at the latest after `timeoutMs`). The change is a transition, so a click or a
 * key press that comes while those parts are drawn is answered first and their drawing resumes after.
 * A screen's main view is then on screen without waiting for the panels beside it.
 */
export function useIdleReady(timeoutMs = 500): boolean {
  const [ready, setReady] = useState(false);
  useEffect(() => {
    const draw = (): void => startTransition(() => setReady(true));
    // Browsers without idle callbacks (Safari) draw them just after the first paint.
    if (typeof requestIdleCallback !== 'function') {
      const timer = setTimeout(draw, 50);
      return () => clearTimeout(timer);
    }
    const id = requestIdleCallback(draw, { timeout: timeoutMs });
    return () => cancelIdleCallback(id);
  }, [timeoutMs]);
  return ready;
}
