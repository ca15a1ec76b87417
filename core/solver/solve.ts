import type { Assignment, TimetableProblem } from './model';
import { scoreAssignment, type Score } from './score';
import { Search, type SearchProgress } from './search';
import { selectorFor, type MoveChoice, type NeighbourhoodSelector } from './neighbourhoods';
import { PartEmphasis, type EmphasisRule } from './emphasis';

/**
 * Solves a timetabling problem within a budget: a valid timetable first (iterative forward search),
 * then a better one (simulated annealing with student re-sectioning). Pure apart from the clock the
 * caller hands in; the answer's score is the scorer's, worked out from scratch.
 */
export interface SolveOptions {
  /** Wall-clock budget. */
  timeBudgetMs: number;
  seed: number;
  /** Called now and then with how far the search is. */
  onProgress?: (progress: SearchProgress) => void;
  /** Asked now and then; true stops the search (the best so far is answered). */
  cancelled?: () => boolean;
  /**
   * A timetable to start from (-1: a class to place); students are sectioned anew. Classes whose
   * place breaks a hard constraint with those before them are placed by the construction.
   */
  initial?: Assignment;
  /**
   * Moves of the annealing at most (the construction before it may take up to ten times as many
   * steps): with this the result depends on the seed alone (a draft answered twice is the same
   * draft); the wall-clock budget still caps it.
   */
  maxIterations?: number;
  /**
   * Classes may stay unplaced: the construction stops once it has placed no more for a while (see
   * STALLED_STEPS), and the annealing improves the classes it placed. For a draft that answers what
   * it could not place; a timetable with an unplaced class is never valid.
   */
  partial?: boolean;
  /** How the annealing chooses its moves (see MoveChoice; default `fixed`). */
  moveChoice?: MoveChoice;
  /** How much the annealing stresses each part of the cost beyond the problem's weights (see EmphasisRule; default `fixed`). */
  emphasis?: EmphasisRule;
  /**
   * At the end of each annealing round: hands this search's best timetable (and its total) to the
   * other threads of a portfolio and answers the best of theirs, or null (see exchange.ts). When it
   * is better, the next round starts from it, its students as they were sectioned.
   */
  exchange?: (round: number, best: Assignment, cost: number) => { assignment: Assignment; cost: number } | null;
  /**
   * Called once the construction has ended with a timetable the annealing goes on from (valid, or
   * a partial one's most placed), before its first move: a portfolio then starts its other threads.
   */
  onConstructed?: () => void;
  now?: () => number;
}

export interface SolveResult {
  assignment: Assignment;
  score: Score;
  /** Milliseconds until every class was placed with no hard constraint broken (null: never). */
  firstValidMs: number | null;
  iterations: number;
  durationMs: number;
  /** The search's own running total of the answered timetable (must equal the scorer's; null before any valid one). */
  runningTotal: number | null;
  /** Per neighbourhood, its improving moves and attempts (recent ones weigh more). */
  neighbourhoods: { name: string; attempts: number; improving: number }[];
  /** A portfolio's threads (solveInWorkers), each with its seed and what it found; the answer is the best. */
  threads?: { seed: number; startedAfterMs: number; valid: boolean; total: number; firstValidMs: number | null }[];
}

/** Construction steps allowed, as a multiple of the move budget (maxIterations), before it gives up. */
const CONSTRUCTION_ALLOWANCE = 10;

/**
 * Construction steps without a new most-placed timetable after which a partial solve stops placing,
 * and a full one starts its construction again (see construct): per class, and at least.
 */
const STALLED_STEPS = { perClass: 20, least: 2_000 } as const;

/** How often (iterations) the clock, the cancel flag and progress are looked at. */
const CHECK_EVERY = 200;

