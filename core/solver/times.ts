import type { TimeOption, WeekPatterns } from './model';

/**
 * The relations the rules ask of times: whether two week patterns share a week, whether one holds
 * the other, a pattern's first week, whether two times overlap. Week patterns are few per problem,
 * so their relations are worked out once into tables.
 */
export class TimeAlgebra {
  private readonly count: number;
  private readonly overlap: Uint8Array;
  private readonly subset: Uint8Array;
  readonly first: Int32Array;
  /** Pattern p holds week w at [p · weeks + w]. */
  private readonly member: Uint8Array;
  private readonly weekCount: number;

  constructor(readonly patterns: WeekPatterns) {
    const n = patterns.weeks.length;
    this.count = n;
    this.overlap = new Uint8Array(n * n);
    this.subset = new Uint8Array(n * n);
    this.first = new Int32Array(n);
    const sets = patterns.weeks.map((w) => new Set(w));
    this.weekCount = Math.max(0, ...patterns.weeks.map((w) => (w.length > 0 ? Math.max(...w) + 1 : 0)));
    this.member = new Uint8Array(n * this.weekCount);
    patterns.weeks.forEach((weeks, p) => {
      for (const w of weeks) this.member[p * this.weekCount + w] = 1;
    });
    for (let a = 0; a < n; a++) {
      this.first[a] = patterns.weeks[a]?.[0] ?? -1;
      for (let b = 0; b < n; b++) {
        const wa = patterns.weeks[a] ?? [];
        const sb = sets[b] as Set<number>;
        this.overlap[a * n + b] = wa.some((w) => sb.has(w)) ? 1 : 0;
        this.subset[a * n + b] = wa.every((w) => sb.has(w)) ? 1 : 0;
      }
    }
  }

  /** Whether pattern p holds week w. */
  inWeek(p: number, w: number): boolean {
    return w < this.weekCount && this.member[p * this.weekCount + w] === 1;
  }

  /** Both patterns hold some week. */
  weeksOverlap(a: number, b: number): boolean {
    return this.overlap[a * this.count + b] === 1;
  }

  /** Every week of `a` is a week of `b`. */
  weeksWithin(a: number, b: number): boolean {
    return this.subset[a * this.count + b] === 1;
  }

  /** The competition's overlap: a shared day, a shared week, and intersecting slots. */
  overlaps(a: Omit<TimeOption, 'penalty'>, b: Omit<TimeOption, 'penalty'>): boolean {
    return this.overlapsAt(a.days, a.start, a.start + a.length, a.weeks, b.days, b.start, b.start + b.length, b.weeks);
  }

  /** overlaps() of two times given by their days, first slot, end slot (exclusive) and weeks, for callers that keep times in arrays. */
  overlapsAt(aDays: number, aStart: number, aEnd: number, aWeeks: number, bDays: number, bStart: number, bEnd: number, bWeeks: number): boolean {
    return (aDays & bDays) !== 0 && aStart < bEnd && bStart < aEnd && this.weeksOverlap(aWeeks, bWeeks);
  }

  /** A shared day and a shared week (whatever the slots). */
  shareDayAndWeek(a: Omit<TimeOption, 'penalty'>, b: Omit<TimeOption, 'penalty'>): boolean {
    return (a.days & b.days) !== 0 && this.weeksOverlap(a.weeks, b.weeks);
  }
}
