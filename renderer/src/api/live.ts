import { hashKey, QueryClient, useQuery, type QueryFilters, type UseQueryResult } from '@tanstack/react-query';
import { READ_AREAS, readDependsOn, type LiveRead } from '../../../core/domain/reads';
import type { HandlerName } from '../../../core/handlers';
import { call, transport, type Args, type Result } from './client';
import { messageOf } from './errors';

/**
 * Live reads: what a screen shows of the core, loaded once, shared by every component that asks
 * the same, and loaded again whenever a write names one of the areas the read answers from. The
 * areas come from the core's table of reads (core/domain/reads.ts), checked there against what
 * every write does, so a screen never declares them by hand and never refreshes another.
 */

/** A read the screens may follow: one of the core's reads with its areas declared. */
export type Live = LiveRead & HandlerName;

export const queryClient = new QueryClient({
  defaultOptions: {
    // A read stays as loaded until a change event says otherwise: no polling, no reload on focus.
    queries: { staleTime: Infinity, gcTime: 10 * 60_000, retry: false, refetchOnWindowFocus: false, refetchOnReconnect: false },
  },
});

/** A read's key: its operation and arguments (null for a read not askable yet, which shares no answer). */
const keyOf = <N extends Live>(operation: N, args: Args<N> | null): readonly [N, Args<N> | null] => [operation, args];

/** How many loads the page has asked, and that count as each read's last load was asked (by its key's hash). */
let loadsAsked = 0;
const loadAskedAt = new Map<string, number>();

/** How a read is loaded, the same for the hook and for loading ahead. */
const queryOf = <N extends Live>(operation: N, args: Args<N> | null) => ({
  queryKey: keyOf(operation, args),
  queryFn: ({ queryKey }: { queryKey: readonly unknown[] }) => {
    loadAskedAt.set(hashKey(queryKey), ++loadsAsked);
    return call(operation, args as Args<N>);
  },
});

/** Where the page's loads stood as a write was sent (see patchLive). */
export interface WriteSent {
  readonly loadsAsked: number;
}

/** Taken just before sending a write whose answer patchLive shows. */
export const writeSent = (): WriteSent => ({ loadsAsked });

export interface LiveResult<T> {
  /** The answer, or undefined until the first one arrives (or when the read is not askable). */
  data: T | undefined;
  /** The refusal in words, when the last load failed. */
  error: string | null;
}

/** Follows one read: `args` null while it cannot be asked yet (nothing is loaded then). */
export function useLive<N extends Live>(operation: N, args: Args<N> | null): LiveResult<Result<N>> {
  const query: UseQueryResult<Result<N>> = useQuery({ ...queryOf(operation, args), enabled: args !== null });
  return { data: query.data, error: query.error ? messageOf(query.error) : null };
}

/** Starts loading a read before its screen asks (while the screen's code loads). */
export function prefetchLive<N extends Live>(operation: N, args: Args<N>): Promise<void> {
  return queryClient.prefetchQuery(queryOf(operation, args));
}

/** A read's answer: the one loaded, else asked now. */
export function fetchLive<N extends Live>(operation: N, args: Args<N>): Promise<Result<N>> {
  return queryClient.fetchQuery(queryOf(operation, args));
}

/**
 * Shows the answer of a write (sent at `sent`) at once in the loaded answers of a read: the one
 * asked with `args`, or without, every one of the operation. The change event that follows loads the
 * read again and confirms it. A load of the read asked before the write and still on its way would
 * answer what the write replaced (over HTTP the write's answer can come before both that load's and
 * the change event): it is dropped and asked again, so the screen never goes back to what the write
 * changed. A load asked since (the write's own change event's) is left to answer.
 */
export function patchLive<N extends Live>(sent: WriteSent, operation: N, update: (current: Result<N>) => Result<N>, args?: Args<N>): void {
  const patch = (current: Result<N> | undefined): Result<N> | undefined => (current === undefined ? current : update(current));
  const filters: QueryFilters = args === undefined ? { queryKey: [operation] } : { queryKey: keyOf(operation, args), exact: true };
  queryClient.setQueriesData<Result<N>>(filters, patch);
  const askedBefore = (hash: string): boolean => (loadAskedAt.get(hash) ?? 0) <= sent.loadsAsked;
  void queryClient.invalidateQueries({
    ...filters,
    refetchType: 'all',
    predicate: (query) => query.state.fetchStatus === 'fetching' && askedBefore(query.queryHash),
  });
}

const isLive = (operation: unknown): operation is LiveRead => typeof operation === 'string' && Object.hasOwn(READ_AREAS, operation);

/** Follows the core's change events (any window, the desktop menu, a script over REST); returns the unsubscribe. */
export function followChanges(client: QueryClient = queryClient): () => void {
  return transport.subscribe((event) => {
    if (event.type !== 'changed') return;
    void client.invalidateQueries({ predicate: (query) => isLive(query.queryKey[0]) && readDependsOn(query.queryKey[0], event.areas) });
  });
}
