/**
 * Model figures in plain words, the exact metric one hover away: the one place the screens word them.
 */
export const RANKS_RIGHT_HINT =
  'ROC-AUC on held-out past terms: out of 100 pairs of a course that was offered and one that was not, how many the model ranked the right way round';
export const OFFER_LIST_HINT = 'F1 on held-out past terms: how closely the yes/no offer list matched what was actually offered (100 = exactly)';
export const SCORE_HINT = 'How likely the course is to be offered, 0–100, calibrated on past terms: courses scored about 80 were offered about 8 times in 10';

/** "92 of 100" for a ROC-AUC of 0.921; a dash when unknown. */
export function outOf100(metric: number | null | undefined): string {
  return metric === null || metric === undefined ? '—' : `${Math.round(metric * 100)} of 100`;
}

/** The exact figures behind a campus model's plain words. */
export function modelDetails(m: { roc_auc?: number | null; f1?: number | null; samples: number }): string {
  return `ROC-AUC ${m.roc_auc?.toFixed(3) ?? '—'} · F1 ${m.f1?.toFixed(3) ?? '—'} · learned from ${m.samples.toLocaleString()} course-terms`;
}
