import type { QuotaSlot } from '../domain/quotas';

/**
 * Quota mode: the model's yes/no is ignored and courses fill fixed slots, in this order, each
 * taking its count of highest-scoring courses not already chosen. Masters and minor courses
 * never fill a slot; a cross-listed code counts for any of its prefixes.
 */
export const SLOT_RULES: { slot: QuotaSlot; prefix: string; type: 'core' | 'elective' | null }[] = [
  { slot: 'csc_core', prefix: 'CSC', type: 'core' },
  { slot: 'csc_elective', prefix: 'CSC', type: 'elective' },
  { slot: 'bif_core', prefix: 'BIF', type: 'core' },
  { slot: 'bif_elective', prefix: 'BIF', type: 'elective' },
  { slot: 'mth', prefix: 'MTH', type: null },
  { slot: 'sta', prefix: 'STA', type: null },
];

export interface QuotaCandidate {
  code: string;
  prefixes: string[];
  types: string[];
  score: number;
}

/** The codes chosen by the quotas. */
export function selectByQuotas(candidates: readonly QuotaCandidate[], slots: Record<QuotaSlot, number>): Set<string> {
  const chosen = new Set<string>();
  const ranked = [...candidates].sort((a, b) => b.score - a.score || a.code.localeCompare(b.code));
  for (const rule of SLOT_RULES) {
    let left = slots[rule.slot];
    for (const c of ranked) {
      if (left <= 0) break;
      if (chosen.has(c.code) || c.types.includes('masters') || c.types.includes('minor')) continue;
      if (!c.prefixes.includes(rule.prefix)) continue;
      if (rule.type !== null && !c.types.includes(rule.type)) continue;
      chosen.add(c.code);
      left--;
    }
  }
  return chosen;
}
