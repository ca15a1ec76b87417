import { useEffect, useState } from 'react';
import { flushSync } from 'react-dom';

/**
 * True while the page is printed (or shown as printed): a view that draws only the rows in view
 * draws every row before the printout is taken (drawn at once, in the print event itself).
 */
export function usePrinting(): boolean {
  const [printing, setPrinting] = useState(false);
  useEffect(() => {
    const media = window.matchMedia('print');
    const start = (): void => flushSync(() => setPrinting(true));
    const end = (): void => setPrinting(media.matches);
    const onMedia = (event: MediaQueryListEvent): void => (event.matches ? start() : end());
    window.addEventListener('beforeprint', start);
    window.addEventListener('afterprint', end);
    media.addEventListener('change', onMedia);
    return () => {
      window.removeEventListener('beforeprint', start);
      window.removeEventListener('afterprint', end);
      media.removeEventListener('change', onMedia);
    };
  }, []);
  return printing;
}
