/** Quota mode: how many courses of each group a run offers at most, and the groups' names. */
export const QUOTA_SLOTS = ['csc_core', 'csc_elective', 'bif_core', 'bif_elective', 'mth', 'sta'] as const;
export type QuotaSlot = (typeof QUOTA_SLOTS)[number];

export const DEFAULT_SLOTS: Record<QuotaSlot, number> = { csc_core: 12, csc_elective: 3, bif_core: 6, bif_elective: 2, mth: 8, sta: 3 };

export const QUOTA_SLOT_LABELS: Record<QuotaSlot, string> = {
  csc_core: 'CSC core',
  csc_elective: 'CSC elective',
  bif_core: 'BIF core',
  bif_elective: 'BIF elective',
  mth: 'MTH',
  sta: 'STA',
};
