import { pairHolds, type Placed } from './distributions';
import type { Distribution, DistributionType } from './model';
import type { Neighbourhood } from './neighbourhood';
import { UNPLACED, type ClassValue, type Search } from './search';

/** The soft day-and-time groups this move mends: each pair of members must meet on nested days, at the same start, or both. */
const MENDED_TYPES: ReadonlySet<DistributionType> = new Set(['SameDays', 'SameTime', 'SameStart']);
/** Groups with more members than this are left to the one-class and repair moves (the move's work grows with the square of it). */
const MAX_MEMBERS = 12;
/** Broken distributions drawn before the move gives up for this time. */
const DRAWS = 4;
/** The first member's times tried (each the start of one re-placement of the whole group). */
const ANCHORS = 6;
/** Times of a member looked at per re-placement, at most: those that keep the group whole with the members already placed. */
const TIMES_PER_MEMBER = 160;
/** Rooms of a member tried at each of its times beside the one it had. */
const OTHER_ROOMS = 2;

/**
 * A move that mends a broken soft SameDays, SameTime or SameStart group in one step: every member is
 * placed again together. The most constrained member (fewest times) takes one of a few times (where it
 * is, one that agrees with another member's, or drawn), then each other member in turn takes its
 * cheapest free value whose time keeps the group whole with those already placed. Of these few
 * re-placements of the whole group, the cheapest is taken or undone as the annealing decides. The
 * one-class and repair moves mend such a group class by class, and a member that can join the others
 * only on days another member cannot take is never mended by them.
 */
export const MEND_GROUP: Neighbourhood = {
  name: 'mend group',
  tryMove: (search, temperature) => tryMendGroup(search, temperature),
  observe: (search) => search.lookAtDistributions(),
};

function tryMendGroup(search: Search, temperature: number): number | null {
  const dist = drawBrokenGroup(search);
  if (!dist) return null;
  const members = [...dist.classes].sort((a, b) => timesOf(search, a) - timesOf(search, b));
  const anchor = members[0] as number;
  const saved = search.valuesOf(members);
  const before = search.mark();
  let best: { cost: number; values: [number, number, number][] } | null = null;
  for (const timeIndex of anchorTimes(search, dist, anchor, members)) {
    for (const member of members) search.unassign(member);
    const placed = placeGroup(search, dist, members, timeIndex, saved);
    if (placed && (best === null || search.cost < best.cost)) best = { cost: search.cost, values: search.valuesOf(members) };
    search.putBack(saved, before);
  }
  // Only an improvement is taken, whatever the temperature (as a repair move): the move comes back to
  // the same broken groups, and taking worse re-placements of whole groups undid the annealing's work.
  if (best === null || best.cost >= before.cost) return null;
  for (const member of members) search.unassign(member);
  for (const [member, timeIndex, roomIndex] of best.values) search.assign(member, timeIndex, roomIndex);
  return search.verdict(before, temperature, saved);
}

/** A soft group of the mended types, broken now, with every member placed and at most MAX_MEMBERS; null when none was drawn. */
function drawBrokenGroup(search: Search): Distribution | null {
  const broken = search.brokenSoft;
  if (broken.length === 0) return null;
  for (let k = 0; k < DRAWS; k++) {
    const dist = search.problem.distributions[broken[Math.floor(search.random.next() * broken.length)] as number];
    if (!dist || !MENDED_TYPES.has(dist.type) || dist.classes.length < 2 || dist.classes.length > MAX_MEMBERS) continue;
    if (dist.classes.some((member) => (search.time[member] ?? UNPLACED) < 0)) continue;
    if (groupHolds(search, dist)) continue;
    return dist;
  }
  return null;
}

/** Whether every pair of the group holds where its members are now. */
function groupHolds(search: Search, dist: Distribution): boolean {
  const members = dist.classes;
  search.probes += members.length;
  for (let i = 0; i < members.length; i++)
    for (let j = i + 1; j < members.length; j++)
      if (!pairHolds(search.problem, search.algebra, dist, search.placedNow[members[i] as number] as Placed, search.placedNow[members[j] as number] as Placed))
        return false;
  return true;
}

const timesOf = (search: Search, classIndex: number): number => search.problem.classes[classIndex]?.times.length ?? 0;

/** Per search, per distribution, the anchor's times ranked by how many members could join it there (see rankedAnchorTimes). */
const rankedBySearch = new WeakMap<Search, Map<Distribution, number[]>>();

/** Anchor times looked at when ranking, and each member's times looked at against each: samples when more. */
const RANKED_SAMPLE = 200;

/**
 * The anchor's times, the ones with the most other members having a time that agrees with it first
 * (the cheaper first among equals): the days or times the whole group can share. Worked out once per
 * distribution (it depends on the problem only), over samples of RANKED_SAMPLE times when there are more.
 */
