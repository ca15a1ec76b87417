import { create } from 'zustand';
import { call, type Args, type Result } from '../api/client';
import { messageOf } from '../api/errors';

export type Run = Result<'predict-bulk'>;
export type RunEntry = Run['entries'][number];
export type TrainResult = Result<'predict-train'>;
export type RunRequest = Args<'predict-bulk'>;
import type { Campus } from './campuses';

interface PredictState {
  runs: Run[];
  current: Run | null;
  training: boolean;
  running: boolean;
  trainResult: TrainResult | null;
  error: string | null;
  loadRuns: (campus: Campus) => Promise<void>;
  train: () => Promise<void>;
  run: (request: RunRequest) => Promise<void>;
  select: (run: Run) => void;
}

export const usePredict = create<PredictState>((set, get) => ({
  runs: [],
  current: null,
  training: false,
  running: false,
  trainResult: null,
  error: null,
  async loadRuns(campus) {
    try {
      const runs = await call('predict-runs', { campus });
      // Coming back to the screen (or switching campus) shows that campus's latest run: runs are saved.
      const current = get().current;
      set({ runs, current: current?.target_campus === campus ? current : (runs[0] ?? null) });
    } catch (error) {
      set({ error: messageOf(error) });
    }
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
}));
