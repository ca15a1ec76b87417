import type { ClassSpec, Distribution, InstructorSpec, RoomOption, TimeOption, TimetableProblem } from '../../core/solver/model';

/**
 * A small timetabling problem written by hand for a test: one week, days of 288 five-minute slots,
 * each class its own course, rooms of 50 seats, weights of 1 and no students.
 */
export function handMadeProblem(
  classes: readonly { times: TimeOption[]; rooms?: RoomOption[] }[],
  options: { name: string; rooms?: number; distributions?: Distribution[]; instructors?: InstructorSpec[] },
): TimetableProblem {
  const rooms = options.rooms ?? 0;
  const specs: ClassSpec[] = classes.map((c, i) => ({ id: `c${i}`, limit: -1, parent: -1, subpart: i, times: c.times, rooms: c.rooms ?? [] }));
  return {
    name: options.name,
    nrDays: 7,
    nrWeeks: 1,
    slotsPerDay: 288,
    weights: { time: 1, room: 1, distribution: 1, student: 0 },
    rooms: Array.from({ length: rooms }, (_, i) => ({ id: `r${i}`, capacity: 50, unavailable: [] })),
    travel: new Int32Array(rooms * rooms),
    weekPatterns: { text: ['1'], weeks: [[0]] },
    classes: specs,
    subparts: specs.map((_, i) => ({ id: String(i), config: i, classes: [i] })),
    configs: specs.map((_, i) => ({ id: String(i), course: i, subparts: [i] })),
    courses: specs.map((_, i) => ({ id: String(i), configs: [i] })),
    distributions: options.distributions ?? [],
    students: [],
    ...(options.instructors ? { instructors: options.instructors } : {}),
  };
}
