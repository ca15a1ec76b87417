import { describeCode } from '../domain/codes';
import type { CourseInfo } from './planning-view';

/**
 * Expected new students and the courses they land in. Uptake is the share of a cohort that
 * takes each of its gateway courses in the planned term.
 */
export const COHORT_UPTAKE = { freshman: 0.5, sophomores: 0.5, masters: 1 / 3 } as const;

export interface Cohorts {
  new_freshman: number;
  new_sophomores: number;
  new_masters: number;
}

/** Level-1 courses and core courses without prerequisites. */
export function isFreshmanGateway(course: CourseInfo): boolean {
  return course.level === 1 || (course.types.includes('core') && course.prerequisites.length === 0);
}

/** Level-2 core courses whose prerequisites are all level 1. */
export function isSophomoreGateway(course: CourseInfo): boolean {
  return course.level === 2 && course.types.includes('core') && course.prerequisites.every((p) => describeCode(p).level === 1);
}

export function isMastersCourse(course: CourseInfo): boolean {
  return course.types.includes('masters');
}

/** Extra students a course can expect from the incoming cohorts, with the cohorts that bring them. */
export function cohortDemand(course: CourseInfo, cohorts: Cohorts): { students: number; sources: string[] } {
  let students = 0;
  const sources: string[] = [];
  if (cohorts.new_freshman > 0 && isFreshmanGateway(course)) {
    students += Math.round(cohorts.new_freshman * COHORT_UPTAKE.freshman);
    sources.push(`${cohorts.new_freshman} new freshmen`);
  }
  if (cohorts.new_sophomores > 0 && isSophomoreGateway(course)) {
    students += Math.round(cohorts.new_sophomores * COHORT_UPTAKE.sophomores);
    sources.push(`${cohorts.new_sophomores} new sophomores`);
  }
  if (cohorts.new_masters > 0 && isMastersCourse(course)) {
    students += Math.round(cohorts.new_masters * COHORT_UPTAKE.masters);
    sources.push(`${cohorts.new_masters} new masters students`);
  }
  return { students, sources };
}
