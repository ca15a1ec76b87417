import { termKey } from '../domain/terms';
import { sessionsOverlap, sharedDays } from '../domain/meetings';
import { partsShareDay, type PartOfTerm } from '../domain/parts';
import { CHECKED_ROLE, type InstructorRole } from '../domain/roles';
import type { ListedMeeting } from './rows';

/**
 * What the import decides beyond the file: which meetings are joint groups (sections meeting
 * together by design) and which instructors only coordinate. Pure: meetings and the term's parts
 * in, decisions out; shown in the dry run and changeable before applying.
 */
export interface RoleDecision {
  instructor: string;
  role: InstructorRole;
  sections: string[];
  reason: string;
}

/** Pair comparisons the role decision may make: bounds the work on any file. */
export const MAX_PAIR_CHECKS = 5_000_000;

const sectionKey = (m: ListedMeeting): string => `${termKey(m.term)}|${m.course_code}|${m.section_name}`;
const labelOf = (m: ListedMeeting): string => `${m.course_code} ${m.section_name}`;

/**
 * Instructors listed on parallel sections: someone listed on two sections that meet at the same
 * time (not one joint group) cannot teach both, so on each of them they coordinate — unless they
 * are that section's only instructor and the other section is another course (then it stays a real
 * clash for staff to see). Roles the file gives are kept; `overrides` (instructor → role) win.
 */
export function decideRoles(
  meetings: readonly ListedMeeting[],
  groupOf: readonly (string | null)[],
  partOf: (m: ListedMeeting) => PartOfTerm,
  overrides: ReadonlyMap<string, InstructorRole>,
): { roles: InstructorRole[][]; decisions: RoleDecision[]; complete: boolean } {
  const roles = meetings.map((m) => m.roles ?? m.instructors.map(() => CHECKED_ROLE));
  const coordinating = new Map<string, Set<string>>();
  const byInstructor = new Map<string, number[]>();
  meetings.forEach((m, i) => {
    if (m.roles !== null) return;
    for (const name of m.instructors) {
      const listed = byInstructor.get(name);
      if (listed) listed.push(i);
      else byInstructor.set(name, [i]);
    }
  });
  let budget = MAX_PAIR_CHECKS;
  const mark = (i: number, name: string): void => {
    const m = meetings[i] as ListedMeeting;
    roles[i] = m.instructors.map((n, k) => (n === name ? 'coordinates' : (roles[i]?.[k] ?? CHECKED_ROLE)));
    coordinating.set(name, (coordinating.get(name) ?? new Set()).add(labelOf(m)));
  };
  for (const [name, indexes] of byInstructor) {
    const sorted = [...indexes].sort((a, b) => (meetings[a] as ListedMeeting).start - (meetings[b] as ListedMeeting).start);
    for (let x = 0; x < sorted.length && budget > 0; x++) {
      const i = sorted[x] as number;
      const a = meetings[i] as ListedMeeting;
      for (let y = x + 1; y < sorted.length && budget-- > 0; y++) {
        const j = sorted[y] as number;
        const b = meetings[j] as ListedMeeting;
        if (b.start >= a.start + a.duration) break;
        if (termKey(a.term) !== termKey(b.term) || sectionKey(a) === sectionKey(b)) continue;
        if (groupOf[i] !== null && groupOf[i] === groupOf[j]) continue;
        const together = { day: a.day, start: a.start, duration: a.duration };
        if (!sessionsOverlap(together, b) || !partsShareDay(partOf(a), partOf(b), sharedDays(a.day, b.day))) continue;
        const sameCourse = a.course_code === b.course_code;
        if (sameCourse || a.instructors.length > 1) mark(i, name);
        if (sameCourse || b.instructors.length > 1) mark(j, name);
      }
    }
  }
  for (const [name, role] of overrides) {
    meetings.forEach((m, i) => {
      const k = m.instructors.indexOf(name);
      if (k >= 0) roles[i] = (roles[i] ?? []).map((r, n) => (n === k ? role : r));
    });
  }
  const decisions: RoleDecision[] = [...coordinating].map(([instructor, sections]) => ({
    instructor,
    role: overrides.get(instructor) ?? 'coordinates',
    sections: [...sections].sort(),
    reason: overrides.has(instructor) ? 'set before applying' : `listed on ${sections.size} sections that meet at the same time`,
  }));
  for (const [instructor, role] of overrides) {
    if (!coordinating.has(instructor))
      decisions.push({ instructor, role, sections: meetings.filter((m) => m.instructors.includes(instructor)).map(labelOf), reason: 'set before applying' });
  }
  return { roles, decisions: decisions.sort((p, q) => p.instructor.localeCompare(q.instructor)), complete: budget > 0 };
}
