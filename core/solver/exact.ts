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
 * Exact re-placement of a small conflicting set: a class and up to EXACT_CLASSES − 1 classes that
 * stand in the way of its other values (their occupants and required partners) are taken out and
 * put back at the best combination of their candidate values — each one's own value, the times the
 * others hold (in its own room and in theirs) and a few of its other values — found by a
 * depth-first search bounded by the best total so far, within EXACT_NODES placements. The move for
 * a few classes that must all exchange places at once (a rotation in a full room), which no swap
 * or ejection makes. It only improves: the set's own values are among its candidates.
 */
function tryExactReplacement(search: Search): number | null {
  const classIndex = search.randomPlacedClass();
  if (classIndex < 0) return null;
  const set = [classIndex];
  for (const value of search.values(classIndex, EXACT_LOOKS)) {
    for (const member of search.hardConflicts(classIndex, value.timeIndex, value.roomIndex) ?? [])
      if (!set.includes(member) && set.length < EXACT_CLASSES) set.push(member);
  }
  if (set.length < 2) return null;
  const saved = search.valuesOf(set);
  const candidates = set.map((member) => candidatesFor(search, member, saved));
  const before = search.mark();
  for (const member of set) search.unassign(member);
  let best = before.cost;
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
    const member = set[i] as number;
    const values = candidates[i] as number[];
    for (let k = 0; k + 1 < values.length && nodes < EXACT_NODES; k += 2, nodes++) {
      const [timeIndex, roomIndex] = [values[k] as number, values[k + 1] as number];
      const clash = search.hardConflicts(member, timeIndex, roomIndex, true);
      if (!clash || clash.size > 0) continue;
      search.assign(member, timeIndex, roomIndex);
      if (search.cost < best - EPSILON) {
        chosen.push(timeIndex, roomIndex);
        walk(i + 1);
        chosen.length -= 2;
      }
      search.unassign(member);
    }
  };
  walk(0);
  const found = bestValues as number[] | null;
  if (found === null) return search.putBack(saved, before);
  set.forEach((member, i) => search.assign(member, found[2 * i] as number, found[2 * i + 1] as number));
  for (const [member, timeIndex] of saved) if (search.time[member] !== timeIndex) search.markMoved(member);
  return search.cost - before.cost;
}

/**
 * A member's candidate values in an exact re-placement of the set `saved` holds, as pairs of time and
 * room: its own value, each other member's time (on its days from its start, in the member's own
 * weeks) in the member's room and in the other's room, its time in the other's room, and a few other values.
 */
function candidatesFor(search: Search, member: number, saved: readonly (readonly [number, number, number])[]): number[] {
  const out: number[] = [];
  const seen = new Set<number>();
  const width = search.width[member] ?? 1;
  const add = (timeIndex: number | undefined, roomIndex: number): void => {
    if (timeIndex === undefined || timeIndex < 0 || seen.has(timeIndex * width + Math.max(0, roomIndex))) return;
    seen.add(timeIndex * width + Math.max(0, roomIndex));
    out.push(timeIndex, roomIndex);
  };
  const own = search.room[member] ?? UNPLACED;
  const weeks = search.timeOf(member).weeks;
  add(search.time[member], own);
  for (const [other, otherTime, otherRoom] of saved) {
    if (other === member) continue;
    const time = search.timeLike(member, search.timeOf(other, otherTime), weeks, true);
    const theirs =
      otherRoom < 0 ? -1 : (search.problem.classes[member]?.rooms.findIndex((o) => o.room === search.problem.classes[other]?.rooms[otherRoom]?.room) ?? -1);
    add(time, own);
    if (theirs >= 0) {
      add(time, theirs);
      add(search.time[member], theirs);
    }
  }
  for (const value of search.values(member, EXACT_SAMPLE)) add(value.timeIndex, value.roomIndex);
  return out;
}
