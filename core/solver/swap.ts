import type { Neighbourhood } from './neighbourhood';
import { UNPLACED, type Search } from './search';

/**
 * Two classes exchange their times (each keeping its room), or their rooms (each keeping its
 * time): the step out of a pair where each prefers the other's place and neither can move first.
 */
export const SWAP: Neighbourhood = {
  name: 'swap',
  tryMove(search, temperature) {
    const classIndex = search.randomPlacedClass();
    if (classIndex < 0) return null;
    const partner = partnerOf(search, classIndex);
    if (partner < 0) return null;
    return search.random.next() < 0.5 ? trySwapTimes(search, classIndex, partner, temperature) : trySwapRooms(search, classIndex, partner, temperature);
  },
};

/** A placed class that c may exchange places with: another class of its subpart, or one of its distributions (-1: none). */
function partnerOf(search: Search, classIndex: number): number {
  let among: readonly number[] = [];
  if (search.random.next() < 0.5) among = search.problem.subparts[search.problem.classes[classIndex]?.subpart ?? -1]?.classes ?? [];
  else {
    const constraints = search.constraintsOf[classIndex] ?? [];
    if (constraints.length > 0)
      among = search.problem.distributions[constraints[Math.floor(search.random.next() * constraints.length)] as number]?.classes ?? [];
  }
  if (among.length < 2) return -1;
  const partner = among[Math.floor(search.random.next() * among.length)] as number;
  return partner !== classIndex && (search.time[partner] ?? UNPLACED) >= 0 ? partner : -1;
}

/** The class and its partner exchange their times, each keeping its room (when each may meet at the other's time). */
function trySwapTimes(search: Search, classIndex: number, partner: number, temperature: number): number | null {
  const timeForClass = search.timeIndexOf(classIndex, search.timeOf(partner));
  const timeForPartner = search.timeIndexOf(partner, search.timeOf(classIndex));
  if (timeForClass === undefined || timeForPartner === undefined || timeForClass === search.time[classIndex]) return null;
  return tryTogether(
    search,
    [
      [classIndex, timeForClass, search.room[classIndex] ?? UNPLACED],
      [partner, timeForPartner, search.room[partner] ?? UNPLACED],
    ],
    temperature,
  );
}

/** The class and its partner exchange their rooms, each keeping its time (when each may use the other's room). */
function trySwapRooms(search: Search, classIndex: number, partner: number, temperature: number): number | null {
  const roomOf = (x: number): number => search.placedNow[x]?.room ?? -1;
  if (roomOf(classIndex) < 0 || roomOf(partner) < 0 || roomOf(classIndex) === roomOf(partner)) return null;
  const rc = search.problem.classes[classIndex]?.rooms.findIndex((o) => o.room === roomOf(partner)) ?? -1;
  const rd = search.problem.classes[partner]?.rooms.findIndex((o) => o.room === roomOf(classIndex)) ?? -1;
  if (rc < 0 || rd < 0) return null;
  return tryTogether(
    search,
    [
      [classIndex, search.time[classIndex] ?? UNPLACED, rc],
      [partner, search.time[partner] ?? UNPLACED, rd],
    ],
    temperature,
  );
}

/**
 * Several classes take new values at once: each must clash with nothing placed, the ones moved
 * before it included. Taken or undone as the annealing decides; answers the change of cost, or null.
 */
function tryTogether(search: Search, moves: readonly (readonly [number, number, number])[], temperature: number): number | null {
  const before = search.mark();
  const saved = search.valuesOf(moves.map(([classIndex]) => classIndex));
  for (const [classIndex] of moves) search.unassign(classIndex);
  for (const [classIndex, timeIndex, roomIndex] of moves) {
    const clash = search.hardConflicts(classIndex, timeIndex, roomIndex, true);
    if (!clash || clash.size > 0) return search.putBack(saved, before);
    search.assign(classIndex, timeIndex, roomIndex);
  }
  return search.verdict(before, temperature, saved);
}
