import { similarityKey, type CampusHistory, type CourseInfo, type TermStat } from './planning-view';
import { quantile } from './demand';
import type { PlannedSemester } from '../domain/terms';

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
  /** Offered 1…8 terms before t: 1 or 0, or UNKNOWN when the campus has no records for that term. */
  lags: number[];
  /** Share of the last 4 and the last 8 terms with records in which it was offered. */
  recentShare4: number;
  recentShare8: number;
  /** Terms with records, ending just before t, in which it was offered without a break. */
  streak: number;
  /** Terms since its first offering, or null when never offered before t. */
  age: number | null;
  offeredCount: number;
  /** Mean number of terms between its last (up to) six offerings; null with fewer than two. */
  meanGap: number | null;
  lastEnrollment: number;
  maxEnrollment: number;
  /**
   * What demand is forecast from: its enrollment in the same semester within two years, else the
   * mean of its last two offerings, else (no history) what courses of its prefix, level and type
   * drew in their recent offerings.
   */
  demandBase: number;
  /**
   * Year-over-year growth on the log scale: of its last term's enrollment (t−1 against t−3), of
   * its same-semester enrollment (t−2 against t−4), and of the whole campus's enrollment (t−1
   * against t−3); UNKNOWN where a term is missing.
   */
  growthLastTerm: number;
  growthSameSemester: number;
  campusGrowth: number;
  /**
   * Over all terms with records before t: the share of those in t's semester (Fall or Spring) in
   * which it was offered, and the share of those in the other semester (UNKNOWN without such
   * terms); the mean enrollment of its offerings in t's semester (0 when none).
   */
  sameSemesterShare: number;
  otherSemesterShare: number;
  meanSameSemesterEnrollment: number;
}

/** Feature value for "the campus has no records for that term" (the WebAssembly XGBoost build aborts on NaN). */
export const UNKNOWN = -1;

/** Offered 1…8 terms before (CourseFacts.lags). */
const OFFERED_TERMS_BEFORE = [
  'offered_1_term_before',
  'offered_2_terms_before',
  'offered_3_terms_before',
  'offered_4_terms_before',
  'offered_5_terms_before',
  'offered_6_terms_before',
  'offered_7_terms_before',
  'offered_8_terms_before',
] as const;

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
  ...OFFERED_TERMS_BEFORE,
  'share_offered_last_4_terms',
  'share_offered_last_8_terms',
  'streak',
  'terms_since_first_offered',
  'times_offered',
  'mean_gap_between_offerings',
  'terms_since_offered_over_mean_gap',
  'log_last_enrollment',
  'log_max_enrollment',
  'log_demand_base',
  'growth_last_term_year_over_year',
  'growth_same_semester_year_over_year',
  'campus_growth_year_over_year',
  'share_offered_in_this_semester',
  'share_offered_in_other_semester',
  'log_mean_enrollment_in_this_semester',
  'from_planned_campus',
] as const;

export type FeatureName = (typeof FEATURE_NAMES)[number];

/**
 * Column saying whose history a row is: 1 for the campus being planned (every row scored, and its
 * own training rows), 0 for the rows of other campuses a campus's model also learns from.
 */
export const PLANNED_CAMPUS_COLUMN = FEATURE_NAMES.indexOf('from_planned_campus');

/** Column of the demand baseline, which the demand model's target is relative to. */
export const DEMAND_BASE_COLUMN = FEATURE_NAMES.indexOf('log_demand_base');

export const FEATURE_COUNT = FEATURE_NAMES.length;

/**
 * What decides whether a course runs rather than how many come: the pattern of terms it was offered
 * in, its place in plans and chains. The demand model does not read them; they only add noise to a
 * forecast of size (walk-forward on the real history, on its 20 targets and on the 7 earlier terms).
 */
const OFFER_ONLY_FEATURES: ReadonlySet<FeatureName> = new Set([
  'share_offered',
  'is_minor',
  'is_cross_listed',
  'bottleneck',
  'plan_alignment',
  ...OFFERED_TERMS_BEFORE,
  'share_offered_last_4_terms',
  'share_offered_last_8_terms',
  'mean_gap_between_offerings',
  'terms_since_offered_over_mean_gap',
  'share_offered_in_this_semester',
  'share_offered_in_other_semester',
]);

