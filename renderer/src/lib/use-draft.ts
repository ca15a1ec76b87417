import { useEffect, useRef, useState } from 'react';

export interface Draft<F> {
  /** The form's values; null until the read has answered. */
  values: F | null;
  edit: (patch: Partial<F>) => void;
  /** The edits are saved: the values follow the read again from its next answer. */
  saved: () => void;
}

/**
 * A form drawn from a live read: its values follow the read (a change made elsewhere shows) until
 * staff edit them, then stay as edited until saved, so what they are typing is never thrown away
 * by a change made in another window or by a script.
 */
export function useDraft<S, F>(source: S | null | undefined, toValues: (source: S) => F): Draft<F> {
  const [values, setValues] = useState<F | null>(null);
  const [dirty, setDirty] = useState(false);
  const drawnFrom = useRef<S | null>(null);
  useEffect(() => {
    if (source === null || source === undefined || dirty || source === drawnFrom.current) return;
    drawnFrom.current = source;
    setValues(toValues(source));
  }, [source, dirty, toValues]);
  return {
    values,
    edit: (patch) => {
      setValues((current) => (current === null ? current : { ...current, ...patch }));
      setDirty(true);
    },
    saved: () => setDirty(false),
  };
}
