import type { Search } from './search';
import type { Neighbourhood } from './neighbourhood';
import { CHAIN } from './chain';
import { CLEAR_WAY, ownPenaltySaving } from './clear-way';
import { EJECTION } from './ejection';
import { EXACT } from './exact';
import { FOCUS } from './focus';
import { GROUP } from './group';
import { KEMPE } from './kempe';
import { MEND_GROUP } from './mend-group';
import { REPAIR } from './repair';
import { SWAP } from './swap';

export type { Neighbourhood } from './neighbourhood';
export { CHAIN } from './chain';
export { CLEAR_WAY } from './clear-way';
export { EJECTION } from './ejection';
export { EXACT } from './exact';
export { FOCUS } from './focus';
export { GROUP } from './group';
export { KEMPE } from './kempe';
export { MEND_GROUP } from './mend-group';
export { REPAIR } from './repair';
export { SWAP } from './swap';

/** One class to another time, room or both (free of clashes). */
export const ONE_CLASS: Neighbourhood = { name: 'one class', tryMove: (search, temperature) => search.tryMove(temperature) };

/** Attempts after which a neighbourhood's counts are halved, so that its share follows recent success. */
const DECAY_EVERY = 20_000;
/** The least share of the work any neighbourhood keeps, so that one that stopped paying can come back. */
const LEAST_SHARE = 0.02;

/**
 * Chooses the next neighbourhood by recent success: each one's share of the work follows its improving
 * moves per value looked at (counts halved now and then), never below LEAST_SHARE. Drawn with the search's seeded
 * random, so the same seed and move budget choose the same moves.
 */
export class NeighbourhoodSelector {
  private readonly attempts: number[];
  /** Values looked at by each neighbourhood's moves (Search.probes): what its attempts cost. */
  private readonly work: number[];
  private readonly improving: number[];
  private sinceDecay = 0;

  /**
   * `fixed`: the shares of the moves (each neighbourhood's, in order) as a rule of the timetable the
   * search holds, whatever the moves' success; without it the shares follow success as described above.
   */
  constructor(
    readonly neighbourhoods: readonly Neighbourhood[],
    private readonly fixed: ((search: Search) => number[]) | null = null,
  ) {
    this.attempts = neighbourhoods.map(() => 0);
    this.work = neighbourhoods.map(() => 0);
    this.improving = neighbourhoods.map(() => 0);
  }

  /**
   * Each neighbourhood's share of the next moves, for the timetable the search holds (by the fixed
   * rule when there is one): its share of the work (values looked at) follows its improving moves per
   * value looked at, never below LEAST_SHARE, and a neighbourhood whose moves look at many values
   * makes that many fewer moves.
   */
  shares(search: Search): number[] {
    if (this.fixed) return this.fixed(search);
    const rates = this.neighbourhoods.map((_, i) => ((this.improving[i] ?? 0) + 0.25) / ((this.work[i] ?? 0) + 100));
    const total = rates.reduce((sum, rate) => sum + rate, 0);
    const floor = LEAST_SHARE * this.neighbourhoods.length;
    const perMove = this.neighbourhoods.map((_, i) => ((this.work[i] ?? 0) + 10) / ((this.attempts[i] ?? 0) + 10));
    const weights = rates.map((rate, i) => (LEAST_SHARE + (1 - floor) * (rate / total)) / (perMove[i] ?? 1));
    const sum = weights.reduce((a, b) => a + b, 0);
    return weights.map((w) => w / sum);
  }

  /** One move of a neighbourhood chosen by the shares; answers its change of cost, or null. */
  step(search: Search, temperature: number, shares: readonly number[]): number | null {
    let pick = search.random.next();
    let i = 0;
    while (i < shares.length - 1 && pick >= (shares[i] ?? 0)) pick -= shares[i++] ?? 0;
    const probes = search.probes;
    const delta = (this.neighbourhoods[i] as Neighbourhood).tryMove(search, temperature);
    this.attempts[i] = (this.attempts[i] ?? 0) + 1;
    this.work[i] = (this.work[i] ?? 0) + Math.max(1, search.probes - probes);
    // Success is a move that lowers the cost: taking worse moves is the temperature's doing, not the neighbourhood's.
    if (delta !== null && delta < 0) this.improving[i] = (this.improving[i] ?? 0) + 1;
    if (++this.sinceDecay >= DECAY_EVERY) {
      this.sinceDecay = 0;
      for (let k = 0; k < this.attempts.length; k++) {
        this.attempts[k] = (this.attempts[k] ?? 0) / 2;
        this.work[k] = (this.work[k] ?? 0) / 2;
        this.improving[k] = (this.improving[k] ?? 0) / 2;
      }
    }
    return delta;
  }

  /** Lets each neighbourhood look over the whole timetable (see Neighbourhood.observe). */
  observe(search: Search): void {
    for (const neighbourhood of this.neighbourhoods) neighbourhood.observe?.(search);
  }

