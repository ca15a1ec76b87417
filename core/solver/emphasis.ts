/**
 * How much the annealing stresses each part of the soft cost (time, room, distribution, student)
 * beyond the problem's own weights. `fixed`: not at all, each part as the problem weighs it (the
 * default). `remaining`: each part by how much of it is left against the first look, 20,000 moves
 * into the annealing (the square root of that share), so that the parts the search cannot lower weigh more and those
 * it has lowered weigh less; looked at every 20,000 moves, counted in moves, not time, so a seed and
 * a move budget still give one result. The best timetable is always judged by the problem's own
 * weights; only the moves are judged under the emphasis. Pure: the caller hands in the parts,
 * weighted as the problem weighs them.
 */
export const EMPHASIS_RULES = ['fixed', 'remaining'] as const;
export type EmphasisRule = (typeof EMPHASIS_RULES)[number];

/** The rule a command line names (undefined when it names none of them). */
export const emphasisRule = (name: string | undefined): EmphasisRule | undefined => EMPHASIS_RULES.find((rule) => rule === name);

/** The most a part is stressed against the least stressed. */
const MOST = 4;
/** The least share of its start a part is counted at (a part all but gone is not stressed to nothing). */
const LEAST_LEFT = 0.05;

export class PartEmphasis {
  private start: readonly number[] | null = null;

  constructor(private readonly rule: EmphasisRule) {}

  /**
   * The emphasis for the next stretch of moves, given the current timetable's parts (weighted as the
   * problem weighs them; the first look is the start); null when it stays as it is.
   */
  next(parts: readonly number[]): number[] | null {
    if (this.rule === 'fixed') return null;
    const start = (this.start ??= [...parts]);
    const emphasis = parts.map((part, p) => {
      const from = start[p] as number;
      return from > 0 ? Math.sqrt(Math.max(LEAST_LEFT, part / from)) : 1;
    });
    return scaled(emphasis, parts);
  }
}

/**
 * The emphasis bounded (at most MOST times the least, among parts with a cost) and scaled so that
 * the timetable's cost under it equals its total: the temperature keeps its meaning.
 */
function scaled(emphasis: readonly number[], parts: readonly number[]): number[] {
  const present = emphasis.filter((_, p) => (parts[p] as number) > 0);
  const least = present.length > 0 ? Math.min(...present) : 1;
  const bounded = emphasis.map((e) => Math.min(e, least * MOST));
  let total = 0;
  let stressed = 0;
  for (let p = 0; p < bounded.length; p++) {
    total += parts[p] as number;
    stressed += (parts[p] as number) * (bounded[p] as number);
  }
  const factor = stressed > 0 ? total / stressed : 1;
  return bounded.map((e) => e * factor);
}
