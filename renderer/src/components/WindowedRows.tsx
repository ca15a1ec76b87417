import { useDeferredValue, useRef, type ReactNode, type RefObject } from 'react';
import { useVirtualizer, type VirtualItem } from '@tanstack/react-virtual';

/** Lists up to this long are drawn whole (found with the page's search, read in full); longer ones by window. */
const DRAWN_WHOLE = 100;

interface WindowOptions {
  /** The box's height: the rows drawn at first fill it. */
  maxHeight: number;
  /** A row's height before it is measured. */
  rowHeight: number;
  /** Lists up to this long are drawn whole (100 unless given; Infinity draws every list whole, as for print). */
  drawnWhole?: number;
  /**
   * A list drawn whole draws this many rows (a boxful) in the frame it appears in, and the rest just
   * after, in the background: a view opened by a click is on screen without waiting for its rows out
   * of sight. All rows at once when not given (as for print, even while the rest are on their way).
   */
  firstDrawn?: number;
}

/**
 * A list in a box of bounded height whose rows, when there are more than a hundred, are drawn only
 * while in view (and a few beyond): a term's hundreds of sections without a time, warnings or
 * changes cost what the twenty on screen do, on the Scheduler's first render and in every layout
 * after it. Rows may differ in height (each is measured once laid out). The box's first render assumes
 * it is full, so it draws a boxful at once instead of one row and then the rest.
 */
export function useWindowedRows(count: number, options: WindowOptions) {
  const box = useRef<HTMLDivElement>(null);
  const whole = count <= (options.drawnWhole ?? DRAWN_WHOLE);
  const virtualizer = useVirtualizer({
    count,
    getScrollElement: () => box.current,
    estimateSize: () => options.rowHeight,
    overscan: whole ? count : 6,
    initialRect: { width: 0, height: options.maxHeight },
    // A row drawn is measured by the browser's resize observer once laid out, never by asking for its
    // size as it mounts: asking makes the browser lay out the whole page there and then (a large
    // term's week included), once per list, which held up a view switch asked just after.
    measureElement: (element, entry, instance) =>
      entry?.borderBoxSize[0]?.blockSize ??
      (entry ? element.getBoundingClientRect().height : (instance.measurementsCache[Number(element.getAttribute('data-index'))]?.size ?? options.rowHeight)),
  });
  // Rows out of sight join in a background render that a click or a key interrupts (React's deferred value).
  const firstDrawn = whole ? options.firstDrawn : undefined;
  const drawn = useDeferredValue(count, Math.min(count, firstDrawn ?? count));
  const all = virtualizer.getVirtualItems();
  const items = firstDrawn !== undefined && drawn < count ? all.filter((item) => item.index < drawn) : all;
  return {
    box,
    items,
    /** The space of the rows before and after those drawn, so the scrollbar reads the whole list. */
    before: items[0]?.start ?? 0,
    after: Math.max(0, virtualizer.getTotalSize() - (items.at(-1)?.end ?? 0)),
    /**
     * Given as a drawn row's ref (with its data-index): its real height replaces the estimate. None
     * when the list is drawn whole: no spacer depends on it, and measuring every row would lay the
     * list out, and draw it again, once more.
     */
    measure: whole ? undefined : virtualizer.measureElement,
  };
}

/** The bounded, scrolling box the rows are drawn in: a named region reached with Tab, so the keyboard scrolls it too. */
export function WindowBox({
  box,
  maxHeight,
  label,
  children,
}: {
  box: RefObject<HTMLDivElement | null>;
  maxHeight: number;
  label: string;
  children: ReactNode;
}) {
  return (
    <div ref={box} className="tw-window" style={{ maxHeight }} role="region" aria-label={label} tabIndex={0}>
      {children}
    </div>
  );
}

/** A table's rows in view, with spacer rows standing for those not drawn. */
export function WindowedTableRows<T>({
  rows,
  windowed,
  columns,
  row,
}: {
  rows: readonly T[];
  windowed: ReturnType<typeof useWindowedRows>;
  columns: number;
  row: (item: T, virtual: VirtualItem) => ReactNode;
}) {
  return (
    <>
      {windowed.before > 0 && (
        <tr aria-hidden="true" style={{ height: windowed.before }}>
          <td colSpan={columns} />
        </tr>
      )}
      {windowed.items.map((virtual) => {
        const item = rows[virtual.index];
        return item === undefined ? null : row(item, virtual);
      })}
      {windowed.after > 0 && (
        <tr aria-hidden="true" style={{ height: windowed.after }}>
          <td colSpan={columns} />
        </tr>
      )}
    </>
  );
}
