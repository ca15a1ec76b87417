import { create } from 'zustand';
import type { ProgressEvent } from '../../../core/events';
import { transport } from '../api/client';

/** The latest progress of each long task (and campus), fed by core events over IPC or SSE. */
interface ProgressState {
  byKey: Record<string, ProgressEvent>;
  start: () => () => void;
  clear: (task: string) => void;
}

export const useProgress = create<ProgressState>((set) => ({
  byKey: {},
  start() {
    return transport.subscribe((event) => {
      if (event.type === 'progress') set((state) => ({ byKey: { ...state.byKey, [`${event.task}:${event.campus ?? ''}`]: event } }));
    });
  },
  clear(task) {
    set((state) => ({ byKey: Object.fromEntries(Object.entries(state.byKey).filter(([key]) => !key.startsWith(`${task}:`))) }));
  },
}));
