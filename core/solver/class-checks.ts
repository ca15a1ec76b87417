import { SET_TYPES, type Distribution, type TimetableProblem } from './model';

/**
 * What the search checks for a class wherever it goes, worked out once per problem: its required
 * distributions (hard) and its soft ones, each as a list in the order of the problem's
 * distributions. A pair constraint becomes one check per other class in it; a set constraint
 * (MaxDays, MaxDayLoad, MaxBreaks, MaxBlock) stays one check for the whole set.
 *
 * Problems repeat pair constraints: the same two classes under the same rule in many
 * distributions (a course's sections tied to each of its other courses, a teacher's classes listed
 * by several of their groups). A repeated required pair is checked once, where it first comes, so
 * the classes a value displaces are the same, found in the same order; a repeated soft pair is
 * checked once with the penalties of all its copies added up.
 */
export interface ClassCheck {
  dist: Distribution;
  /** The other class of a pair check; -1 for a set constraint (its classes are dist.classes). */
  partner: number;
  /** Whether the partner comes after the class in the distribution's list (Precedence reads the order). */
  partnerAfter: boolean;
  /** The penalty of a soft check (its copies added up); the distribution's own for a required one. */
  penalty: number;
}

export interface ClassChecks {
  required: ClassCheck[];
  soft: ClassCheck[];
}

/** Per class of the problem, its checks. */
export function classChecks(problem: Pick<TimetableProblem, 'classes' | 'distributions'>): ClassChecks[] {
  const out: ClassChecks[] = problem.classes.map(() => ({ required: [], soft: [] }));
  const seen = problem.classes.map(() => new Map<string, ClassCheck>());
  problem.distributions.forEach((dist) => {
    for (const classIndex of new Set(dist.classes)) {
      const checks = out[classIndex];
      if (!checks) continue;
      const list = dist.required ? checks.required : checks.soft;
      if (SET_TYPES.has(dist.type)) {
        list.push({ dist, partner: -1, partnerAfter: false, penalty: dist.penalty });
        continue;
      }
      const position = dist.classes.indexOf(classIndex);
      dist.classes.forEach((partner, j) => {
        if (partner === classIndex) return;
        const partnerAfter = j > position;
        const key = `${dist.required ? 'R' : 's'} ${dist.type} ${dist.params.join(',')} ${partner} ${partnerAfter ? 1 : 0}`;
        const copy = seen[classIndex]?.get(key);
        if (copy) {
          if (!dist.required) copy.penalty += dist.penalty;
          return;
        }
        const check: ClassCheck = { dist, partner, partnerAfter, penalty: dist.penalty };
        seen[classIndex]?.set(key, check);
        list.push(check);
      });
    }
  });
  return out;
}
