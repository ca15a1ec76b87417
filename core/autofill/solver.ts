import { SeededRandom } from '../util/random';
import { availabilityConflicts, bookingConflicts, doctorConflicts, roomConflicts, travelConflicts, type Booking } from '../schedule';
import { WHOLE_TERM } from '../domain/parts';
import { sessionsOverlap, type Session } from '../domain/meetings';
import type { Slot } from './grid';
import type { Instructor, Placement, Problem, RoomChoice, SectionDemand, SoftScore, Solution } from './problem';
import { SOFT_WEIGHTS, type SoftWeights } from './weights';
import { draftModel } from './timetable-model';
import { solve as searchTimetable } from '../solver';

/**
 * The auto-fill solver, pure: sections to place, who may teach them, rooms and standard times.
 * It builds a draft in order of difficulty (fewest options first), always taking the cheapest
 * feasible (time, instructor, room), then improves it by moving one section at a time. Hard
 * rules are checked with the timetable's own conflict code; soft goals weigh as in weights.ts.
 */

/** A meeting a cohort's students attend: a drafted section's or one already in the timetable. */
interface CohortMeeting {
  course_code: string;
  session: Session;
}

/** A drafted section as the timetable's rules see it: one meeting for the whole term at the run's campus. */
const bookingOf = (p: { section: SectionDemand; slot: Slot; doctor: Instructor; room: RoomChoice }, campus: string, department: number): Booking => ({
  id: null,
  department,
  course_code: p.section.course_code,
  section_name: p.section.section_name,
  doctor_ids: [p.doctor.id],
  day: p.slot.day,
  start: p.slot.start,
  duration: p.slot.duration,
  room: p.room.name,
  roomKey: p.room.key,
  part: WHOLE_TERM,
  joint_group: null,
  campus,
});

/** Stands in for the instructor when only the room is being checked. */
const NO_ONE: Instructor = { id: -1, name: '', available_days: null, available_time: null, load: 0 };

export function nameList(names: string[]): string {
  if (names.length <= 1) return names.join('');
  return `${names.slice(0, -1).join(', ')} and ${names[names.length - 1] ?? ''}`;
}

/** The evolving timetable: bookings by instructor and room, loads, and what soft costs depend on. */
class Draft {
  readonly byDoctor = new Map<number, Booking[]>();
  readonly byRoom = new Map<string, Booking[]>();
  readonly load = new Map<number, number>();
  readonly days = new Map<number, Map<string, number>>();
  readonly byCourse = new Map<string, Placement[]>();
  readonly byCohort = new Map<string, CohortMeeting[]>();
  private readonly cohortMeetings = new Map<Placement, CohortMeeting>();
  readonly placements = new Set<Placement>();
  private readonly weights: SoftWeights;

  constructor(private readonly problem: Problem) {
    this.weights = problem.weights ?? SOFT_WEIGHTS;
    for (const b of problem.existing) {
      this.addBooking(b);
      // A cohort studies at one campus: meetings elsewhere are not its students' clashes.
      if (b.campus === problem.campus, problem.department) this.addCohortMeeting({ course_code: b.course_code, session: b });
    }
    for (const [id, instructor] of problem.instructors) this.load.set(id, instructor.load);
  }

  private addBooking(b: Booking): void {
    for (const id of b.doctor_ids) this.byDoctor.set(id, [...(this.byDoctor.get(id) ?? []), b]);
    if (b.roomKey !== null) this.byRoom.set(b.roomKey, [...(this.byRoom.get(b.roomKey) ?? []), b]);
  }

  private removeBooking(b: Booking): void {
    for (const id of b.doctor_ids) this.byDoctor.set(id, (this.byDoctor.get(id) ?? []).filter((x) => x !== b));
    if (b.roomKey !== null) this.byRoom.set(b.roomKey, (this.byRoom.get(b.roomKey) ?? []).filter((x) => x !== b));
  }

  private readonly bookings = new Map<Placement, Booking>();

  add(p: Placement): void {
    const b = bookingOf(p, this.problem.campus, this.problem.department);
    this.bookings.set(p, b);
    this.addBooking(b);
    this.placements.add(p);
    this.load.set(p.doctor.id, (this.load.get(p.doctor.id) ?? 0) + 1);
    const days = this.days.get(p.doctor.id) ?? new Map<string, number>();
    for (const d of p.slot.day) days.set(d, (days.get(d) ?? 0) + 1);
    this.days.set(p.doctor.id, days);
    this.byCourse.set(p.section.course_code, [...(this.byCourse.get(p.section.course_code) ?? []), p]);
    const meeting = { course_code: p.section.course_code, session: p.slot };
    this.cohortMeetings.set(p, meeting);
    this.addCohortMeeting(meeting);
  }

