import type { CoreContext } from '../context';
import { invalid } from '../domain/errors';
import { categoryKey, categoryLabel, type QuotaCategory } from '../domain/quotas';
import { DEFAULT_SECTION_SEATS, readProfileFile, type ProfileFile } from '../profile-config';
import type { History } from './history';
import { catalogCategories } from './quotas';

/** The department's profile file; a file edited by hand into something unusable is a 400 naming the problem. */
export function departmentProfile(ctx: CoreContext): ProfileFile {
  try {
    return readProfileFile(ctx.dataDir);
  } catch (error) {
    throw Object.assign(invalid(error instanceof Error ? error.message : String(error)), { cause: error });
  }
}

/** The department's quota categories at a campus: its profile's, else its catalog's (with the campus's usual counts). */
export function departmentCategories(profile: ProfileFile, history: History, campus: string): { categories: QuotaCategory[]; source: 'profile' | 'catalog' } {
  const listed = profile.quota_categories ?? [];
  if (listed.length === 0) return { categories: catalogCategories(history, campus), source: 'catalog' };
  return {
    categories: listed.map((c) => ({ key: categoryKey(c.prefix, c.type), label: c.label ?? categoryLabel(c.prefix, c.type), prefix: c.prefix, type: c.type, count: c.count })),
    source: 'profile',
  };
}

/** Seats per section of a course: its own size in the profile, else the profile's, else the default. */
export function sectionSeats(profile: ProfileFile, code: string): number {
  const own = code.split('/').map((c) => profile.section_sizes?.[c]).find((n) => n !== undefined);
  return own ?? profile.section_size ?? DEFAULT_SECTION_SEATS;
}
