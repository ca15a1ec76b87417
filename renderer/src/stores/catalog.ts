import { useLive } from '../api/live';
import type { Campus, Course, Doctor } from '../api/wire';

const NONE: never[] = [];

/** The campuses this installation plans for (configured at start-up: they never change while it runs). */
export function useCampusList(): Campus[] {
  return useLive('campuses-list', {}).data ?? NONE;
}

/** The course catalog, live. */
export function useCourses(): Course[] {
  return useLive('courses-list', {}).data ?? NONE;
}

/** The faculty, live. */
export function useDoctors(): Doctor[] {
  return useLive('doctors-list', {}).data ?? NONE;
}