export function solve(problem: TimetableProblem, options: SolveOptions): SolveResult {
  const now = options.now ?? (() => performance.now());
  const started = now();
  const deadline = started + options.timeBudgetMs;
  const search = new Search(problem, options.seed);
  search.sectioning.initial();
  if (options.initial) search.restoreWhereValid(options.initial);
  // The construction may take more steps than the annealing has moves (a crowded term needs them); counted too.
  const constructionStops = (steps: number): boolean =>
    now() >= deadline || (options.cancelled?.() ?? false) || (options.maxIterations !== undefined && steps >= CONSTRUCTION_ALLOWANCE * options.maxIterations);
  const constructed = construct(problem, search, options, constructionStops);
  const stoppedEarly = constructionStops(constructed.steps) || (options.cancelled?.() ?? false);
  if (!search.complete && (options.partial !== true || stoppedEarly)) {
    const score = scoreAssignment(problem, constructed.best, search.algebra);
    return {
      assignment: constructed.best,
      score,
      firstValidMs: null,
      iterations: constructed.steps,
      durationMs: now() - started,
      runningTotal: null,
      neighbourhoods: [],
    };
  }
  // A partial timetable goes on from the most classes placed.
  if (!search.complete) search.restore(constructed.best);
  const firstValidMs = search.complete ? now() - started : null;
  options.onConstructed?.();
  const annealed = anneal(problem, search, options, { now, deadline, constructionSteps: constructed.steps });
  let { best, bestCost } = annealed;
  // 3. The best timetable's students sectioned once more with its classes fixed.
  if (problem.students.length > 0 && !(options.cancelled?.() ?? false)) ({ best, bestCost } = sectionOnceMore(problem, search, best, bestCost));
  const score = scoreAssignment(problem, best, search.algebra);
  const { iterations, selector } = annealed;
  return { assignment: best, score, firstValidMs, iterations, durationMs: now() - started, runningTotal: bestCost, neighbourhoods: selector.report() };
}

/** The annealing's best so far: the timetable, its running total, and whether it places every class. */
interface BestSoFar {
  best: Assignment;
  bestCost: number;
  whole: boolean;
}

/**
 * 2. Optimisation: annealing rounds, students re-sectioned between them; the best complete timetable
 * kept. Each round cools from its starting temperature to a thousandth of it, then starts again from
 * the best timetable, a little cooler; students are re-sectioned now and then.
 */
function anneal(
  problem: TimetableProblem,
  search: Search,
  options: SolveOptions,
  clock: { now: () => number; deadline: number; constructionSteps: number },
): BestSoFar & { iterations: number; selector: NeighbourhoodSelector } {
  const { now, deadline, constructionSteps } = clock;
  let iterations = constructionSteps;
  // The move budget counts the annealing's moves, after the construction.
  const stop = (): boolean =>
    now() >= deadline || (options.cancelled?.() ?? false) || (options.maxIterations !== undefined && iterations - constructionSteps >= options.maxIterations);
  const whole = search.complete;
  search.addStudentConflicts(search.sectioning.improveAll());
  search.recount();
  const selector = selectorFor(options.moveChoice ?? 'fixed');
  selector.observe(search);
  const kept: BestSoFar = { best: search.snapshot(), bestCost: search.total, whole };
  const hot = initialTemperature(search);
  let roundStart = now();
  let round = 0;
  const roundMs = Math.max(5_000, (deadline - roundStart) / 6);
  const roundMoves = Math.max(CHECK_EVERY, Math.floor((options.maxIterations ?? 0) / 3));
  let roundStartMove = iterations;
  let temperature = hot;
  let sinceSectioning = 0;
  const emphasis = new PartEmphasis(options.emphasis ?? 'fixed');
  /** A re-sectioning's change of student conflicts into the running total (and the best, when it is). */
  const takeSectioning = (change: number): void => {
    if (change >= 0) return;
    search.addStudentConflicts(change);
    keepIfBetter(search, kept);
  };
  while (!stop()) {
    const shares = selector.shares(search);
    for (let k = 0; k < CHECK_EVERY; k++) {
      selector.step(search, temperature, shares);
      iterations++;
      keepIfBetter(search, kept);
    }
    // The students a moved class now clashes for, re-sectioned at once (all students now and then).
    takeSectioning(search.sectioning.improveStudents(search.sectioning.clashingIn(search.takeMoved())));
    // Rounds by moves when the moves are counted (same seed, same result), else by the clock.
    const progress =
      options.maxIterations !== undefined ? Math.min(1, (iterations - roundStartMove) / roundMoves) : Math.min(1, (now() - roundStart) / roundMs);
    temperature = (hot / (1 + round)) * Math.pow(1e-3, progress);
    if (++sinceSectioning >= 100) {
      sinceSectioning = 0;
      takeSectioning(search.sectioning.improveAll());
      const stress = emphasis.next(search.weightedParts());
      if (stress !== null) search.emphasize(stress);
      selector.observe(search);
      options.onProgress?.({ phase: 'optimization', placed: problem.classes.length, classes: problem.classes.length, bestTotal: Math.round(kept.bestCost) });
    }
    if (progress >= 1) {
      startAgainFromBest(search, selector, options, round, kept);
      round++;
      roundStart = now();
      roundStartMove = iterations;
    }
  }
  return { ...kept, iterations, selector };
}

