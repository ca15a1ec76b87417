import type { CoreContext } from '../context';
import { inTransaction } from '../db/transactions';
import type { QuotaCategory } from '../domain/quotas';
import type { ProfileFile } from '../profile-config';
import { loadHistory } from './planning-view';
import { departmentCategories, departmentProfile, saveDepartmentProfile } from './profile';

/** The fields of the profile a change may replace; null returns one to its default. */
export type ProfileChange = { [K in keyof ProfileFile]?: ProfileFile[K] | null };

const PROFILE_FIELDS = ['quota_categories', 'section_size', 'section_sizes', 'autofill_weights'] as const satisfies readonly (keyof ProfileFile)[];

/** The department's quota categories at a campus (the first campus unless named), with their usual counts. */
export async function quotaCategoriesAt(
  ctx: CoreContext,
  campus: string | undefined,
): Promise<{ campus: string; categories: QuotaCategory[]; source: 'profile' | 'catalog' }> {
  const at = campus === undefined ? ctx.campuses.fallback : ctx.campuses.require(campus, 'campus');
  return { campus: at, ...departmentCategories(await departmentProfile(ctx.db, ctx.department), await loadHistory(ctx.db, ctx.department, [at]), at) };
}

/** Replaces the profile's fields a change gives (null: back to the default), in one transaction; answers the profile. */
export function updateDepartmentProfile(ctx: CoreContext, change: ProfileChange): Promise<ProfileFile> {
  return inTransaction(ctx.db, async (db) => {
    const next = { ...(await departmentProfile(db, ctx.department)) };
    for (const key of PROFILE_FIELDS) {
      const value = change[key];
      if (value === null) delete next[key];
      else if (value !== undefined) Object.assign(next, { [key]: value });
    }
    await saveDepartmentProfile(db, ctx.department, next);
    return next;
  });
}
