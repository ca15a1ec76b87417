/**
 * What changed between two runs of the recommender, pure: the courses a newer run adds to or drops
 * from the offer list, and the courses whose expected enrollment moved enough to change a plan.
 */
/** What a comparison reads of a run's entry. */
interface Compared {
  course_code: string;
  course_name: string;
  offer: boolean;
  predicted_enrollment: number;
}

export interface DemandMove {
  course_code: string;
  course_name: string;
  from: number;
  to: number;
}

export interface RunComparison {
  /** Offered in `after`, not in `before` (or not listed there). */
  added: Compared[];
  /** Offered in `before`, not in `after`. */
  dropped: Compared[];
  /** Listed in both and offered in either, largest move first. */
  demand_moved: DemandMove[];
}

/** A move counts when it is at least this many students and this share of the larger figure: noise below. */
export const DEMAND_MOVE_STUDENTS = 5;
export const DEMAND_MOVE_SHARE = 0.2;

export function compareRuns(before: readonly Compared[], after: readonly Compared[]): RunComparison {
  const earlier = new Map(before.map((e) => [e.course_code, e]));
  const later = new Map(after.map((e) => [e.course_code, e]));
  const added = after.filter((e) => e.offer && !earlier.get(e.course_code)?.offer);
  const dropped = before.filter((e) => e.offer && !later.get(e.course_code)?.offer);
  const demand_moved: DemandMove[] = [];
  for (const e of after) {
    const was = earlier.get(e.course_code);
    if (!was || !(e.offer || was.offer)) continue;
    const move = Math.abs(e.predicted_enrollment - was.predicted_enrollment);
    if (move >= DEMAND_MOVE_STUDENTS && move >= DEMAND_MOVE_SHARE * Math.max(e.predicted_enrollment, was.predicted_enrollment)) {
      demand_moved.push({ course_code: e.course_code, course_name: e.course_name, from: was.predicted_enrollment, to: e.predicted_enrollment });
    }
  }
  demand_moved.sort((a, b) => Math.abs(b.to - b.from) - Math.abs(a.to - a.from) || a.course_code.localeCompare(b.course_code));
  return { added, dropped, demand_moved };
}
