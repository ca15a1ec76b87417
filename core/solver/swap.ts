import type { Neighbourhood } from './neighbourhood';
import { UNPLACED, type Search } from './search';

/**
 * Two classes exchange their times (each keeping its room), or their rooms (each keeping its
 * time): the step out of a pair where each prefers the other's place and neither can move first.
 */
export const SWAP: Neighbourhood = {
  name: 'swap',
  tryMove(search, temperature) {
    const c = search.randomPlacedClass();
    if (c < 0) return null;
    const d = partnerOf(search, c);
    if (d < 0) return null;
    return search.random.next() < 0.5 ? trySwapTimes(search, c, d, temperature) : trySwapRooms(search, c, d, temperature);
  },
};

/** A placed class that c may exchange places with: another class of its subpart, or one of its distributions (-1: none). */
function partnerOf(search: Search, c: number): number {
  let among: readonly number[] = [];
  if (search.random.next() < 0.5) among = search.problem.subparts[search.problem.classes[c]?.subpart ?? -1]?.classes ?? [];
  else {
    const constraints = search.constraintsOf[c] ?? [];
    if (constraints.length > 0)
      among = search.problem.distributions[constraints[Math.floor(search.random.next() * constraints.length)] as number]?.classes ?? [];
  }
  if (among.length < 2) return -1;
  const d = among[Math.floor(search.random.next() * among.length)] as number;
  return d !== c && (search.time[d] ?? UNPLACED) >= 0 ? d : -1;
}

/** Classes c and d exchange their times, each keeping its room (when each may meet at the other's time). */
function trySwapTimes(search: Search, c: number, d: number, temperature: number): number | null {
  const tc = search.timeIndexOf(c, search.timeOf(d));
  const td = search.timeIndexOf(d, search.timeOf(c));
  if (tc === undefined || td === undefined || tc === search.time[c]) return null;
  return tryTogether(
    search,
    [
      [c, tc, search.room[c] ?? UNPLACED],
      [d, td, search.room[d] ?? UNPLACED],
    ],
    temperature,
  );
}

/** Classes c and d exchange their rooms, each keeping its time (when each may use the other's room). */
function trySwapRooms(search: Search, c: number, d: number, temperature: number): number | null {
  const roomOf = (x: number): number => search.placedNow[x]?.room ?? -1;
  if (roomOf(c) < 0 || roomOf(d) < 0 || roomOf(c) === roomOf(d)) return null;
  const rc = search.problem.classes[c]?.rooms.findIndex((o) => o.room === roomOf(d)) ?? -1;
  const rd = search.problem.classes[d]?.rooms.findIndex((o) => o.room === roomOf(c)) ?? -1;
  if (rc < 0 || rd < 0) return null;
  return tryTogether(
    search,
    [
      [c, search.time[c] ?? UNPLACED, rc],
      [d, search.time[d] ?? UNPLACED, rd],
    ],
    temperature,
  );
}

/**
 * Several classes take new values at once: each must clash with nothing placed, the ones moved
 * before it included. Taken or undone as the annealing decides; answers the change of cost, or null.
 */
function tryTogether(search: Search, moves: readonly (readonly [number, number, number])[], temperature: number): number | null {
  const before = search.cost;
  const saved = search.valuesOf(moves.map(([c]) => c));
  for (const [c] of moves) search.unassign(c);
  for (const [c, t, r] of moves) {
    const clash = search.hardConflicts(c, t, r, true);
    if (!clash || clash.size > 0) return search.putBack(saved);
    search.assign(c, t, r);
  }
  return search.verdict(before, temperature, saved);
}