  private cohortsOf(code: string): readonly string[] {
    return this.problem.cohorts.get(code) ?? [];
  }

  private addCohortMeeting(m: CohortMeeting): void {
    for (const key of this.cohortsOf(m.course_code)) {
      const list = this.byCohort.get(key) ?? [];
      list.push(m);
      this.byCohort.set(key, list);
    }
  }

  remove(p: Placement): void {
    const b = this.bookings.get(p);
    if (b) this.removeBooking(b);
    this.bookings.delete(p);
    this.placements.delete(p);
    this.load.set(p.doctor.id, (this.load.get(p.doctor.id) ?? 1) - 1);
    const days = this.days.get(p.doctor.id);
    for (const d of p.slot.day) {
      const n = (days?.get(d) ?? 1) - 1;
      if (n <= 0) days?.delete(d);
      else days?.set(d, n);
    }
    this.byCourse.set(p.section.course_code, (this.byCourse.get(p.section.course_code) ?? []).filter((x) => x !== p));
    const meeting = this.cohortMeetings.get(p);
    this.cohortMeetings.delete(p);
    for (const key of this.cohortsOf(p.section.course_code)) this.byCohort.set(key, (this.byCohort.get(key) ?? []).filter((x) => x !== meeting));
  }

  /** Meetings of other courses of the section's curriculum groups that a slot would overlap. */
  private cohortOverlaps(section: SectionDemand, slot: Slot): number {
    let overlaps = 0;
    for (const key of this.cohortsOf(section.course_code)) for (const q of this.byCohort.get(key) ?? []) if (q.course_code !== section.course_code && sessionsOverlap(q.session, slot)) overlaps++;
    return overlaps;
  }

  /** Hard rules for one candidate, by the timetable's own checks; plus qualification, load and seats. */
  conflicts(section: SectionDemand, slot: Slot, doctor: Instructor, room: RoomChoice): string[] {
    const booking = bookingOf({ section, slot, doctor, room }, this.problem.campus, this.problem.department);
    const others = [...new Set([...(this.byDoctor.get(doctor.id) ?? []), ...(this.byRoom.get(room.key) ?? [])])];
    const problems = bookingConflicts(booking, [doctor], others, this.problem.rules);
    if (!section.allowedDoctors.includes(doctor.id)) problems.push(`${doctor.name} is not allowed to teach ${section.course_code}`);
    if (room.capacity < section.size) problems.push(`${room.name} seats ${room.capacity}, fewer than ${section.size}`);
    if ((this.load.get(doctor.id) ?? 0) >= this.problem.maxSectionsPerDoctor) problems.push(`${doctor.name} already has ${this.problem.maxSectionsPerDoctor} sections`);
    return problems;
  }

  /** What adding this placement would add to the weighted soft cost. */
  cost(section: SectionDemand, slot: Slot, doctor: Instructor, room: RoomChoice): number {
    const w = this.weights;
    const load = this.load.get(doctor.id) ?? 0;
    let cost = w.loadBalance * (2 * load + 1);
    for (const q of this.byCourse.get(section.course_code) ?? []) {
      if (q.slot.day === slot.day) cost += w.samePattern;
      if (q.slot.start === slot.start) cost += w.sameStart;
    }
    cost += w.curriculumClash * this.cohortOverlaps(section, slot);
    const days = this.days.get(doctor.id);
    for (const d of slot.day) if (!days?.has(d)) cost += w.teachingDays;
    cost += (w.emptySeats * (room.capacity - section.size)) / room.capacity;
    return cost;
  }

  /**
   * The cheapest feasible placement for a section, or null. The same three checks as every
   * timetable write, split so that an instructor who cannot take a time is not re-checked for
   * every room; the room is the smallest free one that fits.
   */
  best(section: SectionDemand): { placement: Placement; cost: number } | null {
    let best: { placement: Placement; cost: number } | null = null;
    const doctors = section.allowedDoctors.map((id) => this.problem.instructors.get(id)).filter((d): d is Instructor => d !== undefined && (this.load.get(d.id) ?? 0) < this.problem.maxSectionsPerDoctor);
    const rooms = this.problem.rooms.filter((r) => r.capacity >= section.size);
    for (const slot of this.problem.slots) {
      const room = rooms.find((r) => roomConflicts(bookingOf({ section, slot, doctor: NO_ONE, room: r }, this.problem.campus, this.problem.department), this.byRoom.get(r.key) ?? []).length === 0);
      if (!room) continue;
      for (const doctor of doctors) {
        const booking = bookingOf({ section, slot, doctor, room }, this.problem.campus, this.problem.department);
        const theirs = this.byDoctor.get(doctor.id) ?? [];
        if (availabilityConflicts(doctor, booking).length > 0 || doctorConflicts(doctor, booking, theirs).length > 0 || travelConflicts(doctor, booking, theirs, this.problem.rules).length > 0) continue;
        const cost = this.cost(section, slot, doctor, room);
        if (!best || cost < best.cost - 1e-9) best = { placement: { section, slot, doctor, room }, cost };
      }
    }
    return best;
  }

