import type { Neighbourhood } from './neighbourhood';
import { UNPLACED, type ClassValue, type Search } from './search';

/** Classes in the way that one move may displace and place again. */
const MOST_DISPLACED = 8;
/** Values of the drawn class looked at for one it prefers. */
const LOOKS = 40;

/**
 * Per search, the placed classes that pay for their own time or room at the last look although they
 * have a value that pays less, and what that could save in all (weighted).
 */
interface PayingClasses {
  classes: Int32Array;
  saving: number;
}

const payingAtLastLook = new WeakMap<Search, PayingClasses>();

/**
 * A class that pays for its time or room takes a value it prefers although up to MOST_DISPLACED
 * classes are in its way, each of them placed again at its cheapest free value (the place it left
 * first). The move for a class whose one penalty-free time is held, in its only room, by several
 * classes that could all meet elsewhere: an ejection moves at most two, and no move of one class
 * frees the time.
 */
export const CLEAR_WAY: Neighbourhood = {
  name: 'clear the way',
  tryMove: (search, temperature) => tryClearingTheWay(search, temperature),
  observe: (search) => payingAtLastLook.set(search, lookAtOwnPenalties(search)),
};

/** What the class pays for its own time and room (by their indexes), as the problem weighs them. */
export function ownPenalty(search: Search, classIndex: number, timeIndex: number, roomIndex: number): number {
  const spec = search.problem.classes[classIndex];
  const { time, room } = search.problem.weights;
  return time * (spec?.times[timeIndex]?.penalty ?? 0) + (roomIndex < 0 ? 0 : room * (spec?.rooms[roomIndex]?.penalty ?? 0));
}

/** Per problem, the least each class could pay for its own time and room (worked out once). */
const leastOwnPenalties = new WeakMap<Search['problem'], Float64Array>();

function leastOwnPenaltiesOf(search: Search): Float64Array {
  let least = leastOwnPenalties.get(search.problem);
  if (least) return least;
  const { time, room } = search.problem.weights;
  const lowest = (penalties: number[]): number => (penalties.length === 0 ? 0 : Math.min(...penalties));
  least = Float64Array.from(
    search.problem.classes,
    (spec) => time * lowest(spec.times.map((o) => o.penalty)) + room * lowest(spec.rooms.map((o) => o.penalty)),
  );
  leastOwnPenalties.set(search.problem, least);
  return least;
}

function lookAtOwnPenalties(search: Search): PayingClasses {
  const least = leastOwnPenaltiesOf(search);
  const classes: number[] = [];
  let saving = 0;
  for (let classIndex = 0; classIndex < search.n; classIndex++) {
    const timeIndex = search.time[classIndex] ?? UNPLACED;
    if (timeIndex < 0) continue;
    const above = ownPenalty(search, classIndex, timeIndex, search.room[classIndex] ?? UNPLACED) - (least[classIndex] ?? 0);
    if (above <= 0) continue;
    classes.push(classIndex);
    saving += above;
  }
  return { classes: Int32Array.from(classes), saving };
}

/**
 * What the classes paying for their own time or room could save at most, at the last look (0 before
 * the first look): the fixed mix gives this move its share by it.
 */
export function ownPenaltySaving(search: Search): number {
  return payingAtLastLook.get(search)?.saving ?? 0;
}

/** A placed class drawn from those paying for their own time or room at the last look (-1: none). */
export function drawPayingClass(search: Search): number {
  const paying = payingAtLastLook.get(search);
  if (!paying || paying.classes.length === 0) return -1;
  const classIndex = paying.classes[Math.floor(search.random.next() * paying.classes.length)] as number;
  return (search.time[classIndex] ?? UNPLACED) < 0 ? -1 : classIndex;
}

/** One move (see CLEAR_WAY): the change of cost when taken, or null. */
function tryClearingTheWay(search: Search, temperature: number): number | null {
  const classIndex = drawPayingClass(search);
  if (classIndex < 0) return null;
  const currentTime = search.time[classIndex] ?? UNPLACED;
  const now = ownPenalty(search, classIndex, currentTime, search.room[classIndex] ?? UNPLACED);
  let best: (ClassValue & { penalty: number }) | null = null;
  for (const value of search.values(classIndex, LOOKS)) {
    const penalty = ownPenalty(search, classIndex, value.timeIndex, value.roomIndex);
    if (penalty < now && (best === null || penalty < best.penalty)) best = { ...value, penalty };
  }
  if (best === null) return null;
  const out = search.hardConflicts(classIndex, best.timeIndex, best.roomIndex);
  if (!out) return null;
  return out.size === 0
    ? search.tryValue(classIndex, best.timeIndex, best.roomIndex, temperature)
    : search.moveThrough(classIndex, best.timeIndex, best.roomIndex, temperature, MOST_DISPLACED);
}
