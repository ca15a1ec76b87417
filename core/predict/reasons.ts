import { termLabel, type PlannedSemester } from '../domain/terms';
import { termAt } from './planning-view';
import type { CourseScore } from './train';

/** Up to three short sentences, drawn from the features, that explain a recommendation. */
export interface ReasonContext {
  score: CourseScore;
  offer: boolean;
  campus: string;
  semester: PlannedSemester;
  baseYear: number;
  cohortSources: string[];
}

interface Reason {
  text: string;
  /** +1 argues for offering, -1 against, 0 either way. */
  direction: 1 | -1 | 0;
  weight: number;
}

export const MAX_REASONS = 3;

function candidates(ctx: ReasonContext): Reason[] {
  const { facts, course } = ctx.score;
  const sem = ctx.semester;
  const other = sem === 'Fall' ? 'Spring' : 'Fall';
  const sameCount = facts.sameSemester.filter(Boolean).length;
  const reasons: Reason[] = [];
  if (facts.lastOfferedIndex === null) reasons.push({ text: `Never offered at ${ctx.campus}`, direction: -1, weight: 95 });
  else if ((facts.termsSinceOffered ?? 0) >= 3) {
    const last = termAt(ctx.baseYear, facts.lastOfferedIndex);
    reasons.push({ text: `Not offered since ${termLabel(last)}`, direction: -1, weight: 90 });
  }
  if (sameCount === 4) reasons.push({ text: `Offered every ${sem} for the last 4 years`, direction: 1, weight: 90 });
  else if (sameCount >= 2) reasons.push({ text: `Offered in ${sameCount} of the last 4 ${sem}s`, direction: 1, weight: 60 });
  else if (facts.lastOfferedIndex !== null && facts.sameSemesterShare === 0)
    reasons.push({ text: `Only ever offered in ${other} at ${ctx.campus}, never in ${sem}`, direction: -1, weight: 85 });
  else if (facts.lastOfferedIndex !== null)
    reasons.push({ text: sameCount === 0 ? `Not offered in any of the last 4 ${sem}s` : `Offered in only 1 of the last 4 ${sem}s`, direction: -1, weight: 80 });
  if (ctx.cohortSources.length > 0) reasons.push({ text: `Gateway course for the ${ctx.cohortSources.join(' and ')}`, direction: 1, weight: 85 });
  if (facts.latentDemand >= 10)
    reasons.push({ text: `${facts.latentDemand} students passed its prerequisites in the last two terms`, direction: 1, weight: 70 });
  if (facts.planAlignment === 1) reasons.push({ text: `The study plan places it in ${sem}`, direction: 1, weight: 55 });
  if (facts.planAlignment === -1) reasons.push({ text: `The study plan places it in ${other}`, direction: -1, weight: 60 });
  if (course.dependents >= 3) reasons.push({ text: `Prerequisite, directly or through others, of ${course.dependents} courses`, direction: 1, weight: 50 });
  const recent = facts.recentEnrollment;
  const first = recent[0] ?? 0;
  const last = recent[recent.length - 1] ?? 0;
  if (recent.length >= 3 && first > 0 && last >= first * 1.15)
    reasons.push({ text: `Enrollment rising: ${first} → ${last} over its last ${recent.length} offerings`, direction: 1, weight: 45 });
  if (recent.length >= 3 && first > 0 && last <= first * 0.85)
    reasons.push({ text: `Enrollment falling: ${first} → ${last} over its last ${recent.length} offerings`, direction: -1, weight: 45 });
  if (facts.failRatio3y >= 0.25)
    reasons.push({ text: `${Math.round(facts.failRatio3y * 100)}% of its students failed over the last 3 years`, direction: 0, weight: 40 });
  if (course.types.includes('core')) reasons.push({ text: 'Core course', direction: 1, weight: 30 });
  return reasons;
}

/** Said of every course with little history, whatever else is said: its figures are less sure. */
function historyCaveat(ctx: ReasonContext): string | null {
  const { facts, course } = ctx.score;
  if (!ctx.score.littleHistory) return null;
  if (facts.offeredCount === 0) return `No history at ${ctx.campus}: enrollment estimated from similar ${course.prefix} ${course.level}00-level courses`;
  return `Little history: offered only ${facts.offeredCount === 1 ? 'once' : 'twice'} at ${ctx.campus}, so the figures are less sure`;
}

export function explain(ctx: ReasonContext): string[] {
  const wanted = ctx.offer ? 1 : -1;
  const caveat = historyCaveat(ctx);
  const ranked = candidates(ctx)
    .filter((r) => r.direction === wanted || r.direction === 0)
    .sort((a, b) => (b.direction === wanted ? 1 : 0) - (a.direction === wanted ? 1 : 0) || b.weight - a.weight);
  const texts = ranked.slice(0, MAX_REASONS - (caveat ? 1 : 0)).map((r) => r.text);
  if (texts.length === 0) texts.push(`Model confidence ${Math.round(ctx.score.confidence * 100)}%`);
  if (caveat) texts.push(caveat);
  return texts;
}