  /** Why nothing fits, in a scheduler's words. */
  reason(section: SectionDemand): string {
    const { problem } = this;
    if (section.allowedDoctors.length === 0) return `No instructor is allowed to teach ${section.course_code}`;
    const fitting = problem.rooms.filter((r) => r.capacity >= section.size);
    if (problem.rooms.length === 0) return `No rooms are declared for ${problem.campus}`;
    if (fitting.length === 0) return `No room at ${problem.campus} seats ${section.size} students (the largest holds ${Math.max(...problem.rooms.map((r) => r.capacity))})`;
    const doctors = section.allowedDoctors.map((id) => problem.instructors.get(id)).filter((d): d is Instructor => d !== undefined);
    const only = doctors.length === 1 ? 'the only allowed instructor' : 'the only allowed instructors';
    const names = nameList(doctors.map((d) => d.name));
    const verb = doctors.length === 1 ? 'is' : 'are';
    if (doctors.every((d) => (this.load.get(d.id) ?? 0) >= problem.maxSectionsPerDoctor)) return `${names}, ${only}, ${verb} fully booked (at most ${problem.maxSectionsPerDoctor} section${problem.maxSectionsPerDoctor === 1 ? '' : 's'} each)`;
    const probe: RoomChoice = { name: '', key: '\u0000', capacity: Number.MAX_SAFE_INTEGER };
    const availableSomewhere = doctors.filter((d) => problem.slots.some((slot) => bookingConflicts(bookingOf({ section, slot, doctor: d, room: probe }, problem.campus, problem.department), [d], [], problem.rules).length === 0));
    if (availableSomewhere.length === 0) return `${names}, ${only}, ${verb} not available at any standard time`;
    const freeSomewhere = availableSomewhere.filter((d) => problem.slots.some((slot) => bookingConflicts(bookingOf({ section, slot, doctor: d, room: probe }, problem.campus, problem.department), [d], this.byDoctor.get(d.id) ?? [], problem.rules).length === 0));
    if (freeSomewhere.length === 0) return `${names}, ${only}, ${verb} already teaching at every standard time they are available`;
    return `No room that seats ${section.size} is free when ${names} can teach ${section.course_code}`;
  }

  softScore(): SoftScore {
    const w = this.weights;
    const placements = [...this.placements];
    let loadBalance = 0;
    const involved = new Set(placements.map((p) => p.doctor.id));
    for (const id of involved) loadBalance += (this.load.get(id) ?? 0) ** 2;
    let samePattern = 0;
    let sameStart = 0;
    for (const list of this.byCourse.values())
      for (let i = 0; i < list.length; i++)
        for (let j = i + 1; j < list.length; j++) {
          if (list[i]?.slot.day === list[j]?.slot.day) samePattern++;
          if (list[i]?.slot.start === list[j]?.slot.start) sameStart++;
        }
    // Each overlapping pair with at least one drafted meeting, once (a pair of two drafted meetings from the first visited).
    let curriculumClashes = 0;
    const counted = new Set<CohortMeeting>();
    for (const p of placements) {
      const mine = this.cohortMeetings.get(p);
      const peers = new Set(this.cohortsOf(p.section.course_code).flatMap((key) => this.byCohort.get(key) ?? []));
      for (const q of peers) if (q.course_code !== p.section.course_code && !counted.has(q) && sessionsOverlap(q.session, p.slot)) curriculumClashes++;
      if (mine) counted.add(mine);
    }
    let teachingDays = 0;
    for (const id of involved) teachingDays += this.days.get(id)?.size ?? 0;
    const emptySeats = placements.reduce((sum, p) => sum + (p.room.capacity - p.section.size) / p.room.capacity, 0);
    const round = (v: number): number => Math.round(v * 100) / 100;
    return {
      load_balance: loadBalance,
      same_pattern: samePattern,
      same_start: sameStart,
      curriculum_clashes: curriculumClashes,
      core_clashes: curriculumClashes,
      teaching_days: teachingDays,
      empty_seats: round(emptySeats),
      total: round(w.loadBalance * loadBalance + w.samePattern * samePattern + w.sameStart * sameStart + w.curriculumClash * curriculumClashes + w.teachingDays * teachingDays + w.emptySeats * emptySeats),
    };
  }

