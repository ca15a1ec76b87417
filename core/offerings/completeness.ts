import { termLabel, type Semester } from '../domain/terms';

/**
 * Incomplete terms: a report exported before every grade was in lists a handful of courses instead
 * of the usual dozens, and every course missing from it would read as "not offered". A term is
 * flagged when it lists fewer than half the median of the same campus's nearest same-semester terms
 * (the four before it, else as many after it as make four; at least two). Staff confirm a flagged
 * term as complete, or upload it again; until then the model leaves it out.
 */
export const INCOMPLETE_SHARE = 0.5;
export const COMPARED_TERMS = 4;
export const MIN_COMPARED_TERMS = 2;

/** How many courses a term at a campus lists as offered. */
export interface TermCourseCount {
  campus: string;
  year: number;
  semester: Semester;
  courses: number;
}

export interface IncompleteTerm extends TermCourseCount {
  /** The fewest and most courses its compared terms listed. */
  usual_low: number;
  usual_high: number;
  /** How many same-semester terms it was compared with. */
  compared_with: number;
  message: string;
}

/** The key of a term at a campus, for sets of confirmed terms. */
export function campusTermKey(term: { campus: string; year: number; semester: string }): string {
  return `${term.campus}|${term.year}|${term.semester}`;
}

/** The terms that look incomplete, minus those staff confirmed complete (keys from campusTermKey). */
export function incompleteTerms(counts: readonly TermCourseCount[], confirmed: ReadonlySet<string>): IncompleteTerm[] {
  const series = new Map<string, TermCourseCount[]>();
  for (const count of counts) {
    const key = `${count.campus}|${count.semester}`;
    series.set(key, [...(series.get(key) ?? []), count]);
  }
  const flagged: IncompleteTerm[] = [];
  for (const terms of series.values()) {
    terms.sort((a, b) => a.year - b.year);
    terms.forEach((term, i) => {
      if (confirmed.has(campusTermKey(term))) return;
      const before = terms.slice(Math.max(0, i - COMPARED_TERMS), i).reverse();
      const compared = [...before, ...terms.slice(i + 1, i + 1 + COMPARED_TERMS - before.length)];
      if (compared.length < MIN_COMPARED_TERMS) return;
      const sizes = compared.map((t) => t.courses).sort((a, b) => a - b);
      if (term.courses >= INCOMPLETE_SHARE * median(sizes)) return;
      const low = sizes[0] ?? 0;
      const high = sizes.at(-1) ?? 0;
      flagged.push({
        ...term,
        usual_low: low,
        usual_high: high,
        compared_with: compared.length,
        message: incompleteMessage(term, low, high, compared.length, before.length === compared.length),
      });
    });
  }
  return flagged.sort((a, b) => a.campus.localeCompare(b.campus) || a.year - b.year || a.semester.localeCompare(b.semester));
}

function median(sorted: readonly number[]): number {
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? (sorted[mid] ?? 0) : ((sorted[mid - 1] ?? 0) + (sorted[mid] ?? 0)) / 2;
}

const NUMBER_WORDS = ['no', 'one', 'two', 'three', 'four'];

/** "Spring 2025 at Beirut lists 2 courses; its last four Springs listed 26–28. Incomplete?" */
function incompleteMessage(term: TermCourseCount, low: number, high: number, compared: number, allBefore: boolean): string {
  const count = NUMBER_WORDS[compared] ?? String(compared);
  const which = allBefore ? `its last ${count} ${term.semester}s` : `the ${count} nearest ${term.semester}s`;
  const range = low === high ? `${low}` : `${low}–${high}`;
  return `${termLabel(term)} at ${term.campus} lists ${term.courses} course${term.courses === 1 ? '' : 's'}; ${which} listed ${range}. Incomplete?`;
}
