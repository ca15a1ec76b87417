import type { Neighbourhood } from './neighbourhood';
import type { TimeOption } from './model';
import { UNPLACED, type Search } from './search';

/** The most classes a Kempe chain moves (a longer one is not made). */
const KEMPE_CLASSES = 24;

/**
 * A Kempe chain: a class goes to another time and the classes it would clash with go the other way,
 * to the time it left, and so on, until the two sets have exchanged times (see tryKempe).
 * The move for classes held by attendee, room and instructor clashes, none of which can change
 * sides alone.
 */
export const KEMPE: Neighbourhood = { name: 'kempe', tryMove: (search, temperature) => tryKempe(search, temperature) };

/**
 * A Kempe chain between two times: a class goes from its time A to another time B, keeping its
 * room; every class it then clashes with goes the other way, to its own option of the time A (keeping
 * its room), every class that one clashes with to B, and so on until nothing clashes. Made only
 * when each class of the chain has the other time and the chain closes within KEMPE_CLASSES
 * classes. The move that exchanges two sets of classes which must not meet together (attendees,
 * rooms) and where no member can change sides alone. Taken or undone as the annealing decides.
 */
function tryKempe(search: Search, temperature: number): number | null {
  const classIndex = search.randomPlacedClass();
  const spec = search.problem.classes[classIndex];
  if (classIndex < 0 || !spec || spec.times.length < 2) return null;
  const currentTime = search.time[classIndex] as number;
  const otherTime = (currentTime + 1 + Math.floor(search.random.next() * (spec.times.length - 1))) % spec.times.length;
  const sides = [search.timeOf(classIndex, currentTime), search.timeOf(classIndex, otherTime)] as const;
  const before = search.mark();
  const saved = search.valuesOf([classIndex]);
  /** Each class of the chain and the side (0: A, 1: B) it goes to. */
  const goesTo = new Map<number, number>([[classIndex, 1]]);
  const queue = [classIndex];
  search.unassign(classIndex);
  for (let i = 0; i < queue.length; i++) {
    const member = queue[i] as number;
    const side = goesTo.get(member) as number;
    const timeIndex = i === 0 ? otherTime : (search.timeLike(member, sides[side] as TimeOption, (sides[side] as TimeOption).weeks, false) as number);
    const roomIndex = saved[i]?.[2] ?? UNPLACED;
    const out = search.hardConflicts(member, timeIndex, roomIndex);
    if (!out) return search.putBack(saved, before);
    for (const x of out) {
      // A class already in the chain clashes where it went: the two sides do not separate.
      if (
        goesTo.has(x) ||
        goesTo.size >= KEMPE_CLASSES ||
        search.timeLike(x, sides[1 - side] as TimeOption, (sides[1 - side] as TimeOption).weeks, false) === undefined
      )
        return search.putBack(saved, before);
      goesTo.set(x, 1 - side);
      saved.push(...search.valuesOf([x]));
      queue.push(x);
      search.unassign(x);
    }
    search.assign(member, timeIndex, roomIndex);
  }
  return search.verdict(before, temperature, saved);
}
