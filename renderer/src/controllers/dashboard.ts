import { useMemo, useState } from 'react';
import { call } from '../api/client';
import { useLive } from '../api/live';
import type { Metrics } from '../api/wire';
import { notifyDone, notifyError } from '../lib/notify';
import { useCampusList } from './catalog';
import { shortTermLabel } from '../../../core/domain/terms';

/** One point of a chart over terms: the term's short label and a value per series. */
export type TermPoint = { term: string } & Record<string, number | string>;

export interface DashboardPageState {
  metrics: Metrics | null;
  error: string | null;
  campuses: string[];
  /** Nothing imported yet: the screen offers the sample data instead of charts. */
  empty: boolean;
  /** Total enrollment per Fall/Spring term, one series per campus. */
  enrollment: TermPoint[];
  /** Fail ratio per Fall/Spring term. */
  failRatio: TermPoint[];
  byPrefix: { prefix: string; count: number }[];
  byType: { type: string; count: number }[];
  loadingSample: boolean;
  loadSample: () => Promise<void>;
}

/** The Dashboard's state and actions: the metrics (live) and the series its charts draw. */
export function useDashboardPage(): DashboardPageState {
  const { data: metrics, error } = useLive('dashboard-metrics', {});
  const campuses = useCampusList();
  const [loadingSample, setLoadingSample] = useState(false);

  // Each series is rebuilt only when its own part of the metrics changed (a reload keeps unchanged parts
  // as they were), so a write elsewhere does not redraw the charts from scratch.
  const byTermRows = metrics?.enrollment_by_term;
  const failRows = metrics?.fail_ratio_by_term;
  const enrollment = useMemo(() => {
    const byTerm = new Map<string, TermPoint>();
    for (const row of byTermRows ?? []) {
      if (row.semester === 'Summer') continue;
      const key = shortTermLabel(row);
      const item: TermPoint = byTerm.get(key) ?? { term: key };
      item[row.campus] = row.total_enrolled;
      byTerm.set(key, item);
    }
    return [...byTerm.values()];
  }, [byTermRows]);
  const failRatio = useMemo(
    () => (failRows ?? []).filter((t) => t.semester !== 'Summer').map((t) => ({ term: shortTermLabel(t), fail: t.fail_ratio })),
    [failRows],
  );

  const prefixCounts = metrics?.recommended_by_prefix;
  const typeCounts = metrics?.recommended_by_type;
  const byPrefix = useMemo(() => Object.entries(prefixCounts ?? {}).map(([prefix, count]) => ({ prefix, count })), [prefixCounts]);
  const byType = useMemo(() => Object.entries(typeCounts ?? {}).map(([type, count]) => ({ type, count })), [typeCounts]);

  const loadSample = async (): Promise<void> => {
    setLoadingSample(true);
    try {
      const loaded = await call('sample-load', {});
      // The counts the import reports, not what the sample is believed to hold.
      notifyDone(
        `${loaded.courses.processed} courses, ${loaded.offerings.processed.toLocaleString()} offering records, ${loaded.doctors.processed} doctors and ${loaded.rooms.processed} rooms were imported.`,
        'Sample data loaded',
      );
    } catch (e) {
      notifyError(e, 'Could not load the sample data');
    } finally {
      setLoadingSample(false);
    }
  };

  return {
    metrics: metrics ?? null,
    error,
    campuses,
    empty: metrics !== undefined && metrics.total_courses === 0 && metrics.total_offerings === 0,
    enrollment,
    failRatio,
    byPrefix,
    byType,
    loadingSample,
    loadSample,
  };
}