/** What the demand model reads: every feature but the offer-only ones. */
export const DEMAND_FEATURE_NAMES: readonly FeatureName[] = FEATURE_NAMES.filter((name) => !OFFER_ONLY_FEATURES.has(name));

const DEMAND_COLUMNS = DEMAND_FEATURE_NAMES.map((name) => FEATURE_NAMES.indexOf(name));
export const DEMAND_FEATURE_COUNT = DEMAND_COLUMNS.length;

/** The demand model's columns of feature rows (FEATURE_NAMES order) in DEMAND_FEATURE_NAMES order. */
export function demandFeatures(features: Float32Array, rows: number): Float32Array {
  const out = new Float32Array(rows * DEMAND_FEATURE_COUNT);
  for (let r = 0; r < rows; r++) DEMAND_COLUMNS.forEach((column, k) => (out[r * DEMAND_FEATURE_COUNT + k] = features[r * FEATURE_COUNT + column] ?? 0));
  return out;
}

const NEVER = 20;

function statAt(series: readonly (TermStat | undefined)[] | undefined, index: number): TermStat | undefined {
  return index >= 0 ? series?.[index] : undefined;
}

export function courseFacts(course: CourseInfo, campus: CampusHistory, t: number): CourseFacts {
  const series = campus.stats.get(course.code);
  const offered = (i: number): boolean => statAt(series, i)?.offered === true;
  let lastOfferedIndex: number | null = null;
  let firstOfferedIndex: number | null = null;
  let offeredCount = 0;
  let observed = 0;
  let offeredInLast4 = 0;
  let offeredInLast8 = 0;
  let streak = 0;
  let streakUnbroken = true;
  let maxEnrollment = 0;
  const recent: number[] = [];
  const bySemester = { same: { observed: 0, offered: 0, enrolled: 0 }, other: { observed: 0, offered: 0, enrolled: 0 } };
  const lastOfferings: number[] = [];
  const failRatios: number[] = [];
  for (let i = t - 1; i >= 0; i--) {
    if (!campus.hasData[i]) continue;
    observed++;
    const stat = statAt(series, i);
    const wasOffered = stat?.offered === true;
    streakUnbroken &&= wasOffered;
    if (streakUnbroken) streak++;
    const semester = (t - i) % 2 === 0 ? bySemester.same : bySemester.other;
    semester.observed++;
    if (!stat || !wasOffered) continue;
    semester.offered++;
    semester.enrolled += stat.enrolled;
    if (observed <= 4) offeredInLast4++;
    if (observed <= 8) offeredInLast8++;
    offeredCount++;
    lastOfferedIndex ??= i;
    firstOfferedIndex = i;
    if (lastOfferings.length < 6) lastOfferings.push(i);
    maxEnrollment = Math.max(maxEnrollment, stat.enrolled);
    if (recent.length < 4) recent.unshift(stat.enrolled);
    if (i >= t - 6 && stat.enrolled > 0) failRatios.push(stat.failed / stat.enrolled);
  }
  const lastTwo = recent.slice(-2);
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
    lags: Array.from({ length: 8 }, (_, k) => (campus.hasData[t - 1 - k] ? Number(offered(t - 1 - k)) : UNKNOWN)),
    recentShare4: offeredInLast4 / Math.max(1, Math.min(4, observed)),
    recentShare8: offeredInLast8 / Math.max(1, Math.min(8, observed)),
    streak,
    age: firstOfferedIndex === null ? null : t - firstOfferedIndex,
    offeredCount,
    meanGap: lastOfferings.length >= 2 ? ((lastOfferings[0] ?? 0) - (lastOfferings.at(-1) ?? 0)) / (lastOfferings.length - 1) : null,
    lastEnrollment: recent.at(-1) ?? 0,
    maxEnrollment,
    growthLastTerm: logGrowth(statAt(series, t - 1), statAt(series, t - 3)),
    growthSameSemester: logGrowth(statAt(series, t - 2), statAt(series, t - 4)),
    campusGrowth: campusGrowth(campus, t),
    sameSemesterShare: bySemester.same.observed > 0 ? bySemester.same.offered / bySemester.same.observed : UNKNOWN,
    otherSemesterShare: bySemester.other.observed > 0 ? bySemester.other.offered / bySemester.other.observed : UNKNOWN,
    meanSameSemesterEnrollment: bySemester.same.offered > 0 ? bySemester.same.enrolled / bySemester.same.offered : 0,
    demandBase:
      sameSemesterEnrollment(series, t) ??
      (lastTwo.length > 0 ? lastTwo.reduce((a, b) => a + b, 0) / lastTwo.length : similarCoursesEnrollment(course, campus, t)),
  };
}

