import { create } from 'zustand';
import { call, type Args, type Result } from '../api/client';
import { messageOf } from '../api/errors';

export type Run = Result<'predict-bulk'>;
export type RunEntry = Run['entries'][number];
export type TrainResult = Result<'predict-train'>;
export type RunRequest = Args<'predict-bulk'>;
export type DecisionChange = Omit<Args<'predict-run-decide'>, 'run_id' | 'course_code'>;
import type { Campus } from './campuses';

interface PredictState {
  runs: Run[];
  current: Run | null;
  training: boolean;
  running: boolean;
  trainResult: TrainResult | null;
  error: string | null;
  /** The campus whose runs are shown. */
  campus: Campus | null;
  loadRuns: (campus: Campus) => Promise<void>;
  /** Reloads the shown campus's runs (a run added or decided elsewhere), keeping the run shown. */
  refresh: () => Promise<void>;
  train: () => Promise<void>;
  run: (request: RunRequest) => Promise<void>;
  select: (run: Run) => void;
  /** Records staff's decision on one course of a run and shows it at once; throws the refusal. */
  decide: (run: Run, courseCode: string, change: DecisionChange) => Promise<void>;
}

export const usePredict = create<PredictState>((set, get) => ({
  runs: [],
  current: null,
  training: false,
  running: false,
  trainResult: null,
  error: null,
  campus: null,
  async loadRuns(campus) {
    set({ campus });
    try {
      const runs = await call('predict-runs', { campus });
      if (get().campus !== campus) return;
      // Coming back to the screen (or switching campus) shows that campus's latest run: runs are saved.
      const current = get().current;
      const shown = current?.target_campus === campus ? (runs.find((r) => r.id === current.id) ?? runs[0]) : runs[0];
      set({ runs, current: shown ?? null });
    } catch (error) {
      set({ error: messageOf(error) });
    }
  },
  async refresh() {
    const campus = get().campus;
    if (campus !== null) await get().loadRuns(campus);
  },
  async train() {
    set({ training: true, error: null });
    try {
      set({ trainResult: await call('predict-train', {}), training: false });
    } catch (error) {
      set({ training: false, error: messageOf(error) });
    }
  },
  async run(request) {
    set({ running: true, error: null });
    try {
      const run = await call('predict-bulk', request);
      set({ current: run, running: false, runs: [run, ...get().runs.filter((r) => r.target_campus === run.target_campus)] });
    } catch (error) {
      set({ running: false, error: messageOf(error) });
    }
  },
  select(run) {
    set({ current: run });
  },
  async decide(run, courseCode, change) {
    const entry = await call('predict-run-decide', { run_id: run.id, course_code: courseCode, ...change });
    const withEntry = (r: Run): Run => (r.id === run.id ? { ...r, entries: r.entries.map((e) => (e.course_code === entry.course_code ? entry : e)) } : r);
    const { current, runs } = get();
    set({ runs: runs.map(withEntry), current: current ? withEntry(current) : current });
  },
}));
