import type { ChangeArea } from './changes';

/**
 * What each read answers from: the change areas whose writes can change its answer. The screens'
 * live queries (renderer/src/api/live.ts) derive from this table when to load a read again: a
 * `changed` event naming one of its areas, from this page, another window or a script. A test
 * (test/http/declared-changes.test.ts) runs every write and fails when a read's answer changed
 * while the write named none of the read's areas.
 */
export const READ_AREAS = {
  'campuses-list': ['departments'],
  'departments-list': ['departments'],
  me: ['people', 'departments'],
  'people-list': ['people'],
  'tokens-list': ['people'],
  'people-tokens-list': ['people'],
  'settings-info': ['settings'],
  'courses-list': ['catalog'],
  'offerings-list': ['offerings'],
  'offerings-incomplete-terms': ['offerings'],
  'doctors-list': ['doctors'],
  'rooms-list': ['rooms', 'timetable'],
  'predict-next-term': ['offerings'],
  'predict-quota-categories': ['catalog', 'offerings', 'settings'],
  'profile-get': ['settings'],
  'predict-term-notes': ['runs', 'doctors'],
  'predict-runs': ['runs'],
  'predict-run': ['runs'],
  'predict-run-compare': ['runs'],
  'dashboard-metrics': ['catalog', 'offerings', 'doctors', 'timetable', 'runs', 'models', 'settings'],
  'schedule-settings': ['settings', 'offerings', 'timetable'],
  'schedule-terms': ['timetable', 'settings', 'offerings'],
  'schedule-parts': ['timetable'],
  'schedule-history': ['timetable', 'people'],
  'schedule-revision': ['timetable'],
  'schedule-changes-since': ['timetable', 'doctors', 'people'],
  'schedule-sync-status': ['timetable'],
  'schedule-unscheduled': ['timetable', 'doctors'],
  'schedule-cohorts': ['catalog', 'timetable'],
  'schedule-autofill-campus-drafts': ['timetable'],
  'campus-week': ['rooms', 'timetable', 'departments', 'settings', 'campus'],
  'schedule-list': ['timetable', 'doctors', 'catalog', 'rooms', 'runs', 'settings', 'offerings'],
} as const satisfies Record<string, readonly ChangeArea[]>;

/** A read the screens follow. */
export type LiveRead = keyof typeof READ_AREAS;

/** Whether a change to these areas can change the read's answer. */
export function readDependsOn(operation: LiveRead, changed: readonly ChangeArea[]): boolean {
  const areas: readonly ChangeArea[] = READ_AREAS[operation];
  return changed.some((area) => areas.includes(area));
}
