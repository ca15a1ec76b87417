import { call, type Args, type Result } from '../api/client';
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

/** Adds a doctor; every list of doctors shows them on the change event. Throws the refusal. */
export function addDoctor(doctor: Args<'doctors-create'>): Promise<Result<'doctors-create'>> {
  return call('doctors-create', doctor);
}