function rankedAnchorTimes(search: Search, dist: Distribution, anchor: number, members: readonly number[]): number[] {
  let known = rankedBySearch.get(search);
  if (!known) rankedBySearch.set(search, (known = new Map<Distribution, number[]>()));
  const ranked = known.get(dist);
  if (ranked) return ranked;
  const sample = (count: number): number[] =>
    count <= RANKED_SAMPLE ? Array.from({ length: count }, (_, k) => k) : Array.from({ length: RANKED_SAMPLE }, () => Math.floor(search.random.next() * count));
  const options = search.problem.classes[anchor]?.times ?? [];
  const others = members
    .filter((member) => member !== anchor)
    .map((member) => sample(timesOf(search, member)).map((timeIndex) => search.timeOf(member, timeIndex)));
  const joining = new Map<number, number>();
  for (const timeIndex of new Set(sample(options.length))) {
    const me = { time: options[timeIndex] as (typeof options)[number], room: -1 };
    joining.set(timeIndex, others.filter((times) => times.some((time) => pairHolds(search.problem, search.algebra, dist, me, { time, room: -1 }))).length);
    search.probes += others.length;
  }
  const order = [...joining.keys()].sort((a, b) => (joining.get(b) ?? 0) - (joining.get(a) ?? 0) || (options[a]?.penalty ?? 0) - (options[b]?.penalty ?? 0));
  known.set(dist, order);
  return order;
}

/**
 * The anchor's times to start a re-placement from: where it is, the few where most of the group can
 * join it (rankedAnchorTimes), and one drawn at random; at most ANCHORS.
 */
function anchorTimes(search: Search, dist: Distribution, anchor: number, members: readonly number[]): number[] {
  const options = search.problem.classes[anchor]?.times ?? [];
  const chosen = new Set<number>([search.time[anchor] as number]);
  for (const timeIndex of rankedAnchorTimes(search, dist, anchor, members)) {
    if (chosen.size >= ANCHORS - 1) break;
    chosen.add(timeIndex);
  }
  if (options.length > 0) chosen.add(Math.floor(search.random.next() * options.length));
  return [...chosen];
}

/**
 * Places the group's members (all unplaced) again: the first at time `anchorTime` in its room (or another), each
 * other at its cheapest free value keeping the group whole with those already placed; false when one
 * has none.
 */
function placeGroup(search: Search, dist: Distribution, members: readonly number[], anchorTime: number, saved: readonly [number, number, number][]): boolean {
  const placed: Placed[] = [];
  for (const [i, member] of members.entries()) {
    const times = i === 0 ? [anchorTime] : fittingTimes(search, dist, member, placed);
    const value = cheapestFree(search, member, times, search.roomAfter(member, saved));
    if (!value) return false;
    search.assign(member, value.timeIndex, value.roomIndex);
    placed.push(search.placedNow[member] as Placed);
  }
  return true;
}

/** The member's times that keep the group whole with the members placed so far (a sample of TIMES_PER_MEMBER when more). */
function fittingTimes(search: Search, dist: Distribution, member: number, placed: readonly Placed[]): number[] {
  const options = search.problem.classes[member]?.times ?? [];
  const fitting: number[] = [];
  options.forEach((o, timeIndex) => {
    const me = { time: o, room: -1 };
    if (placed.every((other) => pairHolds(search.problem, search.algebra, dist, me, other))) fitting.push(timeIndex);
  });
  search.probes += options.length;
  if (fitting.length <= TIMES_PER_MEMBER) return fitting;
  return Array.from({ length: TIMES_PER_MEMBER }, () => fitting[Math.floor(search.random.next() * fitting.length)] as number);
}

/** Of the member's values at the given times (in its own room, or OTHER_ROOMS others), the cheapest that clashes with nothing. */
function cheapestFree(search: Search, member: number, times: readonly number[], ownRoom: number): ClassValue | null {
  const width = search.problem.classes[member]?.rooms.length ?? 0;
  let best: (ClassValue & { cost: number }) | null = null;
  const consider = (timeIndex: number, roomIndex: number): void => {
    const clash = search.hardConflicts(member, timeIndex, roomIndex, true);
    if (!clash || clash.size > 0) return;
    const cost = search.softCost(member, timeIndex, roomIndex);
    if (best === null || cost < best.cost) best = { timeIndex, roomIndex, cost };
  };
  for (const timeIndex of times) {
    consider(timeIndex, ownRoom);
    for (let k = 0; k < OTHER_ROOMS && width > 1; k++) consider(timeIndex, Math.floor(search.random.next() * width));
  }
  return best;
}
