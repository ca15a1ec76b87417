import { DAY_LETTERS } from '../domain/days';
import { availabilityConflicts, doctorConflicts, travelConflicts, type Booking } from '../schedule';
import { WHOLE_TERM } from '../domain/parts';
import { sessionsOverlap } from '../domain/meetings';
import type { Assignment, Distribution, TimeOption, TimetableProblem } from '../solver';
import type { Slot } from './grid';
import type { Placement, Problem } from './problem';
import { SOFT_WEIGHTS } from './weights';
import { dayMask, oneCoursePerClass, SCALE } from './model-scale';

/**
 * A term's auto-fill as the solver's model (core/solver): each drafted section a class, its
 * instructor's available standard times (clear of their other meetings, with travel between
 * campuses) its allowed times, the campus's rooms that seat it its allowed rooms (emptier rooms
 * cost more), the term's existing meetings as times those rooms are taken, one instructor's
 * sections never overlapping, the sections of one course apart, the courses one cohort takes
 * together not overlapping and each instructor's teaching days few (soft, weighted as the
 * auto-fill's own goals). Time is in minutes; the
 * term is one week pattern (drafts are whole-term meetings).
 */
export interface DraftModel {
  model: TimetableProblem;
  /** The draft as a timetable of the model. */
  initial: Assignment;
  /** A timetable of the model back as placements. */
  placements: (assignment: Assignment) => Placement[];
}

