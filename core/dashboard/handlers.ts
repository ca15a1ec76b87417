import { z } from 'zod';
import { defineHandlers, handler } from '../registry';
import { dashboardMetrics } from './service';

export const dashboardHandlers = defineHandlers({
  'dashboard-metrics': handler(z.object({}), 'KPIs and chart series for the dashboard', (ctx) => dashboardMetrics(ctx)),
});
