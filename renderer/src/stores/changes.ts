import type { ChangeArea } from '../../../core/domain/changes';
import { transport } from '../api/client';
import { useDashboard } from './dashboard';
import { usePredict } from './predict';
import { useData } from './data';
import { useSchedule } from './schedule';

/**
 * Which stores reload when the core announces a change (a `changed` event, from any screen, the
 * desktop menu or a script over REST): no screen refreshes another by hand.
 */
const RELOADS: Record<ChangeArea, readonly (() => Promise<unknown>)[]> = {
  catalog: [() => useData.getState().refresh(), () => useDashboard.getState().refresh()],
  offerings: [() => useData.getState().refresh(), () => useDashboard.getState().refresh()],
  doctors: [() => useData.getState().refreshDoctors(), () => useSchedule.getState().refresh(), () => useDashboard.getState().refresh()],
  rooms: [() => useSchedule.getState().refresh()],
  timetable: [() => useSchedule.getState().refresh(), () => useDashboard.getState().refresh()],
  runs: [() => useDashboard.getState().refresh(), () => usePredict.getState().refresh()],
  models: [() => useDashboard.getState().refresh()],
  settings: [],
};

/** Follows the core's change events; returns the unsubscribe function. */
export function followChanges(): () => void {
  return transport.subscribe((event) => {
    if (event.type !== 'changed') return;
    const reloads = new Set(event.areas.flatMap((area) => RELOADS[area]));
    for (const reload of reloads) void reload();
  });
}
