import { pairHolds, setExcess, type Placed } from './distributions';
import { SET_TYPES, type Distribution } from './model';
import type { Neighbourhood } from './neighbourhood';
import { UNPLACED, type ClassValue, type Search } from './search';

/** A repair move's values of one kind (times in its room, or rooms at its time) at most: all when fewer. */
const REPAIR_VALUES = 120;
/** A repair move's values of any kind, drawn beside those. */
const REPAIR_OTHERS = 20;

/**
 * A move directed by a broken soft distribution (see tryRepair): one of its classes to the
 * cheapest of its values under which the distribution is broken less.
 */
export const REPAIR: Neighbourhood = {
  name: 'repair',
  tryMove: (search) => tryRepair(search),
  observe: (search) => search.lookAtDistributions(),
};

/**
 * A move directed by a broken constraint, as cpsolver's constraint-directed neighbours: a soft
 * distribution broken at the last look, a class that breaks it, and of that class's values those
 * under which the distribution is broken less, the cheapest that clashes with nothing; when none is
 * free, one of them through a clash (see moveThrough). Only an improvement is taken, whatever the
 * temperature: the answer is its change of cost, or null.
 */
function tryRepair(search: Search): number | null {
  if (search.brokenSoft.length === 0) return null;
  const dist = search.problem.distributions[search.brokenSoft[Math.floor(search.random.next() * search.brokenSoft.length)] as number] as Distribution;
  const classIndex = breakerOf(search, dist);
  if (classIndex < 0) return null;
  const currentTime = search.time[classIndex] as number;
  const currentRoom = search.room[classIndex] as number;
  const broken = brokenWith(search, dist, classIndex, currentTime, currentRoom);
  const here = search.softCost(classIndex, currentTime, currentRoom);
  let free: (ClassValue & { delta: number }) | null = null;
  let through: ClassValue | null = null;
  let clashing = 0;
  for (const value of repairValues(search, classIndex, dist)) {
    const { timeIndex, roomIndex } = value;
    if ((timeIndex === currentTime && roomIndex === currentRoom) || brokenWith(search, dist, classIndex, timeIndex, roomIndex) >= broken) continue;
    const out = search.hardConflicts(classIndex, timeIndex, roomIndex, true);
    if (!out) continue;
    if (out.size === 0) {
      const delta = search.softCost(classIndex, timeIndex, roomIndex) - here;
      if (free === null || delta < free.delta) free = { ...value, delta };
    } else if (free === null && search.random.next() * ++clashing < 1) through = value;
  }
  // Only improvements are taken: the move comes back to the same few classes while their
  // distributions stay broken, and taking worse values for them there undid the annealing's work.
  if (free !== null) {
    if (free.delta >= 0) return null;
    return search.moveTo(classIndex, free.timeIndex, free.roomIndex);
  }
  return through === null ? null : search.moveThrough(classIndex, through.timeIndex, through.roomIndex, 0);
}

/**
 * A placed class that breaks the distribution: one of a broken pair's two, or of a set type's
 * classes one whose leaving lowers its excess; -1 when it holds now (or a class of it is unplaced).
 */
function breakerOf(search: Search, dist: Distribution): number {
  const members = dist.classes;
  if (members.some((member) => (search.time[member] ?? UNPLACED) < 0)) return -1;
  search.probes += members.length;
  if (SET_TYPES.has(dist.type)) {
    const times = members.map((member) => search.timeOf(member));
    const excess = setExcess(search.problem, search.algebra, dist, times);
    if (excess === 0) return -1;
    const lowering = members.filter((_, i) => setExcess(search.problem, search.algebra, dist, [...times.slice(0, i), ...times.slice(i + 1)]) < excess);
    return lowering.length === 0 ? -1 : (lowering[Math.floor(search.random.next() * lowering.length)] as number);
  }
  let pairs = 0;
  let chosen = -1;
  for (let i = 0; i < members.length; i++)
    for (let j = i + 1; j < members.length; j++) {
      const [a, b] = [members[i] as number, members[j] as number];
      if (pairHolds(search.problem, search.algebra, dist, search.placedNow[a] as Placed, search.placedNow[b] as Placed)) continue;
      // One broken pair drawn evenly among them, and one of its two classes.
      if (search.random.next() * ++pairs < 1) chosen = search.random.next() < 0.5 ? a : b;
    }
  return chosen;
}

/** How far the distribution is broken with the class at the time and room given and the others where they are: pairs broken with it, or a set type's excess. */
function brokenWith(search: Search, dist: Distribution, classIndex: number, timeIndex: number, roomIndex: number): number {
  search.probes++;
  const me = search.placedAs(classIndex, timeIndex, roomIndex);
  if (SET_TYPES.has(dist.type))
    return setExcess(
      search.problem,
      search.algebra,
      dist,
      dist.classes.map((member) => (member === classIndex ? me.time : search.timeOf(member))),
    );
  return search.pairsBroken(dist, classIndex, dist.classes.indexOf(classIndex), me);
}

/**
 * The values a repair move looks at for a class: its other times in its room (a sample when there
 * are many), its other rooms at its time when the distribution is about rooms, and a few of any kind.
 */
function repairValues(search: Search, classIndex: number, dist: Distribution): ClassValue[] {
  const spec = search.problem.classes[classIndex];
  if (!spec) return [];
  const currentTime = search.time[classIndex] as number;
  const currentRoom = search.room[classIndex] as number;
  const out: ClassValue[] = [];
  const pick = (count: number, limit: number, add: (k: number) => void): void => {
    if (count <= limit) for (let k = 0; k < count; k++) add(k);
    else for (let k = 0; k < limit; k++) add(Math.floor(search.random.next() * count));
  };
  if (dist.type === 'SameRoom' || dist.type === 'DifferentRoom')
    pick(spec.rooms.length, REPAIR_VALUES, (roomIndex) => out.push({ timeIndex: currentTime, roomIndex }));
  else pick(spec.times.length, REPAIR_VALUES, (timeIndex) => out.push({ timeIndex, roomIndex: currentRoom }));
  out.push(...search.values(classIndex, REPAIR_OTHERS));
  return out;
}
