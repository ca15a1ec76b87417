import type { CampusHistory, CourseInfo, TermStat } from './history';

/**
 * What the model knows about a course before a term t: computed only from terms strictly
 * before t, so training rows never see their own outcome.
 */
export interface CourseFacts {
  /** Offered in the same semester 1, 2, 3 and 4 years before. */
  sameSemester: [boolean, boolean, boolean, boolean];
  offeredLastTerm: boolean;
  /** Terms since the course was last offered (capped), or null when never offered before t. */
  termsSinceOffered: number | null;
  lastOfferedIndex: number | null;
  shareOffered: number;
  termsObserved: number;
  /** Enrollment of the last (up to) four offerings, oldest first. */
  recentEnrollment: number[];
  meanRecentEnrollment: number;
  enrollmentTrend: number;
  sameSemesterLastYearEnrollment: number;
  failRatio3y: number;
  lastTermFailed: number;
  /** Students who passed its prerequisites at this campus in the last two terms. */
  latentDemand: number;
  /** +1 the study plan places it in this semester, -1 in the other only, 0 otherwise. */
  planAlignment: number;
}

export const FEATURE_NAMES = [
  'same_semester_1y',
  'same_semester_2y',
  'same_semester_3y',
  'same_semester_4y',
  'offered_last_term',
  'terms_since_offered',
  'share_offered',
  'mean_recent_enrollment',
  'enrollment_trend',
  'same_semester_last_year_enrollment',
  'fail_ratio_3y',
  'last_term_failed',
  'course_level',
  'is_core',
  'is_elective',
  'is_masters',
  'is_minor',
  'is_cross_listed',
  'bottleneck',
  'latent_demand',
  'plan_alignment',
  'semester_is_fall',
] as const;

export const FEATURE_COUNT = FEATURE_NAMES.length;
const NEVER = 20;

function statAt(series: readonly (TermStat | undefined)[] | undefined, index: number): TermStat | undefined {
  return index >= 0 ? series?.[index] : undefined;
}

export function courseFacts(course: CourseInfo, campus: CampusHistory, t: number): CourseFacts {
  const series = campus.stats.get(course.code);
  const offered = (i: number): boolean => statAt(series, i)?.offered === true;
  let lastOfferedIndex: number | null = null;
  let offeredCount = 0;
  let observed = 0;
  const recent: number[] = [];
  const failRatios: number[] = [];
  for (let i = t - 1; i >= 0; i--) {
    if (campus.hasData[i]) observed++;
    const stat = statAt(series, i);
    if (!stat?.offered) continue;
    offeredCount++;
    lastOfferedIndex ??= i;
    if (recent.length < 4) recent.unshift(stat.enrolled);
    if (i >= t - 6 && stat.enrolled > 0) failRatios.push(stat.failed / stat.enrolled);
  }
  let latentDemand = 0;
  for (const prerequisite of course.prerequisites) {
    const prereqSeries = campus.stats.get(prerequisite);
    latentDemand += (statAt(prereqSeries, t - 1)?.passed ?? 0) + (statAt(prereqSeries, t - 2)?.passed ?? 0);
  }
  const mean = recent.length > 0 ? recent.reduce((a, b) => a + b, 0) / recent.length : 0;
  return {
    sameSemester: [offered(t - 2), offered(t - 4), offered(t - 6), offered(t - 8)],
    offeredLastTerm: offered(t - 1),
    termsSinceOffered: lastOfferedIndex === null ? null : Math.min(NEVER, t - lastOfferedIndex),
    lastOfferedIndex,
    shareOffered: observed > 0 ? offeredCount / observed : 0,
    termsObserved: observed,
    recentEnrollment: recent,
    meanRecentEnrollment: mean,
    enrollmentTrend: slope(recent),
    sameSemesterLastYearEnrollment: statAt(series, t - 2)?.offered ? (statAt(series, t - 2)?.enrolled ?? 0) : 0,
    failRatio3y: failRatios.length > 0 ? failRatios.reduce((a, b) => a + b, 0) / failRatios.length : 0,
    lastTermFailed: statAt(series, t - 1)?.failed ?? 0,
    latentDemand,
    planAlignment: planAlignment(course.studyPlan, t % 2 === 1 ? 'Fall' : 'Spring'),
  };
}

function slope(values: readonly number[]): number {
  const n = values.length;
  if (n < 2) return 0;
  const meanX = (n - 1) / 2;
  const meanY = values.reduce((a, b) => a + b, 0) / n;
  let num = 0;
  let den = 0;
  values.forEach((y, x) => {
    num += (x - meanX) * (y - meanY);
    den += (x - meanX) ** 2;
  });
  return num / den;
}

export function planAlignment(studyPlan: string | null, semester: 'Fall' | 'Spring'): number {
  if (!studyPlan) return 0;
  const fall = /\bfall\b/i.test(studyPlan);
  const spring = /\bspring\b/i.test(studyPlan);
  if (fall === spring) return 0;
  return (semester === 'Fall' ? fall : spring) ? 1 : -1;
}

/** Writes one feature row, in FEATURE_NAMES order, into `out` at `offset`. */
export function writeFeatures(out: Float32Array, offset: number, course: CourseInfo, facts: CourseFacts, t: number): void {
  const values = [
    ...facts.sameSemester.map(Number),
    Number(facts.offeredLastTerm),
    facts.termsSinceOffered ?? NEVER,
    facts.shareOffered,
    facts.meanRecentEnrollment,
    facts.enrollmentTrend,
    facts.sameSemesterLastYearEnrollment,
    facts.failRatio3y,
    facts.lastTermFailed,
    course.level,
    Number(course.types.includes('core')),
    Number(course.types.includes('elective')),
    Number(course.types.includes('masters')),
    Number(course.types.includes('minor')),
    Number(course.prefixes.length > 1 || course.types.length > 1),
    course.dependents,
    facts.latentDemand,
    facts.planAlignment,
    t % 2,
  ];
  out.set(values, offset);
}