/** Keeps the search's timetable as the best when its running total is lower. */
function keepIfBetter(search: Search, kept: BestSoFar): void {
  if (search.total < kept.bestCost - 1e-9) {
    kept.bestCost = search.total;
    kept.best = search.snapshot();
  }
}

/**
 * The end of a round: the best timetable is offered to the other threads (a partial one at no
 * total: any whole one is better) and the better of theirs and it taken up again.
 */
function startAgainFromBest(search: Search, selector: NeighbourhoodSelector, options: SolveOptions, round: number, kept: BestSoFar): void {
  const mine = kept.whole ? kept.bestCost : Number.POSITIVE_INFINITY;
  const theirs = options.exchange?.(round, kept.best, mine) ?? null;
  if (theirs !== null && theirs.cost < mine - 1e-9) {
    kept.best = theirs.assignment;
    kept.bestCost = theirs.cost;
    kept.whole = true;
    search.restore(kept.best);
    search.sectioning.adopt(kept.best.students);
  } else search.restore(kept.best);
  search.recount();
  selector.observe(search);
}

/**
 * 1. Construction: a step at a time until every class is placed (or `stops` says the budget is
 * spent, or a partial solve stalls); the steps taken, and the timetable with the most classes placed.
 * A full solve whose construction has placed no more than before for a while starts it again (from
 * the start it was given where that holds, or from nothing), keeping the conflict weights it has
 * learned, and waits twice as long before each next restart. A construction's time to a valid
 * timetable has a long tail over seeds: a few classes can displace each other round and round
 * while a run from another start places them all at once (see docs/solver.md).
 */
function construct(problem: TimetableProblem, search: Search, options: SolveOptions, stops: (steps: number) => boolean): { steps: number; best: Assignment } {
  let steps = 0;
  let best: Assignment = search.snapshot();
  let bestPlaced = -1;
  // The most placed since the construction last started (a partial solve never starts again), and when.
  let mostSinceStart = -1;
  let gainedAt = 0;
  let restarts = 0;
  const stalled = Math.max(STALLED_STEPS.least, STALLED_STEPS.perClass * problem.classes.length);
  while (!search.complete) {
    search.constructionStep();
    steps++;
    if (search.placedCount > bestPlaced) {
      bestPlaced = search.placedCount;
      best = search.snapshot();
    }
    if (search.placedCount > mostSinceStart) {
      mostSinceStart = search.placedCount;
      gainedAt = steps;
    } else if (steps - gainedAt >= stalled * 2 ** restarts) {
      if (options.partial === true) break;
      restarts++;
      if (options.initial) search.restoreWhereValid(options.initial);
      else search.unassignAll();
      mostSinceStart = search.placedCount;
      gainedAt = steps;
    }
    if (steps % CHECK_EVERY === 0) {
      options.onProgress?.({ phase: 'construction', placed: search.placedCount, classes: problem.classes.length, bestTotal: null });
      if (stops(steps)) break;
    }
  }
  return { steps, best };
}

/** 3. The best timetable's students sectioned once more with its classes fixed: the timetable and total, better or as they were. */
function sectionOnceMore(problem: TimetableProblem, search: Search, best: Assignment, bestCost: number): { best: Assignment; bestCost: number } {
  search.restore(best);
  search.sectioning.adopt(best.students);
  const change = search.sectioning.improveAll();
  return change < 0 ? { best: search.snapshot(), bestCost: bestCost + problem.weights.student * change } : { best, bestCost };
}

/** A starting temperature at which a typical worsening move is taken about half the time. */
function initialTemperature(search: Search): number {
  const worse: number[] = [];
  for (let k = 0; k < 2_000 && worse.length < 100; k++) {
    const delta = search.tryMove(Number.POSITIVE_INFINITY);
    if (delta !== null && delta > 0) worse.push(delta);
  }
  search.recount();
  if (worse.length === 0) return 1;
  worse.sort((a, b) => a - b);
  return Math.max(1, (worse[Math.floor(worse.length / 2)] ?? 1) / Math.LN2);
}
