import { GROUP_TYPES } from './model';
import type { Placed } from './distributions';
import type { Neighbourhood } from './neighbourhood';
import { UNPLACED, type Search } from './search';

/**
 * A class in a SameStart/SameTime/SameDays/SameWeeks/SameRoom/Overlap group (required or not) moves
 * with its whole group: it takes a new value (half the time, a time another member holds), and every
 * other member (and whatever the new value displaces) is placed again, at the mover's time if it
 * may, else at its cheapest value that clashes with nothing. The move that mends a split group
 * whose part cannot join the rest one class at a time.
 */
export const GROUP: Neighbourhood = {
  name: 'group',
  tryMove(search, temperature) {
    const c = randomGroupedClass(search);
    return c < 0 ? null : tryGroupMove(search, c, temperature);
  },
};

/**
 * Per search, the other classes a SameStart/SameTime/… distribution (required or not) groups each
 * class with (see GROUP_TYPES), and the classes that have a group; worked out when a group move first asks.
 */
const groupsBySearch = new WeakMap<Search, { of: number[][]; grouped: number[] }>();

/** The classes each class's SameStart/SameTime/… distributions group it with, required or not (see GROUP_TYPES). */
function groupsOf(search: Search): { of: number[][]; grouped: number[] } {
  const known = groupsBySearch.get(search);
  if (known) return known;
  const of = search.problem.classes.map(() => new Set<number>());
  for (const d of search.problem.distributions) {
    if (!GROUP_TYPES.has(d.type)) continue;
    for (const c of d.classes) for (const e of d.classes) if (e !== c) of[c]?.add(e);
  }
  const groups = { of: of.map((members) => [...members]), grouped: of.flatMap((members, c) => (members.size > 0 ? [c] : [])) };
  groupsBySearch.set(search, groups);
  return groups;
}

/** A placed class that a SameStart/SameTime/… distribution groups with others (-1: none). */
function randomGroupedClass(search: Search): number {
  const { grouped } = groupsOf(search);
  if (grouped.length === 0) return -1;
  const c = grouped[Math.floor(search.random.next() * grouped.length)] as number;
  return (search.time[c] ?? UNPLACED) >= 0 ? c : -1;
}

/**
 * Class c takes a new value (half the time, a time another member of its group holds) and its whole
 * group moves with it: every other member is placed again at c's new time (on c's days from c's
 * start, in its own weeks where it can) in its own room if it may, else at the cheapest of a few
 * of its values; the one or two classes the new value displaces try the place c left first, as in
 * an ejection. Taken or undone as the annealing decides.
 */
function tryGroupMove(search: Search, c: number, temperature: number): number | null {
  const spec = search.problem.classes[c];
  const t0 = search.time[c] ?? UNPLACED;
  if (!spec || t0 < 0) return null;
  const group = (groupsOf(search).of[c] ?? []).filter((d) => (search.time[d] ?? UNPLACED) >= 0);
  let t = Math.floor(search.random.next() * spec.times.length);
  if (group.length > 0 && search.random.next() < 0.5) {
    // To a time one of its group holds: the move that makes a split group whole.
    const d = group[Math.floor(search.random.next() * group.length)] as number;
    t = search.timeLike(c, search.timeOf(d), search.timeOf(c).weeks, true) ?? t;
  }
  const r0 = search.room[c] ?? UNPLACED;
  const r = spec.rooms.length === 0 ? -1 : search.random.next() < 0.5 ? r0 : Math.floor(search.random.next() * (search.width[c] ?? 1));
  if (t === t0 && r === r0) return null;
  const saved = search.valuesOf([c, ...group]);
  const before = search.cost;
  const left = search.placedNow[c] as Placed;
  const ownWeeks = group.map((d) => search.timeOf(d).weeks);
  for (const d of group) search.unassign(d);
  const out = search.hardConflicts(c, t, r);
  if (!out || out.size > 2) return search.putBack(saved);
  saved.push(...search.valuesOf(out));
  for (const d of out) search.unassign(d);
  search.assign(c, t, r);
  const at = search.timeOf(c);
  for (const [i, d] of group.entries()) {
    const same = search.timeLike(d, at, ownWeeks[i] as number, true);
    const near = same === undefined ? [] : [same, search.roomAfter(d, saved)];
    if (!search.placeCheapest(d, near, false)) return search.putBack(saved);
  }
  for (const d of out) if (!search.placeCheapest(d, search.placesLeft(d, left, saved))) return search.putBack(saved);
  return search.verdict(before, temperature, saved);
}
