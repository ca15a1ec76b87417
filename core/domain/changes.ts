/** What a write can change; the runner announces each successful write with the areas it touched. */
export const CHANGE_AREAS = ['catalog', 'offerings', 'doctors', 'rooms', 'timetable', 'runs', 'models', 'settings'] as const;
export type ChangeArea = (typeof CHANGE_AREAS)[number];

/** Everything (a restore or the sample data replace or add to every table). */
export const ALL_AREAS: readonly ChangeArea[] = CHANGE_AREAS;

export interface ChangedEvent {
  type: 'changed';
  areas: ChangeArea[];
}
