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
    const classIndex = randomGroupedClass(search);
    return classIndex < 0 ? null : tryGroupMove(search, classIndex, temperature);
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
  for (const dist of search.problem.distributions) {
    if (!GROUP_TYPES.has(dist.type)) continue;
    for (const classIndex of dist.classes) for (const other of dist.classes) if (other !== classIndex) of[classIndex]?.add(other);
  }
  const groups = { of: of.map((members) => [...members]), grouped: of.flatMap((members, classIndex) => (members.size > 0 ? [classIndex] : [])) };
  groupsBySearch.set(search, groups);
  return groups;
}

/** A placed class that a SameStart/SameTime/… distribution groups with others (-1: none). */
function randomGroupedClass(search: Search): number {
  const { grouped } = groupsOf(search);
  if (grouped.length === 0) return -1;
  const classIndex = grouped[Math.floor(search.random.next() * grouped.length)] as number;
  return (search.time[classIndex] ?? UNPLACED) >= 0 ? classIndex : -1;
}

/**
 * A class takes a new value (half the time, a time another member of its group holds) and its whole
 * group moves with it: every other member is placed again at the class's new time (on its days from its
 * start, in its own weeks where it can) in its own room if it may, else at the cheapest of a few
 * of its values; the one or two classes the new value displaces try the place the class left first, as in
 * an ejection. Taken or undone as the annealing decides.
 */
function tryGroupMove(search: Search, classIndex: number, temperature: number): number | null {
  const spec = search.problem.classes[classIndex];
  const currentTime = search.time[classIndex] ?? UNPLACED;
  if (!spec || currentTime < 0) return null;
  const group = (groupsOf(search).of[classIndex] ?? []).filter((member) => (search.time[member] ?? UNPLACED) >= 0);
  let timeIndex = Math.floor(search.random.next() * spec.times.length);
  if (group.length > 0 && search.random.next() < 0.5) {
    // To a time one of its group holds: the move that makes a split group whole.
    const member = group[Math.floor(search.random.next() * group.length)] as number;
    timeIndex = search.timeLike(classIndex, search.timeOf(member), search.timeOf(classIndex).weeks, true) ?? timeIndex;
  }
  const currentRoom = search.room[classIndex] ?? UNPLACED;
  const roomIndex =
    spec.rooms.length === 0 ? -1 : search.random.next() < 0.5 ? currentRoom : Math.floor(search.random.next() * (search.width[classIndex] ?? 1));
  if (timeIndex === currentTime && roomIndex === currentRoom) return null;
  const saved = search.valuesOf([classIndex, ...group]);
  const before = search.mark();
  const left = search.placedNow[classIndex] as Placed;
  const ownWeeks = group.map((member) => search.timeOf(member).weeks);
  for (const member of group) search.unassign(member);
  const out = search.hardConflicts(classIndex, timeIndex, roomIndex);
  if (!out || out.size > 2) return search.putBack(saved, before);
  saved.push(...search.valuesOf(out));
  for (const member of out) search.unassign(member);
  search.assign(classIndex, timeIndex, roomIndex);
  const at = search.timeOf(classIndex);
  for (const [i, member] of group.entries()) {
    const same = search.timeLike(member, at, ownWeeks[i] as number, true);
    const near = same === undefined ? [] : [same, search.roomAfter(member, saved)];
    if (!search.placeCheapest(member, near, false)) return search.putBack(saved, before);
  }
  for (const member of out) if (!search.placeCheapest(member, search.placesLeft(member, left, saved))) return search.putBack(saved, before);
  return search.verdict(before, temperature, saved);
}
