/**
 * What a write can change; the runner announces each successful write with the areas it touched.
 * `campus` is never declared by a write: it is how another department's change to the timetable or
 * the rooms reaches those who may not read that department (see core/events.ts eventFor).
 */
export const CHANGE_AREAS = ['catalog', 'offerings', 'doctors', 'rooms', 'timetable', 'runs', 'models', 'settings', 'departments', 'people', 'campus'] as const;
export type ChangeArea = (typeof CHANGE_AREAS)[number];

/** Everything (a restore or the sample data replace or add to every table). */
export const ALL_AREAS: readonly ChangeArea[] = CHANGE_AREAS;

export interface ChangedEvent {
  type: 'changed';
  areas: ChangeArea[];
  /** Written through another server process on the same database (it has announced it there already). */
  remote?: boolean;
  /** The department whose data changed (a change to the campus's own: rooms, people, departments, names none). */
  department?: number;
}

/** A changed event as it arrives from elsewhere (another server process): checked before it is passed on. */
export function isChangedEvent(value: unknown): value is ChangedEvent {
  if (typeof value !== 'object' || value === null) return false;
  const event = value as { type?: unknown; areas?: unknown; department?: unknown };
  const department = event.department === undefined || (typeof event.department === 'number' && Number.isSafeInteger(event.department) && event.department > 0);
  return (
    event.type === 'changed' && department && Array.isArray(event.areas) && event.areas.every((area) => (CHANGE_AREAS as readonly unknown[]).includes(area))
  );
}
