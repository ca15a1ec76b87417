import { bitCount, firstDay, travelTime, type Distribution, type TimeOption, type TimetableProblem } from './model';
import type { TimeAlgebra } from './times';

/**
 * The meaning of each distribution constraint, exactly as the competition defines it, pure. One
 * home for it: the scorer and the search both evaluate constraints here.
 *
 * Readings the rules leave open, chosen as the organisers' own solver does:
 * - a class without a room has no travel time to any other (SameAttendees, student conflicts);
 * - two classes without a room count as the same room (SameRoom holds, DifferentRoom does not).
 */

/** A class as placed: its time and its room index (-1 for none). */
export interface Placed {
  time: TimeOption;
  room: number;
}

const end = (t: TimeOption): number => t.start + t.length;

/** Travel time in slots between two rooms (0 when either is -1: a class without a room). */
const travelBetween = (problem: TimetableProblem, a: number, b: number): number => (a < 0 || b < 0 ? 0 : travelTime(problem, a, b));

/** Whether a student has time to walk between two classes of a day, whichever comes first: it ends, plus the travel, by the other's start. */
const walkable = (aStart: number, aEnd: number, bStart: number, bEnd: number, travel: number): boolean => aEnd + travel <= bStart || bEnd + travel <= aStart;

/** The longest travel time between two of the problem's rooms, in slots. */
export function longestTravel(problem: TimetableProblem): number {
  let longest = 0;
  for (let i = 0; i < problem.travel.length; i++) longest = Math.max(longest, problem.travel[i] ?? 0);
  return longest;
}

/** Whether two placed classes conflict for a student attending both: they overlap, or leave too little time to walk between rooms. */
export function attendeesConflict(problem: TimetableProblem, algebra: TimeAlgebra, a: Placed, b: Placed): boolean {
  if (!algebra.shareDayAndWeek(a.time, b.time)) return false;
  return !walkable(a.time.start, end(a.time), b.time.start, end(b.time), travelBetween(problem, a.room, b.room));
}

/**
 * attendeesConflict of two classes given by their days, first slot, end slot (exclusive), weeks and
 * room (-1 for none), for callers that keep placed classes in arrays; `longestTravel` is the
 * problem's longest travel time, if the caller knows it (see longestTravel).
 */
export function attendeesConflictAt(
  problem: TimetableProblem,
  algebra: TimeAlgebra,
  aDays: number,
  aStart: number,
  aEnd: number,
  aWeeks: number,
  aRoom: number,
  bDays: number,
  bStart: number,
  bEnd: number,
  bWeeks: number,
  bRoom: number,
  longestTravel: number = Number.POSITIVE_INFINITY,
): boolean {
  if ((aDays & bDays) === 0 || !algebra.weeksOverlap(aWeeks, bWeeks)) return false;
  // Classes that meet at once clash whatever the travel (never negative) between their rooms;
  // classes at least the problem's longest travel apart never do.
  if (aStart < bEnd && bStart < aEnd) return true;
  if ((aEnd <= bStart ? bStart - aEnd : aStart - bEnd) >= longestTravel) return false;
  return !walkable(aStart, aEnd, bStart, bEnd, travelBetween(problem, aRoom, bRoom));
}

/**
 * Whether a pair constraint holds for two placed classes, `a` listed before `b` (Precedence reads
 * the order). Types that constrain a whole set are not pair constraints (see setPenalty).
 */
export function pairHolds(problem: TimetableProblem, algebra: TimeAlgebra, d: Pick<Distribution, 'type' | 'params'>, a: Placed, b: Placed): boolean {
  const ta = a.time;
  const tb = b.time;
  switch (d.type) {
    case 'SameStart':
      return ta.start === tb.start;
    case 'SameTime':
      return (ta.start <= tb.start && end(tb) <= end(ta)) || (tb.start <= ta.start && end(ta) <= end(tb));
    case 'DifferentTime':
      return end(ta) <= tb.start || end(tb) <= ta.start;
    case 'SameDays': {
      const both = ta.days | tb.days;
      return both === ta.days || both === tb.days;
    }
    case 'DifferentDays':
      return (ta.days & tb.days) === 0;
    case 'SameWeeks':
      return algebra.weeksWithin(tb.weeks, ta.weeks) || algebra.weeksWithin(ta.weeks, tb.weeks);
    case 'DifferentWeeks':
      return !algebra.weeksOverlap(ta.weeks, tb.weeks);
    case 'Overlap':
      return algebra.overlaps(ta, tb);
    case 'NotOverlap':
      return !algebra.overlaps(ta, tb);
    case 'SameRoom':
      return a.room === b.room;
    case 'DifferentRoom':
      return a.room !== b.room;
    case 'SameAttendees':
      return !attendeesConflict(problem, algebra, a, b);
    case 'Precedence': {
      const fa = algebra.first[ta.weeks] ?? -1;
      const fb = algebra.first[tb.weeks] ?? -1;
      if (fa !== fb) return fa < fb;
      const da = firstDay(ta.days);
      const db = firstDay(tb.days);
      if (da !== db) return da < db;
      return end(ta) <= tb.start;
    }
    case 'WorkDay':
      return !algebra.shareDayAndWeek(ta, tb) || Math.max(end(ta), end(tb)) - Math.min(ta.start, tb.start) <= (d.params[0] ?? 0);
    case 'MinGap': {
      const gap = d.params[0] ?? 0;
      return !algebra.shareDayAndWeek(ta, tb) || end(ta) + gap <= tb.start || end(tb) + gap <= ta.start;
    }
    default:
      return true;
  }
}

