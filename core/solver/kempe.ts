import type { Neighbourhood } from './neighbourhood';
import type { TimeOption } from './model';
import { UNPLACED, type Search } from './search';

/** The most classes a Kempe chain moves (a longer one is not made). */
const KEMPE_CLASSES = 24;

/**
 * A Kempe chain: a class goes to another time and the classes it would clash with go the other way,
 * to the time it left, and so on, until the two sets have exchanged times (see tryKempe).
 * The move for classes held by attendee, room and instructor clashes, none of which can change
 * sides alone.
 */
export const KEMPE: Neighbourhood = { name: 'kempe', tryMove: (search, temperature) => tryKempe(search, temperature) };

/**
 * A Kempe chain between two times: class c goes from its time A to another time B, keeping its
 * room; every class it then clashes with goes the other way, to its own option of the time A (keeping
 * its room), every class that one clashes with to B, and so on until nothing clashes. Made only
 * when each class of the chain has the other time and the chain closes within KEMPE_CLASSES
 * classes. The move that exchanges two sets of classes which must not meet together (attendees,
 * rooms) and where no member can change sides alone. Taken or undone as the annealing decides.
 */
function tryKempe(search: Search, temperature: number): number | null {
  const c = search.randomPlacedClass();
  const spec = search.problem.classes[c];
  if (c < 0 || !spec || spec.times.length < 2) return null;
  const t0 = search.time[c] as number;
  const t1 = (t0 + 1 + Math.floor(search.random.next() * (spec.times.length - 1))) % spec.times.length;
  const sides = [search.timeOf(c, t0), search.timeOf(c, t1)] as const;
  const before = search.cost;
  const saved = search.valuesOf([c]);
  /** Each class of the chain and the side (0: A, 1: B) it goes to. */
  const goesTo = new Map<number, number>([[c, 1]]);
  const queue = [c];
  search.unassign(c);
  for (let i = 0; i < queue.length; i++) {
    const d = queue[i] as number;
    const side = goesTo.get(d) as number;
    const t = i === 0 ? t1 : (search.timeLike(d, sides[side] as TimeOption, (sides[side] as TimeOption).weeks, false) as number);
    const r = saved[i]?.[2] ?? UNPLACED;
    const out = search.hardConflicts(d, t, r);
    if (!out) return search.putBack(saved);
    for (const x of out) {
      // A class already in the chain clashes where it went: the two sides do not separate.
      if (
        goesTo.has(x) ||
        goesTo.size >= KEMPE_CLASSES ||
        search.timeLike(x, sides[1 - side] as TimeOption, (sides[1 - side] as TimeOption).weeks, false) === undefined
      )
        return search.putBack(saved);
      goesTo.set(x, 1 - side);
      saved.push(...search.valuesOf([x]));
      queue.push(x);
      search.unassign(x);
    }
    search.assign(d, t, r);
  }
  return search.verdict(before, temperature, saved);
}
