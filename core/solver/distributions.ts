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

/** Travel time between two placed classes' rooms (0 when either has none). */
export function travelBetween(problem: TimetableProblem, a: Placed, b: Placed): number {
  return a.room < 0 || b.room < 0 ? 0 : travelTime(problem, a.room, b.room);
}

/** Whether two placed classes conflict for a student attending both: they overlap, or leave too little time to walk between rooms. */
export function attendeesConflict(problem: TimetableProblem, algebra: TimeAlgebra, a: Placed, b: Placed): boolean {
  if (!algebra.shareDayAndWeek(a.time, b.time)) return false;
  const travel = travelBetween(problem, a, b);
  return !(end(a.time) + travel <= b.time.start || end(b.time) + travel <= a.time.start);
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

/** The blocks of a day's classes: classes whose gap is at most `gap` slots join one block. */
function blocks(times: readonly TimeOption[], gap: number): { start: number; end: number; classes: number }[] {
  const sorted = [...times].sort((x, y) => x.start - y.start);
  const found: { start: number; end: number; classes: number }[] = [];
  for (const t of sorted) {
    const last = found[found.length - 1];
    if (last && last.end + gap >= t.start) {
      last.end = Math.max(last.end, end(t));
      last.classes++;
    } else found.push({ start: t.start, end: end(t), classes: 1 });
  }
  return found;
}

/**
 * How far a set constraint (MaxDays, MaxDayLoad, MaxBreaks, MaxBlock) is exceeded by the placed
 * times of its classes: 0 when it holds. MaxDays counts days over the extra ones; the other three
 * sum their excess over every week and day (the penalty divides that sum by the number of weeks).
 */
export function setExcess(problem: TimetableProblem, algebra: TimeAlgebra, d: Pick<Distribution, 'type' | 'params'>, times: readonly TimeOption[]): number {
  if (d.type === 'MaxDays') {
    let days = 0;
    for (const t of times) days |= t.days;
    return Math.max(0, bitCount(days) - (d.params[0] ?? 0));
  }
  let days = 0;
  for (const t of times) days |= t.days;
  let excess = 0;
  const meeting: TimeOption[] = [];
  for (let w = 0; w < problem.nrWeeks; w++) {
    for (let day = 0; day < problem.nrDays; day++) {
      if ((days & (1 << day)) === 0) continue;
      meeting.length = 0;
      for (const t of times) if ((t.days & (1 << day)) !== 0 && algebra.inWeek(t.weeks, w)) meeting.push(t);
      if (meeting.length === 0) continue;
      if (d.type === 'MaxDayLoad') {
        let load = 0;
        for (const t of meeting) load += t.length;
        excess += Math.max(0, load - (d.params[0] ?? 0));
      } else if (meeting.length > 1 || d.type === 'MaxBreaks') {
        const found = blocks(meeting, d.params[1] ?? 0);
        if (d.type === 'MaxBreaks') excess += Math.max(0, found.length - (d.params[0] ?? 0) - 1);
        else excess += found.filter((b) => b.classes > 1 && b.end - b.start > (d.params[0] ?? 0)).length;
      }
    }
  }
  return excess;
}

/** The penalty of a soft set constraint's excess: MaxDays per day over; the others over all weeks, divided by their number (rounded down). */
export function setPenalty(problem: TimetableProblem, d: Pick<Distribution, 'type' | 'penalty'>, excess: number): number {
  if (excess === 0) return 0;
  return d.type === 'MaxDays' ? d.penalty * excess : Math.floor((d.penalty * excess) / problem.nrWeeks);
}
