import type { Search } from './search';

/**
 * The annealing's moves, each a neighbourhood behind one interface, chosen by their recent success
 * (as cpsolver separates neighbour selection from the search). Every move keeps every hard
 * constraint and is taken or undone as the annealing decides; all of them use the search's own
 * incremental costs, so the running total stays the scorer's.
 *
 * Each neighbourhood is a file of its own (swap.ts, kempe.ts, group.ts, exact.ts, ejection.ts,
 * repair.ts, focus.ts, mend-group.ts, clear-way.ts, chain.ts) that proposes and applies its moves through the search's small move interface:
 * a class's values and time options (values, drawValue, timeOf, timeIndexOf, timeLike), what a value
 * clashes with and costs (hardConflicts, softCost), assign and unassign, and accept or undo (tryValue,
 * verdict, putBack, relocate, moveThrough, placeCheapest). The search keeps the state and the
 * acceptance; a new neighbourhood is a new file, added to the mix in neighbourhoods.ts.
 */
export interface Neighbourhood {
  readonly name: string;
  /** One move at the temperature: the change of cost when taken, or null when none was made. */
  tryMove(search: Search, temperature: number): number | null;
  /** Looks over the whole timetable for what its moves aim at: when the annealing starts, every 20,000 moves and every round. */
  observe?(search: Search): void;
}