/**
 * How far a set constraint (MaxDays, MaxDayLoad, MaxBreaks, MaxBlock) is exceeded by the placed
 * times of its classes: 0 when it holds. MaxDays counts days over the extra ones; the other three
 * sum their excess over every week and day (the penalty divides that sum by the number of weeks).
 * Weeks in which the same of a day's classes meet exceed it alike, so each such set of classes is
 * counted once, times its weeks (a term's weeks mostly hold the same classes).
 */
export function setExcess(problem: TimetableProblem, algebra: TimeAlgebra, d: Pick<Distribution, 'type' | 'params'>, times: readonly TimeOption[]): number {
  let days = 0;
  for (const t of times) days |= t.days;
  if (d.type === 'MaxDays') return Math.max(0, bitCount(days) - (d.params[0] ?? 0));
  let excess = 0;
  for (let day = 0; day < problem.nrDays; day++) {
    if ((days & (1 << day)) === 0) continue;
    const onDay = times.filter((t) => (t.days & (1 << day)) !== 0);
    if (onDay.length > SIGNATURE_BITS) {
      for (let w = 0; w < problem.nrWeeks; w++) excess += dayExcess(d, inWeek(algebra, onDay, w));
      continue;
    }
    const weeksOf = new Map<number, number>();
    for (let w = 0; w < problem.nrWeeks; w++) {
      let meeting = 0;
      for (let i = 0; i < onDay.length; i++) if (algebra.inWeek((onDay[i] as TimeOption).weeks, w)) meeting |= 1 << i;
      if (meeting !== 0) weeksOf.set(meeting, (weeksOf.get(meeting) ?? 0) + 1);
    }
    for (const [meeting, weeks] of weeksOf) excess += weeks * dayExcess(d, among(onDay, meeting));
  }
  return excess;
}

/** The times of `times` that meet in week w. */
const inWeek = (algebra: TimeAlgebra, times: readonly TimeOption[], w: number): TimeOption[] => times.filter((t) => algebra.inWeek(t.weeks, w));

/** The times of `times` whose bit is set in `chosen` (bit i: times[i]). */
const among = (times: readonly TimeOption[], chosen: number): TimeOption[] => times.filter((_, i) => (chosen & (1 << i)) !== 0);

/** The most classes of one day whose sets of weeks are told apart by a bit each (beyond, week by week). */
const SIGNATURE_BITS = 30;

/** How far one day's classes in one week exceed a MaxDayLoad, MaxBreaks or MaxBlock. */
function dayExcess(d: Pick<Distribution, 'type' | 'params'>, meeting: TimeOption[]): number {
  if (meeting.length === 0) return 0;
  const limit = d.params[0] ?? 0;
  if (d.type === 'MaxDayLoad') {
    let load = 0;
    for (const t of meeting) load += t.length;
    return Math.max(0, load - limit);
  }
  if (d.type !== 'MaxBreaks' && meeting.length === 1) return 0;
  // Blocks: classes whose gap is at most S slots (the second parameter) join one block.
  const gap = d.params[1] ?? 0;
  meeting.sort((x, y) => x.start - y.start);
  let blocks = 0;
  let longBlocks = 0;
  let start = 0;
  let last = Number.NEGATIVE_INFINITY;
  let classes = 0;
  const close = (): void => {
    if (classes > 1 && last - start > limit) longBlocks++;
  };
  for (const t of meeting) {
    if (classes > 0 && last + gap >= t.start) {
      last = Math.max(last, end(t));
      classes++;
      continue;
    }
    if (classes > 0) close();
    blocks++;
    start = t.start;
    last = end(t);
    classes = 1;
  }
  close();
  return d.type === 'MaxBreaks' ? Math.max(0, blocks - limit - 1) : longBlocks;
}

/** The penalty of a soft set constraint's excess: MaxDays per day over; the others over all weeks, divided by their number (rounded down). */
export function setPenalty(problem: TimetableProblem, d: Pick<Distribution, 'type' | 'penalty'>, excess: number): number {
  if (excess === 0) return 0;
  return d.type === 'MaxDays' ? d.penalty * excess : Math.floor((d.penalty * excess) / problem.nrWeeks);
}
