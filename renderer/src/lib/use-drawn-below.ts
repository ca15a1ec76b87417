import { startTransition, useCallback, useEffect, useState, type RefCallback } from 'react';
import { usePrinting } from './use-printing';

/** How long a screen goes without a click or a key before its parts below the main view are drawn unseen. */
const QUIET_MS = 1000;
/** How near the view the marker comes before those parts are drawn. */
const NEAR_VIEW = '0px 0px 200px 0px';

/**
 * Whether a screen's parts below its main view (the panels under a term's week) may be drawn, and
 * the marker to place where they go. They are drawn once the marker comes near the view (scrolled
 * to, or on a screen tall enough to show it), once the screen has had no click or key for a second,
 * or for print. The first clicks after the main view appears (a view switch, a filter) are answered
 * without waiting behind them, and drawing them is a transition: a click that comes meanwhile is
 * answered first, and their drawing resumes after.
 */
export function useDrawnBelow(): { ready: boolean; marker: RefCallback<HTMLDivElement> } {
  const [ready, setReady] = useState(false);
  const printing = usePrinting();
  const draw = useCallback((): void => startTransition(() => setReady(true)), []);
  useEffect(() => {
    if (ready) return;
    let timer = setTimeout(draw, QUIET_MS);
    const restart = (): void => {
      clearTimeout(timer);
      timer = setTimeout(draw, QUIET_MS);
    };
    window.addEventListener('pointerdown', restart, true);
    window.addEventListener('keydown', restart, true);
    return () => {
      clearTimeout(timer);
      window.removeEventListener('pointerdown', restart, true);
      window.removeEventListener('keydown', restart, true);
    };
  }, [ready, draw]);
  const marker = useCallback(
    (element: HTMLDivElement | null) => {
      if (element === null || typeof IntersectionObserver !== 'function') return;
      const seen = new IntersectionObserver((entries) => entries.some((e) => e.isIntersecting) && draw(), { rootMargin: NEAR_VIEW });
      seen.observe(element);
      return () => seen.disconnect();
    },
    [draw],
  );
  return { ready: ready || printing, marker };
}
