import type { Neighbourhood } from './neighbourhood';
import { UNPLACED, type ClassValue, type Search } from './search';

/** Values a focused move draws for its class; the cheapest that clashes with nothing is tried. */
const FOCUS_VALUES = 4;

/**
 * Per search, the placed classes that cost something at the last look and the running sum of their
 * costs, for a draw in proportion to cost.
 */
interface CostlyClasses {
  classes: Int32Array;
  cumulative: Float64Array;
}

const costlyAtLastLook = new WeakMap<Search, CostlyClasses>();

/**
 * A move aimed where the penalty is: a class drawn in proportion to what it costs where it is (its
 * time and room penalties, the soft distributions it breaks, its students' clashes, as the search
 * weighs them, at the last look), and of a few of its values drawn as the one-class move draws them,
 * the cheapest that clashes with nothing, taken or not as the annealing decides. On a problem whose
 * penalty sits on a few of many classes, a uniformly drawn class mostly has nothing to gain.
 */
export const FOCUS: Neighbourhood = {
  name: 'costly class',
  tryMove: (search, temperature) => tryFocused(search, temperature),
  observe: (search) => costlyAtLastLook.set(search, lookAtCosts(search)),
};

/** Every placed class's soft cost where it is; those above zero, with the running sum. */
function lookAtCosts(search: Search): CostlyClasses {
  const classes: number[] = [];
  const cumulative: number[] = [];
  let sum = 0;
  for (let classIndex = 0; classIndex < search.n; classIndex++) {
    const timeIndex = search.time[classIndex] ?? UNPLACED;
    if (timeIndex < 0) continue;
    const cost = search.softCost(classIndex, timeIndex, search.room[classIndex] ?? UNPLACED);
    if (cost <= 0) continue;
    sum += cost;
    classes.push(classIndex);
    cumulative.push(sum);
  }
  return { classes: Int32Array.from(classes), cumulative: Float64Array.from(cumulative) };
}

/** A class drawn in proportion to its cost at the last look (-1: none cost anything). */
function drawCostly(search: Search): number {
  const costly = costlyAtLastLook.get(search);
  if (!costly || costly.classes.length === 0) return -1;
  const x = search.random.next() * (costly.cumulative[costly.cumulative.length - 1] as number);
  let lo = 0;
  let hi = costly.cumulative.length - 1;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if ((costly.cumulative[mid] as number) > x) hi = mid;
    else lo = mid + 1;
  }
  return costly.classes[lo] as number;
}

/** One focused move (see FOCUS): the change of cost when taken, or null. */
function tryFocused(search: Search, temperature: number): number | null {
  const classIndex = drawCostly(search);
  const spec = search.problem.classes[classIndex];
  const currentTime = search.time[classIndex] ?? UNPLACED;
  if (!spec || currentTime < 0) return null;
  const currentRoom = search.room[classIndex] ?? UNPLACED;
  let best: (ClassValue & { cost: number }) | null = null;
  for (let k = 0; k < FOCUS_VALUES; k++) {
    const value = search.drawValue(classIndex);
    if (value.timeIndex === currentTime && value.roomIndex === currentRoom) continue;
    const out = search.hardConflicts(classIndex, value.timeIndex, value.roomIndex, true);
    if (!out || out.size > 0) continue;
    const cost = search.softCost(classIndex, value.timeIndex, value.roomIndex);
    if (best === null || cost < best.cost) best = { ...value, cost };
  }
  return best === null ? null : search.tryValue(classIndex, best.timeIndex, best.roomIndex, temperature);
}
