/**
 * The people of a campus server and what each may do. The registrar plans with every department
 * and keeps the campus (its departments, its people, its room pool); a scheduler plans their own
 * department's terms; a viewer reads their department. A laptop's user, and a script holding the
 * server's own token, act as the registrar.
 */
export const PERSON_ROLES = ['registrar', 'scheduler', 'viewer'] as const;
export type PersonRole = (typeof PERSON_ROLES)[number];

/** Who a call acts for: their role and, unless a registrar, their one department. */
export interface Actor {
  role: PersonRole;
  /** The person's account; null for the laptop's user and the server's own token. */
  person: number | null;
  /** A scheduler's or viewer's department; null for a registrar (every department). */
  department: number | null;
  /** The label of the personal token a script acts with (history names it with the person). */
  token_label?: string | null;
}

/** The laptop's user, and scripts holding the server's own token. */
export const REGISTRAR: Actor = { role: 'registrar', person: null, department: null };

/** Whether the actor may read what belongs to a department. */
export function mayRead(actor: Actor, department: number): boolean {
  return actor.role === 'registrar' || actor.department === department;
}

/** Whether the actor may change what belongs to a department. */
export function mayWrite(actor: Actor, department: number): boolean {
  return actor.role === 'registrar' || (actor.role === 'scheduler' && actor.department === department);
}
