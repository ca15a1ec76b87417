import { describe, expect, it } from 'vitest';
import { compareRuns } from '../../core/domain/run-comparison';

const row = (course_code: string, offer: boolean, predicted_enrollment: number, staff_decision: 'offer' | 'skip' | null = null) => ({
  course_code,
  course_name: `${course_code} name`,
  offer,
  projected_sections: offer ? 1 : 0,
  staff_decision,
  staff_sections: null,
  predicted_enrollment,
});

describe('comparing two runs', () => {
  it('lists the courses added to and dropped from the offer list, and the demand that moved enough to matter', () => {
    const before = [row('CSC201', true, 80), row('CSC202', true, 30), row('CSC300', false, 12), row('CSC310', true, 50), row('CSC320', true, 100)];
    const after = [
      row('CSC201', true, 120),
      row('CSC202', false, 28),
      row('CSC300', true, 25),
      row('CSC310', true, 53),
      row('CSC320', true, 90),
      row('CSC999', true, 40),
    ];
    const { added, dropped, demand_moved } = compareRuns(before, after);
    expect(added.map((e) => e.course_code)).toEqual(['CSC300', 'CSC999']);
    expect(dropped.map((e) => e.course_code)).toEqual(['CSC202']);
    // 80 → 120 and 12 → 25 moved; 50 → 53 (3 students) and 100 → 90 (10 %) are noise; CSC999 was not in the earlier run.
    expect(demand_moved).toEqual([
      { course_code: 'CSC201', course_name: 'CSC201 name', from: 80, to: 120 },
      { course_code: 'CSC300', course_name: 'CSC300 name', from: 12, to: 25 },
    ]);
  });

  it("compares the plans: staff's decision where given, else the model's", () => {
    // The model keeps CSC201 and drops CSC202 in both runs; staff overrule it in the later one.
    const before = [row('CSC201', true, 80), row('CSC202', false, 30), row('CSC203', true, 30, 'skip')];
    const after = [row('CSC201', true, 80, 'skip'), row('CSC202', false, 30, 'offer'), row('CSC203', true, 30)];
    const { added, dropped } = compareRuns(before, after);
    expect(added.map((e) => e.course_code)).toEqual(['CSC202', 'CSC203']);
    expect(dropped.map((e) => e.course_code)).toEqual(['CSC201']);
    // Each listed entry carries the model's decision beside staff's.
    expect(dropped[0]).toMatchObject({ offer: true, staff_decision: 'skip' });
  });

  it('finds nothing between a run and itself', () => {
    const run = [row('CSC201', true, 80), row('CSC202', false, 3)];
    expect(compareRuns(run, run)).toEqual({ added: [], dropped: [], demand_moved: [] });
  });
});
