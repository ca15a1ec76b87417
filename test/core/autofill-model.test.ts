import { describe, expect, it } from 'vitest';
import { draftModel } from '../../core/autofill/timetable-model';
import { solve } from '../../core/autofill/solver';
import type { Instructor, Problem } from '../../core/autofill/problem';
import { scoreAssignment } from '../../core/solver/score';
import { simpleBooking } from '../../core/schedule/conflicts';
import { STANDARD_SLOTS } from '../../core/autofill/grid';

/**
 * The auto-fill's term as the timetabling solver's model: each drafted section a class whose
 * times are its instructor's available standard times, whose rooms seat it, one instructor's
 * sections never together, a cohort's courses apart — and the draft itself a valid timetable of it.
 */
const doctor = (id: number, name: string, days: string | null, time: string | null): Instructor => ({ id, name, available_days: days, available_time: time, load: 0 });

function problem(): Problem {
  const instructors = new Map([
    [1, doctor(1, 'Dr. A', 'MWF', '08:00-12:00')],
    [2, doctor(2, 'Dr. B', null, null)],
  ]);
  return {
    department: 1,
    sections: [
      { course_code: 'CSC201', section_name: '1', size: 30, allowedDoctors: [1] },
      { course_code: 'CSC201', section_name: '2', size: 30, allowedDoctors: [1] },
      { course_code: 'CSC202', section_name: '1', size: 50, allowedDoctors: [2] },
      { course_code: 'CSC203', section_name: '1', size: 20, allowedDoctors: [2] },
    ],
    instructors,
    rooms: [
      { name: 'Small', key: 'small', capacity: 30 },
      { name: 'Large', key: 'large', capacity: 60 },
    ],
    slots: STANDARD_SLOTS,
    // Large is taken on MWF 09:00 by a meeting already in the term.
    existing: [simpleBooking({ course_code: 'PHY101', section_name: '1', doctor_ids: [], day: 'MWF', start: 9 * 60, duration: 60, room: 'Large', roomKey: 'large' })].map((b) => ({ ...b, campus: 'Beirut' })),
    maxSectionsPerDoctor: 4,
    campus: 'Beirut',
    timeBudgetMs: 5_000,
    rules: { travelMinutes: 60 },
    cohorts: new Map([
      ['CSC202', ['year 2']],
      ['CSC203', ['year 2']],
    ]),
  };
}

describe("the auto-fill's term as the solver's model", () => {
  it('gives each section its instructor’s available times and the rooms that seat it, and the draft as a valid timetable', () => {
    const p = problem();
    const draft = solve(p);
    expect(draft.unplaced).toEqual([]);
    const { model, initial, placements } = draftModel(p, draft.placed);
    expect(model.classes).toHaveLength(4);
    const dr = draft.placed.findIndex((x) => x.doctor.id === 1);
    // Dr. A teaches MWF 08:00–12:00 only: MWF 60-minute times from 08:00 to 11:00.
    expect(model.classes[dr]?.times.map((t) => [t.days, t.start, t.length])).toEqual([8, 9, 10, 11].map((h) => [1 | 4 | 16, h * 60, 60]));
    // A 50-student section only fits Large; Large is taken MWF 09:00.
    const big = draft.placed.findIndex((x) => x.section.course_code === 'CSC202');
    expect(model.classes[big]?.rooms.map((r) => model.rooms[r.room]?.id)).toEqual(['Large']);
    expect(model.rooms[1]?.unavailable).toEqual([{ days: 1 | 4 | 16, start: 9 * 60, length: 60, weeks: 0 }]);
    // One instructor's sections never together (hard); a cohort's courses apart and a course's sections spread (soft).
    expect(model.distributions.filter((d) => d.required).map((d) => [d.type, d.classes.length])).toEqual([
      ['NotOverlap', 2],
      ['NotOverlap', 2],
    ]);
    expect(model.distributions.filter((d) => !d.required).map((d) => d.type)).toEqual(expect.arrayContaining(['DifferentTime', 'DifferentDays', 'NotOverlap']));
    expect(scoreAssignment(model, initial).valid).toBe(true);
    expect(placements(initial)).toEqual(draft.placed);
  });

  it('drafts as before or better by the auto-fill’s own measure, the same every time', () => {
    const first = solve(problem());
    const again = solve(problem());
    expect(again.placed).toEqual(first.placed);
    expect(first.hardViolations).toBe(0);
    expect(first.soft.curriculum_clashes).toBe(0);
  });
});
