import type { Placed } from './distributions';
import type { Neighbourhood } from './neighbourhood';
import { drawPayingClass, ownPenalty } from './clear-way';
import { UNPLACED, type ClassValue, type Search } from './search';

/** Times a displaced class with no free place may displace one more (so at most five classes are displaced). */
const MOST_STEPS = 4;
/** Values of the drawn class looked at for one it prefers. */
const LOOKS = 40;
/** Values of a displaced class with no free place looked at for one that displaces a single other. */
const STEP_LOOKS = 30;

/**
 * An ejection chain: a class that pays for its own time or room takes a value it prefers that one
 * class holds; that class, when it has no free place, takes its cheapest value (of a sample) that
 * displaces one other class not already in the chain, and so on, until the last one displaced finds
 * a free place (MOST_STEPS such steps at most); taken or undone as the annealing decides. The move
 * for a class whose cheaper times are each held by a class that is itself boxed in: an ejection or a
 * clearing of the way places the classes it displaces only where nothing is, and so fails there.
 */
export const CHAIN: Neighbourhood = { name: 'ejection chain', tryMove: (search, temperature) => tryChain(search, temperature) };

/** One move (see CHAIN): the change of cost when taken, or null. */
function tryChain(search: Search, temperature: number): number | null {
  const first = drawPayingClass(search);
  if (first < 0) return null;
  let target: (ClassValue & { out: number }) | null = null;
  let targetPenalty = ownPenalty(search, first, search.time[first] ?? UNPLACED, search.room[first] ?? UNPLACED);
  for (const value of search.values(first, LOOKS)) {
    const penalty = ownPenalty(search, first, value.timeIndex, value.roomIndex);
    if (penalty >= targetPenalty) continue;
    const out = search.hardConflicts(first, value.timeIndex, value.roomIndex);
    if (out === null || out.size !== 1) continue;
    target = { ...value, out: out.values().next().value as number };
    targetPenalty = penalty;
  }
  if (target === null) return null;
  const before = search.mark();
  const saved = search.valuesOf([first, target.out]);
  const inChain = new Set([first, target.out]);
  const left = search.placedNow[first] as Placed;
  search.unassign(target.out);
  search.assign(first, target.timeIndex, target.roomIndex);
  let displaced = target.out;
  for (let step = 0; ; step++) {
    // The first displaced class looks first at the place the drawn class left.
    if (search.placeCheapest(displaced, step === 0 ? search.placesLeft(displaced, left, saved) : [])) return search.verdict(before, temperature, saved);
    if (step === MOST_STEPS) return search.putBack(saved, before);
    const next = cheapestDisplacingOne(search, displaced, inChain);
    if (next === null) return search.putBack(saved, before);
    saved.push(...search.valuesOf([next.out]));
    inChain.add(next.out);
    search.unassign(next.out);
    search.assign(displaced, next.timeIndex, next.roomIndex);
    displaced = next.out;
  }
}

/** Of a sample of the unplaced class's values, the cheapest that displaces exactly one class outside the chain. */
function cheapestDisplacingOne(search: Search, classIndex: number, inChain: ReadonlySet<number>): (ClassValue & { out: number }) | null {
  let best: (ClassValue & { out: number; cost: number }) | null = null;
  for (const value of search.values(classIndex, STEP_LOOKS)) {
    const out = search.hardConflicts(classIndex, value.timeIndex, value.roomIndex);
    if (out === null || out.size !== 1) continue;
    const other = out.values().next().value as number;
    if (inChain.has(other)) continue;
    const cost = search.softCost(classIndex, value.timeIndex, value.roomIndex);
    if (best === null || cost < best.cost) best = { ...value, out: other, cost };
  }
  return best;
}
