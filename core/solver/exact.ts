import type { Neighbourhood } from './neighbourhood';
import { UNPLACED, type Search } from './search';

/** Classes one exact re-placement takes out and puts back together. */
const EXACT_CLASSES = 4;
/** Values of the first class looked at for the classes in their way. */
const EXACT_LOOKS = 12;
/** Values drawn for each class beside the places the set holds. */
const EXACT_SAMPLE = 6;
/** Placements one exact re-placement may try. */
const EXACT_NODES = 3_000;
/** Less than any change of cost (costs are sums of whole penalties times weights). */
const EPSILON = 1e-9;

/**
 * A class and the few classes in the way of its other values, taken out and put back at their best
 * combination of values, found exactly (see tryExactReplacement): the rotation of three or
 * four classes through each other's places that no move of one or two can start.
 */
export const EXACT: Neighbourhood = { name: 'exact re-placement', tryMove: (search) => tryExactReplacement(search) };

/**
 * Exact re-placement of a small conflicting set: class c and up to EXACT_CLASSES − 1 classes that
 * stand in the way of its other values (their occupants and required partners) are taken out and
 * put back at the best combination of their candidate values — each one's own value, the times the
 * others hold (in its own room and in theirs) and a few of its other values — found by a
 * depth-first search bounded by the best total so far, within EXACT_NODES placements. The move for
 * a few classes that must all exchange places at once (a rotation in a full room), which no swap
 * or ejection makes. It only improves: the set's own values are among its candidates.
 */
function tryExactReplacement(search: Search): number | null {
  const c = search.randomPlacedClass();
  if (c < 0) return null;
  const set = [c];
  for (const value of search.values(c, EXACT_LOOKS)) {
    for (const d of search.hardConflicts(c, value.timeIndex, value.roomIndex) ?? []) if (!set.includes(d) && set.length < EXACT_CLASSES) set.push(d);
  }
  if (set.length < 2) return null;
  const saved = search.valuesOf(set);
  const candidates = set.map((d) => candidatesFor(search, d, saved));
  const before = search.cost;
  for (const d of set) search.unassign(d);
  let best = before;
  let bestValues: number[] | null = null;
  const chosen: number[] = [];
  let nodes = 0;
  // Placing a class never lowers the cost of the others, so a partial total is a bound.
  const walk = (i: number): void => {
    if (i === set.length) {
      best = search.cost;
      bestValues = [...chosen];
      return;
    }
    const d = set[i] as number;
    const values = candidates[i] as number[];
    for (let k = 0; k + 1 < values.length && nodes < EXACT_NODES; k += 2, nodes++) {
      const [t, r] = [values[k] as number, values[k + 1] as number];
      const clash = search.hardConflicts(d, t, r, true);
      if (!clash || clash.size > 0) continue;
      search.assign(d, t, r);
      if (search.cost < best - EPSILON) {
        chosen.push(t, r);
        walk(i + 1);
        chosen.length -= 2;
      }
      search.unassign(d);
    }
  };
  walk(0);
  const found = bestValues as number[] | null;
  if (found === null) return search.putBack(saved);
  set.forEach((d, i) => search.assign(d, found[2 * i] as number, found[2 * i + 1] as number));
  for (const [d, t] of saved) if (search.time[d] !== t) search.markMoved(d);
  return search.cost - before;
}

/**
 * Class d's candidate values in an exact re-placement of the set `saved` holds, as pairs of time and
 * room: its own value, each other member's time (on its days from its start, in d's own weeks) in
 * d's room and in that member's room, d's time in that member's room, and a few other values.
 */
function candidatesFor(search: Search, d: number, saved: readonly (readonly [number, number, number])[]): number[] {
  const out: number[] = [];
  const seen = new Set<number>();
  const width = search.width[d] ?? 1;
  const add = (t: number | undefined, r: number): void => {
    if (t === undefined || t < 0 || seen.has(t * width + Math.max(0, r))) return;
    seen.add(t * width + Math.max(0, r));
    out.push(t, r);
  };
  const own = search.room[d] ?? UNPLACED;
  const weeks = search.timeOf(d).weeks;
  add(search.time[d], own);
  for (const [e, te, re] of saved) {
    if (e === d) continue;
    const time = search.timeLike(d, search.timeOf(e, te), weeks, true);
    const theirs = re < 0 ? -1 : (search.problem.classes[d]?.rooms.findIndex((o) => o.room === search.problem.classes[e]?.rooms[re]?.room) ?? -1);
    add(time, own);
    if (theirs >= 0) {
      add(time, theirs);
      add(search.time[d], theirs);
    }
  }
  for (const value of search.values(d, EXACT_SAMPLE)) add(value.timeIndex, value.roomIndex);
  return out;
}
