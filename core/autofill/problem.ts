import type { Booking, ConflictRules, DoctorAvailability } from '../schedule';
import type { Slot } from './grid';
import type { SoftWeights } from './weights';

/** What the auto-fill solver is given and what it gives back. */
export interface SectionDemand {
  course_code: string;
  section_name: string;
  size: number;
  allowedDoctors: number[];
}

export interface Instructor extends DoctorAvailability {
  /** Sections already in the timetable. */
  load: number;
}

export interface RoomChoice {
  name: string;
  key: string;
  capacity: number;
}

export interface Problem {
  sections: SectionDemand[];
  instructors: Map<number, Instructor>;
  rooms: RoomChoice[];
  slots: Slot[];
  /** Every meeting of the term: the department's, and other departments' (taken: shared rooms, instructors' one calendar). */
  existing: Booking[];
  /** The department the draft is for. */
  department: number;
  maxSectionsPerDoctor: number;
  campus: string;
  timeBudgetMs: number;
  rules: ConflictRules;
  /**
   * The curriculum groups (cohorts taking the courses together) of every course in the problem,
   * drafted or already in the timetable, by course code: overlaps within a group are the main soft goal.
   */
  cohorts: ReadonlyMap<string, readonly string[]>;
  /** Soft weights other than SOFT_WEIGHTS, for comparisons (benchmarks). */
  weights?: SoftWeights;
}

export interface Placement {
  section: SectionDemand;
  slot: Slot;
  doctor: Instructor;
  room: RoomChoice;
}

export interface SoftScore {
  load_balance: number;
  same_pattern: number;
  same_start: number;
  /** Pairs of meetings of two courses of one curriculum group that overlap. */
  curriculum_clashes: number;
  /** The same count under its earlier name (it was a proxy over core courses of one prefix and level). */
  core_clashes: number;
  teaching_days: number;
  empty_seats: number;
  total: number;
}

export interface Solution {
  placed: Placement[];
  unplaced: { section: SectionDemand; reason: string }[];
  hardViolations: number;
  soft: SoftScore;
  moves: number;
}