  /** Improving moves and attempts per neighbourhood (since the last halving), for the bench's report. */
  report(): { name: string; attempts: number; improving: number }[] {
    return this.neighbourhoods.map((n, i) => ({ name: n.name, attempts: Math.round(this.attempts[i] ?? 0), improving: Math.round(this.improving[i] ?? 0) }));
  }
}

/** Every neighbourhood, for the adaptive choice, in the order the selector reports them. */
export const NEIGHBOURHOODS: readonly Neighbourhood[] = [ONE_CLASS, EJECTION, SWAP, GROUP, KEMPE, EXACT, REPAIR, FOCUS, MEND_GROUP, CLEAR_WAY, CHAIN];

/**
 * The fixed mix's shares of one class, ejection and group moves: mostly one class, an ejection one
 * move in ten, a group one in fifty (a group move re-places a whole group, so it costs many moves' work).
 * Swaps, Kempe chains and exact re-placements are not in it: at equal move budgets, none gained on
 * the competition problems taken together (a Kempe chain in one move in fifty: tg-fal17 7 % lower,
 * muni-fsps-spr17 33 % higher, mary-spr17 and muni-fi-spr16 within their spread; an exact
 * re-placement in one move in a hundred: muni-fsps-spr17 18 % lower, lower with six seeds of eight,
 * but tg-fal17 12 % higher with each of four seeds, mary-spr17 3 % and muni-fi-spr16 1 % higher; a
 * broken group mended together (mend-group.ts) beside the repair moves, at their share: at 60 s, seed 1,
 * tg-fal17 5,263 → 6,414 and muni-fsps-spr17 1,035 → 1,335, its broken distributions hardly fewer).
 */
const FIXED_SHARES = [0.88, 0.1, 0.02] as const;

/**
 * The repair moves' share beside the fixed mix when broken soft distributions make the whole of the
 * cost (tuned on mary-spr17, bet-sum18, pu-cs-fal07 and wbg-fal10, checked on the other five; at
 * 10 %, mary-spr17 was 4 % higher). See fixedShares.
 */
const REPAIR_SHARE = 0.02;

/**
 * The fixed mix with the repair moves beside it, their share following the part of the total that
 * the soft distributions broken at the last look make (REPAIR_SHARE when they are all of it, none
 * when none): a problem whose penalty is mostly distributions gets the moves aimed at them, one with
 * none gets the fixed mix alone. The moves that clear the way for a class paying for its own time
 * or room are beside them in the same way (CLEAR_WAY_SHARE, following what those classes could
 * save), and so are the ejection chains for them (CHAIN_SHARE). Looked at every 20,000 moves
 * (counted, so a seed and a move budget still give one result).
 * The focused moves (focus.ts) are not in it: they lowered tg-fal17 and muni-fsps-spr17 at 1 M
 * moves but not at 10 M (see docs/solver.md).
 */
export function fixedShares(costs: FixedMixCosts): number[] {
  const { total } = costs;
  const repair = total > 0 ? REPAIR_SHARE * Math.min(1, costs.brokenSoftCost / total) : 0;
  const paying = total > 0 ? Math.min(1, costs.ownPenaltySaving / total) : 0;
  const clear = CLEAR_WAY_SHARE * paying;
  const chain = CHAIN_SHARE * paying;
  return [...FIXED_SHARES.map((share) => share * (1 - repair - clear - chain)), repair, clear, chain];
}

/**
 * What the fixed mix's shares follow, at the last look: the search's total, what its broken soft
 * distributions cost, and what classes paying for their own time or room could save (clear-way.ts).
 */
export interface FixedMixCosts {
  total: number;
  brokenSoftCost: number;
  ownPenaltySaving: number;
}

const fixedMixCosts = (search: Search): FixedMixCosts => ({
  total: search.total,
  brokenSoftCost: search.brokenSoftCost,
  ownPenaltySaving: ownPenaltySaving(search),
});

/**
 * The share of the moves that clear the way for a class paying for its own time or room
 * (clear-way.ts) when what such classes could save is the whole of the total; less as it is less.
 */
const CLEAR_WAY_SHARE = 0.02;

/**
 * The share of the ejection chains (chain.ts) for classes paying for their own time or room, following
 * what they could save as CLEAR_WAY_SHARE does.
 */
const CHAIN_SHARE = 0.02;

/**
 * How the annealing chooses its moves: `fixed`, by fixedShares (the mix measured best on the
 * competition problems); `adaptive`, every one of NEIGHBOURHOODS by recent success.
 */
export type MoveChoice = 'fixed' | 'adaptive';

export function selectorFor(choice: MoveChoice): NeighbourhoodSelector {
  return choice === 'adaptive'
    ? new NeighbourhoodSelector(NEIGHBOURHOODS)
    : new NeighbourhoodSelector([ONE_CLASS, EJECTION, GROUP, REPAIR, CLEAR_WAY, CHAIN], (search) => fixedShares(fixedMixCosts(search)));
}
