import { call } from '../api/client';
import { patchLive } from '../api/live';
import type { DecisionChange, Run, RunEntry, RunRequest } from '../api/wire';

/** A run with one entry replaced, wherever that run is shown. */
const withEntry = (runId: number, entry: RunEntry) => (run: Run): Run => (run.id === runId ? { ...run, entries: run.entries.map((e) => (e.course_code === entry.course_code ? entry : e)) } : run);

/** Records staff's decision on one course of a run and shows it at once in every list of runs; throws the refusal. */
export async function decideOnRun(run: Run, courseCode: string, change: DecisionChange): Promise<RunEntry> {
  const entry = await call('predict-run-decide', { run_id: run.id, course_code: courseCode, ...change });
  patchLive('predict-runs', (runs) => runs.map(withEntry(run.id, entry)));
  patchLive('predict-run', withEntry(run.id, entry));
  return entry;
}

/** Saves a new run and shows it at once first in its campus's list of runs. */
export async function saveRun(request: RunRequest): Promise<Run> {
  const saved = await call('predict-bulk', request);
  patchLive('predict-runs', (runs) => [saved, ...runs.filter((r) => r.id !== saved.id)], { campus: saved.target_campus });
  return saved;
}
