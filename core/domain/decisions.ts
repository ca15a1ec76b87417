import type { FieldProblem } from './errors';

/**
 * Staff decisions on a run: for each course, staff may overrule the model's offer/skip and its
 * number of sections, with a reason. The plan a run stands for — what auto-fill drafts, the
 * Dashboard counts and runs are compared on — is staff's decision where there is one, else the model's.
 */
export const STAFF_DECISIONS = ['offer', 'skip'] as const;
export type StaffDecision = (typeof STAFF_DECISIONS)[number];

/** Most sections staff can ask of one course. */
export const MAX_DECIDED_SECTIONS = 1000;
/** Longest reason kept with a decision. */
export const MAX_DECISION_REASON = 500;

/** What the plan reads of an entry: the model's decision and staff's, if any. */
export interface Decidable {
  offer: boolean;
  projected_sections: number;
  staff_decision: StaffDecision | null;
  staff_sections: number | null;
}

/** Whether the course is offered in the plan: staff's word where given, else the model's. */
export function plannedOffer(entry: Decidable): boolean {
  return entry.staff_decision === null ? entry.offer : entry.staff_decision === 'offer';
}

/** Sections the plan opens: 0 when not offered; staff's number, else the model's (at least one). */
export function plannedSections(entry: Decidable): number {
  if (!plannedOffer(entry)) return 0;
  return entry.staff_sections ?? Math.max(1, entry.projected_sections);
}

/** Staff's decision as stored. */
export interface StaffDecisionState {
  staff_decision: StaffDecision | null;
  staff_sections: number | null;
  staff_reason: string | null;
}

/** A change asked for: a field left out keeps its value; `decision: null` clears all three. */
export interface DecisionChange {
  decision?: StaffDecision | null | undefined;
  sections?: number | null | undefined;
  reason?: string | null | undefined;
}

/**
 * The decision after a change, or the words refusing it. A number of sections alone means "offer,
 * with this many"; skipping drops any number; a reason needs a decision to belong to.
 */
export function changedDecision(current: StaffDecisionState, change: DecisionChange): StaffDecisionState | FieldProblem {
  if (change.decision === null) return { staff_decision: null, staff_sections: null, staff_reason: null };
  const decision = change.decision ?? (typeof change.sections === 'number' ? 'offer' : current.staff_decision);
  if (decision === null) return { field: 'decision', message: 'decide offer or skip to give a reason' };
  if (decision === 'skip' && typeof change.sections === 'number') return { field: 'sections', message: 'a skipped course has no sections' };
  const sections = decision === 'skip' ? null : change.sections === undefined ? current.staff_sections : change.sections;
  const reason = change.reason === undefined ? current.staff_reason : change.reason === null || change.reason.trim() === '' ? null : change.reason.trim();
  return { staff_decision: decision, staff_sections: sections, staff_reason: reason };
}
