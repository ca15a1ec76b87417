import { reportProgress, serveJobs } from '../workers';
import { solve } from '../solver';
import type { Booking, DoctorAvailability } from '../timetable';
import { termDraftModel, type DraftMove, type DraftUnplaced, type MovableMeeting, type TermRoom } from './term-model';
import { inDepartment } from './campus-keys';

/**
 * The campus auto-fill's thread: the whole campus's model is built here (thousands of meetings take
 * seconds), searched, and read back as moves, so the server's own thread keeps answering meanwhile.
 * A shared flag stops the search (the best timetable so far is read).
 */

export interface CampusSearchJob {
  movable: MovableMeeting[];
  fixed: Booking[];
  doctors: [number, DoctorAvailability][];
  rooms: TermRoom[];
  /** Expected students per section, by department, campus and course (inDepartment keys). */
  sizes: [string, number][];
  /** Each department's courses' cohorts, by department and course. */
  cohorts: [string, string[]][];
  /** Each department's weight (absent: 1 for all). */
  weights: [number, number][] | null;
  rebuild: boolean;
  travelMinutes: number;
  seed: number;
  timeBudgetMs: number;
  /** Moves per class of the model (the same seed and moves give the same draft). */
  movesPerClass: number;
  moves?: number | undefined;
  cancel: SharedArrayBuffer;
}

export interface CampusSearchAnswer {
  moves: DraftMove[];
  unplaced: DraftUnplaced[];
  score: { time: number; room: number; distribution: number; total: number };
  iterations: number;
}

export function searchCampus(job: CampusSearchJob): CampusSearchAnswer {
  const sizes = new Map(job.sizes);
  const cohorts = new Map(job.cohorts);
  const weights = job.weights === null ? null : new Map(job.weights);
  const draft = termDraftModel({
    movable: job.movable,
    fixed: job.fixed,
    doctors: new Map(job.doctors),
    rooms: job.rooms,
    expected: (b) => sizes.get(inDepartment(b.department, b.campus, b.course_code)),
    slots: [],
    rebuild: job.rebuild,
    rules: { travelMinutes: job.travelMinutes },
    cohortsOf: (b) => cohorts.get(inDepartment(b.department, b.course_code)) ?? [],
    ...(weights === null ? {} : { departmentWeight: (department: number) => weights.get(department) ?? 1 }),
  });
  const classes = draft.model.classes.length;
  if (classes === 0) return { moves: [], unplaced: [], score: { time: 0, room: 0, distribution: 0, total: 0 }, iterations: 0 };
  reportProgress({ phase: 'construction', placed: 0, classes, bestTotal: null });
  const cancelFlag = new Int32Array(job.cancel);
  const result = solve(draft.model, {
    timeBudgetMs: job.timeBudgetMs,
    seed: job.seed,
    initial: draft.initial,
    maxIterations: job.moves ?? job.movesPerClass * classes,
    partial: true,
    onProgress: (progress) => reportProgress(progress),
    cancelled: () => Atomics.load(cancelFlag, 0) === 1,
  });
  const { moves, unplaced } = draft.read(result.assignment);
  const { time, room, distribution, total } = result.score;
  return { moves, unplaced, score: { time, room, distribution, total }, iterations: result.iterations };
}

serveJobs((job) => Promise.resolve(searchCampus(job as CampusSearchJob)), null);
