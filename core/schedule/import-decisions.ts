import { roomKey, sessionsOverlap, sharedDays } from '../domain/meetings';
import { partsShareDay, type PartOfTerm } from '../domain/parts';
import { CHECKED_ROLE, type InstructorRole } from '../domain/roles';
import type { ListedMeeting } from './import-rows';

/**
 * What the import decides beyond the file: which meetings are joint groups (sections meeting
 * together by design) and which instructors only coordinate. Pure: meetings and the term's parts
 * in, decisions out; shown in the dry run and changeable before applying.
 */
export interface ProposedGroup {
  label: string;
  /** Indexes into the meetings. */
  meetings: number[];
  /** "CS374 AL1", one per section. */
  members: string[];
}

export interface RoleDecision {
  instructor: string;
  role: InstructorRole;
  sections: string[];
  reason: string;
}

/** Pair comparisons the role decision may make: bounds the work on any file. */
export const MAX_PAIR_CHECKS = 5_000_000;

const termKey = (m: ListedMeeting): string => `${m.term.year}|${m.term.semester}`;
const sectionKey = (m: ListedMeeting): string => `${termKey(m)}|${m.course_code}|${m.section_name}`;
const labelOf = (m: ListedMeeting): string => `${m.course_code} ${m.section_name}`;

function find(parent: number[], x: number): number {
  let root = x;
  while (parent[root] !== root) root = parent[root] as number;
  while (parent[x] !== root) {
    const next = parent[x] as number;
    parent[x] = root;
    x = next;
  }
  return root;
}

/**
 * Meetings in the same slot (term, days, times, part of term) and the same room that share an
 * instructor, or that share the room and have no instructor, meet together: one joint group.
 * Meetings the file already puts in a group keep it. `taken` are labels already used in the term.
 */
export function proposeJointGroups(meetings: readonly ListedMeeting[], taken: (term: string) => ReadonlySet<string>): ProposedGroup[] {
  const parent = meetings.map((_, i) => i);
  const union = (a: number, b: number): void => void (parent[find(parent, a)] = find(parent, b));
  const buckets = new Map<string, number[]>();
  meetings.forEach((m, i) => {
    if (m.room === null || m.joint_group !== null) return;
    const key = [termKey(m), m.day, m.start, m.duration, m.part_of_term, roomKey(m.room)].join('|');
    const bucket = buckets.get(key);
    if (bucket) bucket.push(i);
    else buckets.set(key, [i]);
  });
  for (const bucket of buckets.values()) {
    const firstWith = new Map<string, number>();
    let unassigned: number | null = null;
    for (const i of bucket) {
      const m = meetings[i] as ListedMeeting;
      if (m.instructors.length === 0) {
        if (unassigned === null) unassigned = i;
        else union(i, unassigned);
      }
      for (const name of m.instructors) {
        const first = firstWith.get(name);
        if (first === undefined) firstWith.set(name, i);
        else union(i, first);
      }
    }
  }
  const groups = new Map<number, number[]>();
  meetings.forEach((_, i) => {
    const root = find(parent, i);
    const group = groups.get(root);
    if (group) group.push(i);
    else groups.set(root, [i]);
  });
  const used = new Map<string, Set<string>>();
  const proposed: ProposedGroup[] = [];
  // Sections that meet together in several slots (lecture and lab both joint) are one group.
  const bySections = new Map<string, ProposedGroup>();
  for (const indexes of groups.values()) {
    const members = indexes.map((i) => meetings[i] as ListedMeeting);
    const sections = [...new Set(members.map(labelOf))].sort();
    if (sections.length < 2) continue;
    const first = members[0] as ListedMeeting;
    const term = termKey(first);
    const same = bySections.get(`${term}|${sections.join('|')}`);
    if (same) {
      same.meetings.push(...indexes);
      continue;
    }
    if (!used.has(term)) used.set(term, new Set(taken(term)));
    const labels = used.get(term) as Set<string>;
    const base = `${[...new Set(members.map((m) => m.course_code))].join('/')} ${[...new Set(members.map((m) => m.section_name))].join('/')}`.slice(0, 52);
    let label = base;
    for (let n = 2; labels.has(label); n++) label = `${base} (${n})`;
    labels.add(label);
    const group = { label, meetings: [...indexes], members: sections };
    bySections.set(`${term}|${sections.join('|')}`, group);
    proposed.push(group);
  }
  return proposed;
}

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
        if (termKey(a) !== termKey(b) || sectionKey(a) === sectionKey(b)) continue;
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
