import { readEventStream } from '../../core/util/event-stream';

/** A change stream (`GET /events`) followed as a script does: every event it sent so far, parsed. */
export interface FollowedEvents<T> {
  events: T[];
  /** The first event (sent or to come) that `matches`; null when the stream ends without one. */
  first(matches: (event: T) => boolean): Promise<T | null>;
}

/** Follows an open `/events` answer until it ends (its request aborted, the server gone). */
export function followEvents<T>(response: Response): FollowedEvents<T> {
  const events: T[] = [];
  const waiting = new Set<{ matches: (event: T) => boolean; resolve: (event: T | null) => void }>();
  const ended = readEventStream(response.body as unknown as AsyncIterable<Uint8Array>, (data) => {
    const event = JSON.parse(data) as T;
    events.push(event);
    for (const wait of waiting)
      if (wait.matches(event)) {
        waiting.delete(wait);
        wait.resolve(event);
      }
  }).catch(() => undefined);
  let over = false;
  void ended.then(() => {
    over = true;
    for (const wait of waiting) wait.resolve(null);
    waiting.clear();
  });
  return {
    events,
    first: (matches) => {
      const sent = events.find(matches);
      if (sent !== undefined) return Promise.resolve(sent);
      return over ? Promise.resolve(null) : new Promise((resolve) => waiting.add({ matches, resolve }));
    },
  };
}
