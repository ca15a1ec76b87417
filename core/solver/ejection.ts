import type { Neighbourhood } from './neighbourhood';
import { UNPLACED, type Search } from './search';

/** One class to a value that displaces one or two others, each placed again at its cheapest free value. */
export const EJECTION: Neighbourhood = { name: 'ejection', tryMove: (search, temperature) => tryEjection(search, temperature) };

/**
 * A move through a clash: a class takes a new value that displaces one or two others, each of
 * which is placed again at its cheapest value that clashes with nothing. Taken (or undone) as the
 * annealing decides; answers the change of cost when taken, or null.
 */
function tryEjection(search: Search, temperature: number): number | null {
  const classIndex = Math.floor(search.random.next() * search.n);
  const spec = search.problem.classes[classIndex];
  const currentTime = search.time[classIndex] ?? UNPLACED;
  if (!spec || currentTime < 0) return null;
  const width = search.width[classIndex] ?? 1;
  const timeIndex = Math.floor(search.random.next() * spec.times.length);
  const roomIndex = spec.rooms.length === 0 ? -1 : Math.floor(search.random.next() * width);
  if (timeIndex === currentTime && roomIndex === (search.room[classIndex] ?? UNPLACED)) return null;
  return search.moveThrough(classIndex, timeIndex, roomIndex, temperature);
}
