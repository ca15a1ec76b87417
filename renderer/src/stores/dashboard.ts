import { create } from 'zustand';
import { call, type Result } from '../api/client';
import { messageOf } from '../api/errors';

export type Metrics = Result<'dashboard-metrics'>;

interface DashboardState {
  metrics: Metrics | null;
  error: string | null;
  refresh: () => Promise<void>;
}

export const useDashboard = create<DashboardState>((set) => ({
  metrics: null,
  error: null,
  async refresh() {
    try {
      set({ metrics: await call('dashboard-metrics', {}), error: null });
    } catch (error) {
      set({ error: messageOf(error) });
    }
  },
}));
