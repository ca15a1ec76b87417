import type { Core } from '../../core/index';
import { withTempCore } from './temp-core';
import { autofillRun } from '../../core/autofill/service';
import { placementProblem, solveWithHighs } from './milp';
import { SeededRandom } from '../../core/util/random';
import { saveRun } from '../helpers/runs';
import { record } from './report';
import { SOFT_WEIGHTS } from '../../core/domain/autofill';
import { currentTerm } from '../../core/timetable/terms';

async function report(label: string, core: Core, runId: number, target?: number): Promise<void> {
  if (process.argv.includes('milp')) {
    const milp = await solveWithHighs(await placementProblem(core.context, runId, 4));
    record({
      name: `${label}: HiGHS MILP sections placed (most possible)`,
      value: milp.placed,
      unit: '',
      note: `${milp.status}, ${milp.variables} variables, ${milp.seconds.toFixed(2)} s`,
    });
  }
  const result = await core.run('schedule-autofill', { run_id: runId, dry_run: true });
  if (result.source !== 'run') throw new Error('auto-fill from a run answers a run draft');
  const total = result.placed.length + result.unplaced.length;
  record({
    name: `${label}: sections placed`,
    value: total ? (100 * result.placed.length) / total : 100,
    unit: '%',
    note: `${result.placed.length} of ${total}`,
  });
  record({ name: `${label}: hard violations`, value: result.score.hard_violations, unit: '', target: 0 });
  record({
    name: `${label}: soft score (lower is better)`,
    value: result.score.soft.total,
    unit: '',
    note: `curriculum clash pairs ${result.score.soft.curriculum_clashes}, same-start pairs ${result.score.soft.same_start}`,
  });
  record({ name: `${label}: time`, value: result.duration_ms / 1000, unit: 's', target });
  const reasons = new Map<string, number>();
  for (const u of result.unplaced) {
    const kind = u.reason
      .replace(/[A-Z]{3}\d+\w*/g, 'X')
      .replace(/Dr\. [^,]+(, [^,]+)*( and Dr\. [^,]+)?/g, 'Dr. …')
      .replace(/\d+/g, 'N');
    reasons.set(kind, (reasons.get(kind) ?? 0) + 1);
  }
  for (const [kind, n] of reasons) console.log(`      unplaced ×${n}: ${kind}`);
}

/** Issue 6: auto-fill on the sample data's runs and on a synthetic 300-section case. */
export async function benchAutofill(): Promise<void> {
  console.log('Timetable auto-fill');
  await withTempCore('autofill', async (core) => {
    await core.run('sample-load', {});
    for (const campus of ['Beirut', 'Byblos'] as const) {
      const run = await core.run('predict-bulk', { run_name: `bench ${campus}`, target_year: 2025, target_semester: 'Spring', target_campus: campus });
      await report(`sample data, ${campus} Spring 2025 run`, core, run.id);
    }
  });

  // Issue 12: curriculum conflicts of the auto-filled sample term, without the goal (its weight at 0) and with it.
  for (const [label, weights] of [
    ['without the curriculum goal', { ...SOFT_WEIGHTS, curriculumClash: 0 }],
    ['with the curriculum goal', SOFT_WEIGHTS],
  ] as const) {
    await withTempCore('autofill-curriculum', async (core) => {
      await core.run('sample-load', {});
      const term = await currentTerm(core.context);
      const placed: number[] = [];
      let overlaps = 0;
      for (const campus of ['Beirut', 'Byblos'] as const) {
        const run = await core.run('predict-bulk', {
          run_name: `bench ${campus}`,
          target_year: term.year,
          target_semester: term.semester === 'Summer' ? 'Fall' : term.semester,
          target_campus: campus,
        });
        const result = await autofillRun(core.context, { run_id: run.id, ...term, dry_run: false, time_budget_ms: 5000, max_sections_per_doctor: 4, weights });
        placed.push(result.placed.length);
        overlaps += result.score.soft.curriculum_clashes;
      }
      const metrics = await core.run('dashboard-metrics', {});
      record({
        name: `sample term ${term.semester} ${term.year} auto-filled at both campuses ${label}: curriculum conflicts`,
        value: metrics.curriculum_conflicts,
        unit: '',
        target: label.startsWith('with ') ? 0 : undefined,
        note: `${placed.join(' + ')} sections placed; ${overlaps} overlapping meeting pairs of one cohort (a conflict only when no choice of sections avoids them)`,
      });
    });
  }

  await withTempCore('autofill-300', async (synth) => {
    const rng = new SeededRandom(99);
    const courses = Array.from({ length: 100 }, (_, i) => `SYN${100 + i}`);
    const availability = [
      ['MWF', '08:00-17:00'],
      ['TR', '08:00-18:30'],
      [null, null],
      ['MTWRF', '09:00-17:00'],
    ] as const;
    for (let i = 0; i < 90; i++) {
      const allowed = new Set<string>();
      while (allowed.size < 10) allowed.add(rng.pick(courses));
      const [days, time] = rng.pick(availability);
      await synth.run('doctors-create', { name: `Dr. Synthetic ${i}`, allowed_courses: [...allowed], available_days: days, available_time: time });
    }
    for (let i = 0; i < 24; i++) await synth.run('rooms-create', { name: `Hall ${i}`, capacity: rng.pick([30, 40, 40, 50, 60, 80]), campus: 'Beirut' });
    const runId = await saveRun(
      synth.context.db,
      'Beirut',
      courses.map((code) => ({ code, types: [rng.chance(0.5) ? 'core' : 'elective'], enrollment: rng.int(60, 120), sections: 3 })),
    );
    await report('synthetic 300 sections (90 instructors, 24 rooms)', synth, runId, 1);
  });
}
