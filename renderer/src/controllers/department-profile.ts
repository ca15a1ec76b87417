import { useMemo, useState } from 'react';
import type { QuotaCategory } from '../../../core/domain/quotas';
import { SOFT_GOALS, SOFT_WEIGHTS, type SoftGoal } from '../../../core/domain/autofill';
import { call, type Result } from '../api/client';
import { ApiError } from '../api/errors';
import { useLive } from '../api/live';
import { notifyDone, notifyError } from '../lib/notify';
import { useDraft } from '../lib/use-draft';

export type QuotaRow = Pick<QuotaCategory, 'prefix' | 'type' | 'label' | 'count'>;

/** "PHYS211 200" per line ↔ { PHYS211: 200 }. */
function readSizes(text: string): { sizes: Record<string, number>; bad: string[] } {
  const sizes: Record<string, number> = {};
  const bad: string[] = [];
  for (const line of text
    .split('\n')
    .map((l) => l.trim())
    .filter(Boolean)) {
    const match = /^(\S+)\s*[:=,]?\s*(\d+)$/.exec(line);
    if (match?.[1] && match[2]) sizes[match[1].toUpperCase()] = Number(match[2]);
    else bad.push(line);
  }
  return { sizes, bad };
}

const writeSizes = (sizes: Record<string, number> | undefined): string =>
  Object.entries(sizes ?? {})
    .map(([code, n]) => `${code} ${n}`)
    .join('\n');

/**
 * The department's profile: the quota categories runs fill (its catalog's prefixes × types until
 * changed here), the seats per section it plans with, and sizes of particular courses.
 */
interface ProfileForm {
  rows: QuotaRow[];
  source: 'profile' | 'catalog';
  seats: number | string;
  sizes: string;
  weights: Record<SoftGoal, number | string>;
}

const formOf = ({ categories, profile }: { categories: Result<'predict-quota-categories'>; profile: Result<'profile-get'> }): ProfileForm => ({
  rows: categories.categories.map(({ prefix, type, label, count }) => ({ prefix, type, label, count })),
  source: categories.source,
  seats: profile.section_size ?? 40,
  sizes: writeSizes(profile.section_sizes),
  weights: { ...SOFT_WEIGHTS, ...profile.autofill_weights },
});

/** The weights that differ from auto-fill's own (null: none do). */
function ownWeights(weights: ProfileForm['weights']): Partial<Record<SoftGoal, number>> | null {
  const own = Object.fromEntries(
    SOFT_GOALS.flatMap((goal) => (typeof weights[goal] === 'number' && weights[goal] !== SOFT_WEIGHTS[goal] ? [[goal, weights[goal]]] : [])),
  );
  return Object.keys(own).length > 0 ? own : null;
}

/**
 * Settings → Department profile: the form as stored until edited, a refusal in words beside it, and
 * Save (or Use the catalog's categories), which keeps the form's values once the core takes them.
 */
export function useDepartmentProfile() {
  const categories = useLive('predict-quota-categories', {});
  const profile = useLive('profile-get', {});
  const loaded = useMemo(
    () => (categories.data && profile.data ? { categories: categories.data, profile: profile.data } : null),
    [categories.data, profile.data],
  );
  const form = useDraft(loaded, formOf);
  const [problem, setProblem] = useState<string | null>(null);
  const save = async (reset = false): Promise<void> => {
    if (!form.values) return;
    const { rows, seats, sizes, weights } = form.values;
    setProblem(null);
    const read = readSizes(sizes);
    if (read.bad.length > 0) {
      setProblem(`Write one course per line with its seats, e.g. "PHYS211 200" (not "${read.bad[0]}")`);
      return;
    }
    try {
      await call('profile-update', {
        quota_categories: reset ? null : rows.map(({ prefix, type, label, count }) => ({ prefix, type, label, count })),
        section_size: typeof seats === 'number' ? seats : null,
        section_sizes: Object.keys(read.sizes).length > 0 ? read.sizes : null,
        autofill_weights: ownWeights(weights),
      });
      form.saved();
      notifyDone(
        reset ? "Runs use the catalog's prefixes and types again." : 'Runs use these categories and section sizes from now on.',
        'Department profile saved',
      );
    } catch (e) {
      if (e instanceof ApiError && e.fields.length > 0) setProblem(e.fields.map((f) => `${f.field}: ${f.message}`).join('; '));
      else notifyError(e, 'The department profile was not saved');
    }
  };
  return {
    values: form.values,
    readError: categories.error ?? profile.error,
    problem,
    edit: form.edit,
    /** One quota category's row changed. */
    changeRow: (i: number, patch: Partial<QuotaRow>): void => {
      if (form.values) form.edit({ rows: form.values.rows.map((r, k) => (k === i ? { ...r, ...patch } : r)) });
    },
    save,
  };
}
