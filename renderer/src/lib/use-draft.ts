import { useMemo, useState } from 'react';

const NO_EDITS = Object.freeze({});

export interface Draft<F> {
  /** The form's values: the read's, with staff's edits over them; null until the read has answered. */
  values: F | null;
  edit: (patch: Partial<F>) => void;
  /** The edits are saved: every value follows the read again. */
  saved: () => void;
}

/**
 * A form drawn from a live read: each value follows the read (a change made elsewhere shows) until
 * staff edit it, then stays as edited until saved, so what they are typing is never thrown away by
 * a change made in another window or by a script. An edit made before the read answers is kept and
 * shown over the answer. Edits belong to `scope` (e.g. the campus a form is for): another scope
 * starts from the read again. `toValues` must keep its identity (define it at module level).
 */
export function useDraft<S, F>(source: S | null | undefined, toValues: (source: S) => F, scope = ''): Draft<F> {
  const drawn = useMemo(() => (source === null || source === undefined ? null : toValues(source)), [source, toValues]);
  const [edits, setEdits] = useState<{ scope: string; patch: Partial<F> }>({ scope, patch: NO_EDITS });
  const patch = edits.scope === scope ? edits.patch : NO_EDITS;
  const values = useMemo(() => (drawn === null ? null : { ...drawn, ...patch }), [drawn, patch]);
  return {
    values,
    edit: (change) => setEdits((current) => ({ scope, patch: { ...(current.scope === scope ? current.patch : {}), ...change } })),
    saved: () => setEdits({ scope, patch: NO_EDITS }),
  };
}
