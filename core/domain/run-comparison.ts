import { plannedOffer, type Decidable } from './decisions';

/**
 * What changed between two runs of the recommender, pure: the courses a newer run's plan adds to or
 * drops from the offer list, and the courses whose expected enrollment moved enough to change a plan.
 * The plan is staff's decision where they gave one, else the model's; each listed entry carries both.
 */
/** What a comparison reads of a run's entry: the model's and staff's decisions among them. */
interface Compared extends Decidable {
  course_code: string;
  course_name: string;
  predicted_enrollment: number;
}

function offered(entry: Compared | undefined): boolean {
  return entry !== undefined && plannedOffer(entry);
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
  /** Offered in `before`, not in `after`: the entry of `after` where it is listed (with the decision that dropped it), else of `before`. */
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
  const added = after.filter((e) => offered(e) && !offered(earlier.get(e.course_code)));
  const dropped = before.filter((e) => offered(e) && !offered(later.get(e.course_code))).map((e) => later.get(e.course_code) ?? e);
  const demand_moved: DemandMove[] = [];
  for (const e of after) {
    const was = earlier.get(e.course_code);
    if (!was || !(offered(e) || offered(was))) continue;
    const move = Math.abs(e.predicted_enrollment - was.predicted_enrollment);
    if (move >= DEMAND_MOVE_STUDENTS && move >= DEMAND_MOVE_SHARE * Math.max(e.predicted_enrollment, was.predicted_enrollment)) {
      demand_moved.push({ course_code: e.course_code, course_name: e.course_name, from: was.predicted_enrollment, to: e.predicted_enrollment });
    }
  }
  demand_moved.sort((a, b) => Math.abs(b.to - b.from) - Math.abs(a.to - a.from) || a.course_code.localeCompare(b.course_code));
  return { added, dropped, demand_moved };
}
