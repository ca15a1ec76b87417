import { create } from 'zustand';
import { call } from '../api/client';
import { messageOf } from '../api/errors';
import { patchLive } from '../api/live';
import type { DecisionChange, Run, RunEntry, RunRequest, TrainResult } from '../api/wire';

/** A run with one entry replaced, wherever that run is shown. */
const withEntry =
  (runId: number, entry: RunEntry) =>
  (run: Run): Run =>
    run.id === runId ? { ...run, entries: run.entries.map((e) => (e.course_code === entry.course_code ? entry : e)) } : run;

/** Records staff's decision on one course of a run and shows it at once in every list of runs; throws the refusal. */
export async function decideOnRun(run: Run, courseCode: string, change: DecisionChange): Promise<RunEntry> {
  const entry = await call('predict-run-decide', { run_id: run.id, course_code: courseCode, ...change });
  patchLive('predict-runs', (runs) => runs.map(withEntry(run.id, entry)));
  patchLive('predict-run', withEntry(run.id, entry));
  return entry;
}

/**
 * What the Predictions screen keeps between visits: the run shown at each campus (kept by id, so a
 * run saved elsewhere does not replace the one being read) and the training or run under way, with
 * its result or refusal (they go on while staff look at another screen).
 */
interface PredictView {
  shown: Record<string, number>;
  show: (campus: string, runId: number) => void;
  training: boolean;
  trainResult: TrainResult | null;
  running: boolean;
  error: string | null;
  train: () => Promise<void>;
  /** Scores every course for the target term, saves the run and shows it first in its campus's list. */
  run: (request: RunRequest) => Promise<void>;
}

export const usePredictView = create<PredictView>((set, get) => ({
  shown: {},
  show: (campus, runId) => set({ shown: { ...get().shown, [campus]: runId } }),
  training: false,
  trainResult: null,
  running: false,
  error: null,
  train: async () => {
    set({ training: true, error: null });
    try {
      set({ trainResult: await call('predict-train', {}) });
    } catch (error) {
      set({ error: messageOf(error) });
    } finally {
      set({ training: false });
    }
  },
  run: async (request) => {
    set({ running: true, error: null });
    try {
      const saved = await call('predict-bulk', request);
      patchLive('predict-runs', (runs) => [saved, ...runs.filter((r) => r.id !== saved.id)], { campus: saved.target_campus });
      get().show(saved.target_campus, saved.id);
    } catch (error) {
      set({ error: messageOf(error) });
    } finally {
      set({ running: false });
    }
  },
}));
