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

/**
 * Why a person's browser sessions ended while in use: the registrar set a new password
 * (`password_changed`), changed their role or department (`access_changed`) or disabled the account.
 */
export type AccessChange = 'password_changed' | 'access_changed' | 'account_disabled';

/** Why a personal token was revoked: by its owner or the registrar, or with a new password for its person. */
export type TokenRevocation = 'revoked' | 'password_changed';

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

/** Who made a change or a revocation, as a record names them. */
export interface Maker {
  /** The person's name, when a person acted. */
  name: string | null;
  /** The personal token they used, if any. */
  token_label?: string | null;
  caller: 'desktop' | 'script' | 'browser';
  /** Whether this is a campus server (where a session without a person is the registrar's, by the server's sign-in link). */
  campus: boolean;
}

/** Who acted, in words: the person (and their token), else the server's token, the registrar's sign-in link, or this computer. */
export function makerInWords({ name, token_label, caller, campus }: Maker): string {
  if (name !== null) return token_label ? `${name} (token "${token_label}")` : name;
  if (caller === 'script') return "the server's API token";
  if (caller === 'browser' && campus) return "registrar (the server's sign-in link)";
  return 'this computer';
}