  /** Re-checks every placement against everything else: must be 0. */
  hardViolations(): number {
    let violations = 0;
    for (const p of [...this.placements]) {
      this.remove(p);
      violations += this.conflicts(p.section, p.slot, p.doctor, p.room).length;
      this.add(p);
    }
    return violations;
  }
}

/** How many improvement passes over the draft; deterministic, the time budget only caps it. */
export const IMPROVEMENT_PASSES = 4;

export function solve(problem: Problem): Solution {
  const started = performance.now();
  const draft = new Draft(problem);
  const optionCount = (s: SectionDemand): number => s.allowedDoctors.length * problem.rooms.filter((r) => r.capacity >= s.size).length;
  const order = [...problem.sections].sort((a, b) => optionCount(a) - optionCount(b) || b.size - a.size || a.course_code.localeCompare(b.course_code) || a.section_name.localeCompare(b.section_name, 'en', { numeric: true }));
  const unplaced: SectionDemand[] = [];
  for (const section of order) {
    const best = draft.best(section);
    if (best) draft.add(best.placement);
    else unplaced.push(section);
  }
  const rng = new SeededRandom(1234);
  let moves = 0;
  for (let pass = 0; pass < IMPROVEMENT_PASSES; pass++) {
    let improved = false;
    const current = [...draft.placements];
    for (let i = current.length - 1; i > 0; i--) {
      const j = Math.floor(rng.next() * (i + 1));
      [current[i], current[j]] = [current[j] as Placement, current[i] as Placement];
    }
    for (const p of current) {
      if (performance.now() - started > problem.timeBudgetMs) break;
      draft.remove(p);
      const stay = draft.cost(p.section, p.slot, p.doctor, p.room);
      const best = draft.best(p.section);
      if (best && best.cost < stay - 1e-9) {
        draft.add(best.placement);
        moves++;
        improved = true;
      } else draft.add(p);
    }
    // A freer draft may now take sections that did not fit.
    for (const section of [...unplaced]) {
      const best = draft.best(section);
      if (best) {
        draft.add(best.placement);
        unplaced.splice(unplaced.indexOf(section), 1);
        improved = true;
      }
    }
    if (!improved || performance.now() - started > problem.timeBudgetMs) break;
  }
  // Then the timetabling solver (core/solver) improves the draft's times and rooms, instructors kept;
  // its draft is taken only when the auto-fill's own measure says it is better.
  // Only when the draft leaves what the solver is for: courses of one cohort overlapping.
  let final = draft;
  const greedy = draft.softScore();
  const refined = greedy.curriculum_clashes > 0 ? refine(problem, [...draft.placements], problem.timeBudgetMs - (performance.now() - started)) : null;
  if (refined) {
    const other = new Draft(problem);
    for (const p of refined) other.add(p);
    // Taken when it spares a cohort overlaps and costs no more in all: moving a term's times for a
    // smaller gain could take the time an instructor needs at another campus, drafted next.
    const theirs = other.softScore();
    if (other.hardViolations() === 0 && theirs.curriculum_clashes < greedy.curriculum_clashes && theirs.total <= greedy.total) final = other;
  }
  const placed = [...final.placements].sort((a, b) => a.section.course_code.localeCompare(b.section.course_code) || a.section.section_name.localeCompare(b.section.section_name, 'en', { numeric: true }));
  return {
    placed,
    unplaced: unplaced.map((section) => ({ section, reason: final.reason(section) })),
    hardViolations: final.hardViolations(),
    soft: final.softScore(),
    moves,
  };
}

/** Moves of the solver's annealing per drafted section: enough to settle a department's term, and the same draft every time. */
export const SOLVER_MOVES_PER_SECTION = 400;

/** The draft's times and rooms improved by the timetabling solver (instructors kept), or null when it found nothing valid. */
function refine(problem: Problem, placed: Placement[], budgetMs: number): Placement[] | null {
  if (placed.length < 2 || budgetMs <= 0) return null;
  const { model, initial, placements } = draftModel(problem, placed);
  const result = searchTimetable(model, { timeBudgetMs: budgetMs, seed: 1, initial, maxIterations: SOLVER_MOVES_PER_SECTION * placed.length });
  return result.score.valid ? placements(result.assignment) : null;
}
