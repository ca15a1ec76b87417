import type { Neighbourhood } from './neighbourhood';
import { UNPLACED, type Search } from './search';

/** One class to a value that displaces one or two others, each placed again at its cheapest free value. */
export const EJECTION: Neighbourhood = { name: 'ejection', tryMove: (search, temperature) => tryEjection(search, temperature) };

/**
 * A move through a clash: class c takes a new value that displaces one or two others, each of
 * which is placed again at its cheapest value that clashes with nothing. Taken (or undone) as the
 * annealing decides; answers the change of cost when taken, or null.
 */
function tryEjection(search: Search, temperature: number): number | null {
  const c = Math.floor(search.random.next() * search.n);
  const spec = search.problem.classes[c];
  const t0 = search.time[c] ?? UNPLACED;
  if (!spec || t0 < 0) return null;
  const width = search.width[c] ?? 1;
  const t = Math.floor(search.random.next() * spec.times.length);
  const r = spec.rooms.length === 0 ? -1 : Math.floor(search.random.next() * width);
  if (t === t0 && r === (search.room[c] ?? UNPLACED)) return null;
  return search.moveThrough(c, t, r, temperature);
}
