import type { Db } from '../db/store';
import { categoryKey, categoryLabel, type QuotaCategory } from '../domain/quotas';
import { DEFAULT_SECTION_SEATS, profileSchema, type ProfileFile } from '../profile-config';
import { readSetting, writeSetting } from '../db/settings';
import type { History } from './planning-view';
import { catalogCategories } from './quotas';

/** The settings key a department's profile is kept under (with its data, so in backups too). */
const PROFILE_KEY = 'profile';

/** A department's profile: empty until Settings writes one (a damaged value, e.g. from an edited backup, reads as empty). */
export async function departmentProfile(db: Db, department: number): Promise<ProfileFile> {
  const parsed = profileSchema.safeParse(await readSetting(db, department, PROFILE_KEY));
  return parsed.success ? parsed.data : {};
}

export async function saveDepartmentProfile(db: Db, department: number, profile: ProfileFile): Promise<void> {
  await writeSetting(db, department, PROFILE_KEY, profile);
}

/** Whether a department has a profile of its own yet. */
export async function hasDepartmentProfile(db: Db, department: number): Promise<boolean> {
  return (await readSetting(db, department, PROFILE_KEY)) !== undefined;
}

/** The department's quota categories at a campus: its profile's, else its catalog's (with the campus's usual counts). */
export function departmentCategories(profile: ProfileFile, history: History, campus: string): { categories: QuotaCategory[]; source: 'profile' | 'catalog' } {
  const listed = profile.quota_categories ?? [];
  if (listed.length === 0) return { categories: catalogCategories(history, campus), source: 'catalog' };
  return {
    categories: listed.map((c) => ({
      key: categoryKey(c.prefix, c.type),
      label: c.label ?? categoryLabel(c.prefix, c.type),
      prefix: c.prefix,
      type: c.type,
      count: c.count,
    })),
    source: 'profile',
  };
}

/** Seats per section of a course: its own size in the profile, else the profile's, else the default. */
export function sectionSeats(profile: ProfileFile, code: string): number {
  const own = code
    .split('/')
    .map((c) => profile.section_sizes?.[c])
    .find((n) => n !== undefined);
  return own ?? profile.section_size ?? DEFAULT_SECTION_SEATS;
}