export function draftModel(problem: Problem, placed: readonly Placement[]): DraftModel {
  const weights = problem.weights ?? SOFT_WEIGHTS;
  const rooms = problem.rooms;
  const roomIndex = new Map(rooms.map((r, i) => [r.key, i]));
  const probe = (slot: Slot, doctorId: number, course: string): Booking => ({
    id: null,
    department: problem.department,
    course_code: course,
    section_name: '\u0000draft',
    doctor_ids: [doctorId],
    day: slot.day,
    start: slot.start,
    duration: slot.duration,
    room: '',
    roomKey: null,
    part: WHOLE_TERM,
    joint_group: null,
    campus: problem.campus,
  });
  const existingOf = (doctorId: number): Booking[] => problem.existing.filter((b) => b.doctor_ids.includes(doctorId));
  // Meetings the term already holds of each cohort, to keep drafted sections clear of them.
  const cohortMeetings = new Map<string, Booking[]>();
  for (const b of problem.existing) {
    if (b.campus !== problem.campus) continue;
    for (const key of problem.cohorts.get(b.course_code) ?? []) cohortMeetings.set(key, [...(cohortMeetings.get(key) ?? []), b]);
  }

  // Each class: the standard times its instructor can take, and the rooms that seat it.
  const slotsOf: Slot[][] = [];
  const classes = placed.map((p, i) => {
    const theirs = existingOf(p.doctor.id);
    const slots = problem.slots.filter((slot) => {
      const booking = probe(slot, p.doctor.id, p.section.course_code);
      return (
        availabilityConflicts(p.doctor, booking).length === 0 &&
        doctorConflicts(p.doctor, booking, theirs).length === 0 &&
        travelConflicts(p.doctor, booking, theirs, problem.rules).length === 0
      );
    });
    // The draft's own slot always stays an option (it passed these checks when drafted).
    if (!slots.some((s) => s.day === p.slot.day && s.start === p.slot.start && s.duration === p.slot.duration)) slots.push(p.slot);
    slotsOf.push(slots);
    const cohorts = problem.cohorts.get(p.section.course_code) ?? [];
    const times: TimeOption[] = slots.map((slot) => {
      const clashes = cohorts.reduce(
        (n, key) => n + (cohortMeetings.get(key) ?? []).filter((b) => b.course_code !== p.section.course_code && sessionsOverlap(b, slot)).length,
        0,
      );
      return { days: dayMask(slot.day), start: slot.start, length: slot.duration, weeks: 0, penalty: Math.round(clashes * weights.curriculumClash * SCALE) };
    });
    const fitting = rooms.map((r, ri) => ({ r, ri })).filter(({ r }) => r.capacity >= p.section.size);
    return {
      id: `${p.section.course_code} ${p.section.section_name}`,
      limit: -1,
      parent: -1,
      subpart: i,
      times,
      rooms: fitting.map(({ r, ri }) => ({ room: ri, penalty: Math.round(((weights.emptySeats * (r.capacity - p.section.size)) / r.capacity) * SCALE) })),
    };
  });

  const distributions: Distribution[] = [];
  const pairwise = (members: number[], type: Distribution['type'], required: boolean, penalty: number): void => {
    if (members.length > 1) distributions.push({ type, params: [], required, penalty, classes: members });
  };
  const byDoctor = new Map<number, number[]>();
  const byCourse = new Map<string, number[]>();
  const byCohort = new Map<string, number[]>();
  placed.forEach((p, i) => {
    byDoctor.set(p.doctor.id, [...(byDoctor.get(p.doctor.id) ?? []), i]);
    byCourse.set(p.section.course_code, [...(byCourse.get(p.section.course_code) ?? []), i]);
    for (const key of problem.cohorts.get(p.section.course_code) ?? []) byCohort.set(key, [...(byCohort.get(key) ?? []), i]);
  });
  for (const members of byDoctor.values()) {
    pairwise(members, 'NotOverlap', true, 0);
    // An instructor's teaching days: MaxDays(0) costs its penalty for every day taught.
    distributions.push({ type: 'MaxDays', params: [0], required: false, penalty: Math.round(weights.teachingDays * SCALE), classes: members });
  }
  for (const members of byCourse.values()) {
    pairwise(members, 'DifferentTime', false, Math.round(weights.sameStart * SCALE));
    pairwise(members, 'DifferentDays', false, Math.round(weights.samePattern * SCALE));
  }
  for (const members of byCohort.values()) {
    // Pairs of sections of different courses: a cohort's students take one section of each.
    for (let x = 0; x < members.length; x++)
      for (let y = x + 1; y < members.length; y++) {
        const a = members[x] as number;
        const b = members[y] as number;
        if (placed[a]?.section.course_code !== placed[b]?.section.course_code)
          pairwise([a, b], 'NotOverlap', false, Math.round(weights.curriculumClash * SCALE));
      }
  }

  const model: TimetableProblem = {
    name: `auto-fill ${problem.campus}`,
    nrDays: DAY_LETTERS.length,
    nrWeeks: 1,
    slotsPerDay: 24 * 60,
    weights: { time: 1, room: 1, distribution: 1, student: 0 },
    rooms: rooms.map((r) => ({
      id: r.name,
      capacity: r.capacity,
      // The term's existing meetings in the room (any part of term: a draft spans the whole term).
      unavailable: problem.existing.filter((b) => b.roomKey === r.key).map((b) => ({ days: dayMask(b.day), start: b.start, length: b.duration, weeks: 0 })),
    })),
    travel: new Int32Array(rooms.length * rooms.length),
    weekPatterns: { text: ['1'], weeks: [[0]] },
    classes,
    ...oneCoursePerClass(classes.length),
    distributions,
    students: [],
  };
  const initial: Assignment = {
    time: Int32Array.from(
      placed.map((p, i) => (slotsOf[i] ?? []).findIndex((s) => s.day === p.slot.day && s.start === p.slot.start && s.duration === p.slot.duration)),
    ),
    room: Int32Array.from(placed.map((p, i) => (classes[i]?.rooms ?? []).findIndex((o) => o.room === roomIndex.get(p.room.key)))),
    students: [],
  };
  return {
    model,
    initial,
    placements: (assignment) =>
      placed.map((p, i) => ({
        ...p,
        slot: slotsOf[i]?.[assignment.time[i] ?? -1] ?? p.slot,
        room: rooms[classes[i]?.rooms[assignment.room[i] ?? -1]?.room ?? -1] ?? p.room,
      })),
  };
}
