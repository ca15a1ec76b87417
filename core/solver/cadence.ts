/**
 * How often every student is re-sectioned during the annealing, counted in checks (a check is every
 * 200 moves), from what the last full re-sectioning found: after one that lowered the student
 * conflicts the next comes twice as soon, after one that found nothing half as often, within
 * bounds; each annealing round, hot again, starts from the first interval. A full re-sectioning pays
 * early in a round, when the timetable moves most, and rarely later: on muni-fsps-spr17 (1 M moves)
 * 13 of 50 found anything, each costing about 28 ms. Counted in moves, so a seed still gives one result.
 */
export class SectioningCadence {
  private interval: number;
  private since = 0;

  constructor(private readonly bounds: { first: number; least: number; most: number } = FULL_SECTIONING) {
    this.interval = bounds.first;
  }

  /** One check passed: whether every student is re-sectioned now. */
  due(): boolean {
    if (++this.since < this.interval) return false;
    this.since = 0;
    return true;
  }

  /** What the full re-sectioning just done changed in student conflicts (negative: fewer). */
  found(change: number): void {
    this.interval = change < 0 ? Math.max(this.bounds.least, Math.floor(this.interval / 2)) : Math.min(this.bounds.most, this.interval * 2);
  }

  /** A new round, hot again: the first interval. */
  restart(): void {
    this.interval = this.bounds.first;
    this.since = 0;
  }
}

/** In checks: the first interval (20,000 moves), the shortest (5,000) and the longest (160,000). */
const FULL_SECTIONING = { first: 100, least: 25, most: 800 } as const;