/** Enrollment in the same semester one, else two, years before t; null when not offered then. */
function sameSemesterEnrollment(series: readonly (TermStat | undefined)[] | undefined, t: number): number | null {
  for (const back of [2, 4]) {
    const stat = statAt(series, t - back);
    if (stat?.offered) return stat.enrolled;
  }
  return null;
}

function logGrowth(recent: TermStat | undefined, earlier: TermStat | undefined): number {
  return recent?.offered && earlier?.offered ? Math.log1p(recent.enrolled) - Math.log1p(earlier.enrolled) : UNKNOWN_GROWTH;
}

/** Growth features are log ratios, which may be −1 themselves: "unknown" is a value no ratio takes here. */
export const UNKNOWN_GROWTH = -99;

const campusTotals = new WeakMap<CampusHistory, number[]>();

/** The campus's total enrollment from t−3 to t−1, on the log scale (memoised per campus history). */
function campusGrowth(campus: CampusHistory, t: number): number {
  let totals = campusTotals.get(campus);
  if (!totals) {
    totals = [];
    for (const series of campus.stats.values())
      series.forEach((stat, i) => {
        if (stat?.offered) totals![i] = (totals![i] ?? 0) + stat.enrolled;
      });
    campusTotals.set(campus, totals);
  }
  const recent = totals[t - 1];
  const earlier = totals[t - 3];
  return recent !== undefined && earlier !== undefined && campus.hasData[t - 1] && campus.hasData[t - 3]
    ? Math.log1p(recent) - Math.log1p(earlier)
    : UNKNOWN_GROWTH;
}

/** Terms looked back over for the prior of a course without history. */
const PRIOR_TERMS = 4;

/**
 * The prior for a course without history: the median enrollment of the offerings of courses with
 * its prefix, level and type in the last four terms (0 when there are none). Memoised per campus
 * history and term, so a dataset pays once per group.
 */
function similarCoursesEnrollment(course: CourseInfo, campus: CampusHistory, t: number): number {
  let byTerm = priors.get(campus);
  if (!byTerm) priors.set(campus, (byTerm = new Map<number, Map<string, number>>()));
  let groups = byTerm.get(t);
  if (!groups) byTerm.set(t, (groups = new Map<string, number>()));
  const key = similarityKey(course);
  let prior = groups.get(key);
  if (prior === undefined) {
    const enrolled: number[] = [];
    for (const [code, series] of campus.stats) {
      if (campus.similarityKeys.get(code) !== key) continue;
      for (let i = Math.max(0, t - PRIOR_TERMS); i < t; i++) {
        const stat = series[i];
        if (stat?.offered && stat.enrolled > 0) enrolled.push(stat.enrolled);
      }
    }
    prior = quantile(
      enrolled.sort((a, b) => a - b),
      0.5,
    );
    groups.set(key, prior);
  }
  return prior;
}

const priors = new WeakMap<CampusHistory, Map<number, Map<string, number>>>();

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

export function planAlignment(studyPlan: string | null, semester: PlannedSemester): number {
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
    ...facts.lags,
    facts.recentShare4,
    facts.recentShare8,
    facts.streak,
    facts.age ?? UNKNOWN,
    facts.offeredCount,
    facts.meanGap ?? UNKNOWN,
    facts.meanGap !== null && facts.termsSinceOffered !== null ? facts.termsSinceOffered / facts.meanGap : UNKNOWN,
    Math.log1p(facts.lastEnrollment),
    Math.log1p(facts.maxEnrollment),
    Math.log1p(facts.demandBase),
    facts.growthLastTerm,
    facts.growthSameSemester,
    facts.campusGrowth,
    facts.sameSemesterShare,
    facts.otherSemesterShare,
    Math.log1p(facts.meanSameSemesterEnrollment),
    1,
  ];
  out.set(values, offset);
}
