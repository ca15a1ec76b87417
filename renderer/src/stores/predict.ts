import { create } from 'zustand';
import type { TrainResult } from '../api/wire';

/**
 * What the Predictions screen keeps between visits: the run shown at each campus (kept by id, so a
 * run saved elsewhere does not replace the one being read) and the training or run under way, with
 * its result or refusal (they go on while staff look at another screen). The calls that fill it
 * are the Predictions controller's.
 */
interface PredictView {
  shown: Record<string, number>;
  show: (campus: string, runId: number) => void;
  training: boolean;
  trainResult: TrainResult | null;
  running: boolean;
  error: string | null;
  /** A task started: `training` or `running` set, the last refusal cleared. */
  begin: (task: 'training' | 'running') => void;
  /** A task over, with its refusal in words if it failed. */
  end: (task: 'training' | 'running', error: string | null) => void;
  trained: (result: TrainResult) => void;
}

export const usePredictView = create<PredictView>((set, get) => ({
  shown: {},
  show: (campus, runId) => set({ shown: { ...get().shown, [campus]: runId } }),
  training: false,
  trainResult: null,
  running: false,
  error: null,
  begin: (task) => set({ [task]: true, error: null }),
  end: (task, error) => set(error === null ? { [task]: false } : { [task]: false, error }),
  trained: (trainResult) => set({ trainResult }),
}));
