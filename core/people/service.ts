import { createHash, randomBytes } from 'node:crypto';
import type { CoreContext } from '../context';
import type { Db } from '../db/store';
import { inTransaction } from '../db/transactions';
import { takeLocks, type LockRequest } from '../db/locks';
import { CoreError, fieldError, invalid, notFound } from '../domain/errors';
import { makerInWords, type AccessChange, type Actor, type PersonRole } from '../domain/people';
import { getDepartment } from '../departments/repo';
import { decoyHash, hashPassword, passwordMatches } from './passwords';
import {
  clearFailedSignIns,
  countRegistrars,
  getPerson,
  insertPerson,
  insertToken,
  listPeople,
  listTokens,
  personByLogin,
  personOfToken,
  publicPerson,
  countSignInAttempt,
  lockAccount,
  revokeToken,
  revokeTokensOf,
  touchToken,
  updatePerson,
  type Person,
  type Revocation,
  type TokenInfo,
} from './repo';
import { endSessionsOf } from './sessions-repo';

/** Held by every change to a person, alone: two registrars demoting each other at once cannot leave none. */
const REGISTRARS_LOCK: LockRequest = { key: 'people registrars', mode: 'exclusive' };

/** Failed sign-ins an account takes before it is locked, and for how long. */
export const SIGN_IN_LOCK = { after: 5, minutes: 15 } as const;

/** A personal token: recognisable by its prefix, 32 random bytes. */
const TOKEN_PREFIX = 'tw_';
export const isPersonalToken = (token: string): boolean => token.startsWith(TOKEN_PREFIX) && token.length > 40;
const digest = (token: string): string => createHash('sha256').update(token).digest('hex');

/** The department a role needs: none for the registrar, exactly one for the others. */
async function departmentOf(db: Db, role: PersonRole, department: number | null | undefined): Promise<number | null> {
  if (role === 'registrar') {
    if (department !== undefined && department !== null) throw fieldError('department_id', 'the registrar plans with every department: give none');
    return null;
  }
  if (department === undefined || department === null) throw fieldError('department_id', `a ${role} belongs to one department: name it`);
  if (!(await getDepartment(db, department))) throw fieldError('department_id', `no department ${department}`);
  return department;
}

export async function people(ctx: CoreContext): Promise<Person[]> {
  return listPeople(ctx.db, null);
}

export async function addPerson(
  ctx: CoreContext,
  input: { login: string; name: string; role: PersonRole; department_id?: number | null | undefined; password: string },
): Promise<Person> {
  const password_hash = await hashPassword(input.password);
  return inTransaction(ctx.db, async (db) => {
    if (await personByLogin(db, input.login)) throw new CoreError('conflict', `Someone already signs in as "${input.login}"`);
    const department_id = await departmentOf(db, input.role, input.department_id);
    const id = await insertPerson(db, { login: input.login.trim(), name: input.name, role: input.role, department_id, password_hash }, ctx.now().toISOString());
    return publicPerson((await getPerson(db, id)) as Person);
  });
}

export async function changePerson(
  ctx: CoreContext,
  input: {
    person_id: number;
    name?: string | undefined;
    role?: PersonRole | undefined;
    department_id?: number | null | undefined;
    password?: string | undefined;
    disabled?: boolean | undefined;
    unlock?: boolean | undefined;
  },
): Promise<Person> {
  const password_hash = input.password === undefined ? undefined : await hashPassword(input.password);
  return inTransaction(ctx.db, async (db) => {
    // Changes to people take turns: the check that a registrar remains and the change it allows hold together.
    await takeLocks(db, [REGISTRARS_LOCK]);
    const current = await getPerson(db, input.person_id);
    if (!current) throw notFound(`No person with id ${input.person_id}`);
    const role = input.role ?? current.role;
    // A role changed without naming a department keeps the person's (the registrar has none).
    const keptDepartment = role === 'registrar' ? null : current.department_id;
    const department_id = await departmentOf(db, role, input.department_id === undefined ? keptDepartment : input.department_id);
    const disabled = input.disabled ?? current.disabled;
    if (current.role === 'registrar' && !current.disabled && (role !== 'registrar' || disabled) && (await countRegistrars(db)) <= 1) {
      throw invalid('This is the only registrar who can sign in: make someone else the registrar first');
    }
    await updatePerson(db, current.id, {
      ...(input.name === undefined ? {} : { name: input.name }),
      role,
      department_id,
      ...(password_hash === undefined ? {} : { password_hash }),
      ...(input.disabled === undefined ? {} : { disabled_at: disabled ? ctx.now().toISOString() : null }),
    });
    // A new password set by the registrar, or an unlock, lifts a lock of failed sign-ins.
    if (password_hash !== undefined || input.unlock === true) await clearFailedSignIns(db, current.id);
    const ended = accessEnded({
      password: password_hash !== undefined,
      access: role !== current.role || department_id !== current.department_id,
      disabled: disabled && !current.disabled,
    });
    if (ended !== null) await endSessionsOf(db, current.id, ended);
    // A new password is given because the old one may be known: every token made with it goes too.
    if (password_hash !== undefined) await revokeTokensOf(db, current.id, await revocation({ ...ctx, db }, 'password_changed'));
    return publicPerson((await getPerson(db, current.id)) as Person);
  });
}

/**
 * Why a change to a person ends their browser sessions, or null: a new password, a new role or
 * department, a disabled account (a change of name alone leaves them). Tokens stay with a new role:
 * each is held to the person's role as it is at each request.
 */
function accessEnded(changed: { password: boolean; access: boolean; disabled: boolean }): AccessChange | null {
  if (changed.disabled) return 'account_disabled';
  if (changed.password) return 'password_changed';
  if (changed.access) return 'access_changed';
  return null;
}

/** Who the caller is, in words, as a record names them (see makerInWords). */
async function callerInWords(ctx: CoreContext): Promise<string> {
  const person = ctx.actor.person === null ? undefined : await getPerson(ctx.db, ctx.actor.person);
  return makerInWords({ name: person?.name ?? null, token_label: ctx.actor.token_label ?? null, caller: ctx.caller, campus: ctx.access?.campus ?? false });
}

/** A revocation by the caller, now. */
async function revocation(ctx: CoreContext, because: Revocation['because']): Promise<Revocation> {
  return { at: ctx.now().toISOString(), by: await callerInWords(ctx), because };
}

/**
 * Who the caller is: their account (none for the laptop's user or the server's own token), role and
 * department; and whether this is a campus server (PostgreSQL or a public address), where a session
 * without a person is the registrar's, by the server's sign-in link.
 */
export async function whoAmI(
  ctx: CoreContext,
): Promise<{ person: Person | null; role: PersonRole; department: number | null; acting_in: number; campus_server: boolean }> {
  const person = ctx.actor.person === null ? null : ((await getPerson(ctx.db, ctx.actor.person)) ?? null);
  return {
    person: person ? publicPerson(person) : null,
    role: ctx.actor.role,
    department: ctx.actor.department,
    acting_in: ctx.department,
    campus_server: ctx.access?.campus ?? false,
  };
}

function requirePerson(ctx: CoreContext): number {
  if (ctx.actor.person === null) throw invalid('Personal tokens belong to people who sign in; this caller acts as the installation itself');
  return ctx.actor.person;
}

export async function myTokens(ctx: CoreContext): Promise<TokenInfo[]> {
  return listTokens(ctx.db, requirePerson(ctx));
}

/** A new personal token, shown this once: only its digest is kept. */
export async function createToken(ctx: CoreContext, input: { label: string }): Promise<TokenInfo & { token: string }> {
  const person = requirePerson(ctx);
  const token = `${TOKEN_PREFIX}${randomBytes(32).toString('base64url')}`;
  const id = await insertToken(ctx.db, person, input.label, digest(token), ctx.now().toISOString());
  const info = (await listTokens(ctx.db, person)).find((t) => t.id === id) as TokenInfo;
  return { ...info, token };
}

export async function revokeMyToken(ctx: CoreContext, id: number): Promise<{ status: 'revoked' }> {
  if (!(await revokeToken(ctx.db, requirePerson(ctx), id, await revocation(ctx, 'revoked')))) throw notFound(`You have no live token with id ${id}`);
  return { status: 'revoked' };
}

/** A person's personal tokens, live and revoked, as the registrar sees them (never the tokens themselves). */
export async function tokensOf(ctx: CoreContext, personId: number): Promise<TokenInfo[]> {
  if (!(await getPerson(ctx.db, personId))) throw notFound(`No person with id ${personId}`);
  return listTokens(ctx.db, personId);
}

/** The registrar revokes one of a person's tokens (a leaked one), recorded with who and when. */
export async function revokeTokenOf(ctx: CoreContext, personId: number, id: number): Promise<{ status: 'revoked' }> {
  if (!(await getPerson(ctx.db, personId))) throw notFound(`No person with id ${personId}`);
  if (!(await revokeToken(ctx.db, personId, id, await revocation(ctx, 'revoked')))) throw notFound(`Person ${personId} has no live token with id ${id}`);
  return { status: 'revoked' };
}

/** Who a person acts as: their role, themselves, their department. */
export const actorOf = (person: { id: number; role: PersonRole; department_id: number | null }): Actor => ({
  role: person.role,
  person: person.id,
  department: person.department_id,
});

/** Marks a token used at most this often (a write per request would be a write per read). */
const TOUCH_EVERY_MS = 60_000;
const touched = new Map<number, number>();

/** The person a personal token acts for; null for a token that is not live (revoked, unknown) or a disabled person. */
export async function actorOfToken(db: Db, token: string, now: Date): Promise<Actor | null> {
  if (!isPersonalToken(token)) return null;
  const owner = await personOfToken(db, digest(token));
  if (!owner || owner.disabled_at !== null) return null;
  if (now.getTime() - (touched.get(owner.token_id) ?? 0) > TOUCH_EVERY_MS) {
    touched.set(owner.token_id, now.getTime());
    await touchToken(db, owner.token_id, now.toISOString());
  }
  return { ...actorOf(owner), token_label: owner.label };
}

/** The actor a session holds for a person: read again, so a change of role or a disabled account counts at once. */
export async function actorOfPerson(db: Db, id: number): Promise<Actor | null> {
  const person = await getPerson(db, id);
  return person && !person.disabled ? actorOf(person) : null;
}

export type SignInOutcome = { ok: true; actor: Actor } | { ok: false; detail: string };

/**
 * The one answer to every sign-in that fails: a wrong password, a login that names nobody, a locked or
 * disabled account. Alike in words, status and time, it tells nobody which logins exist or are locked.
 */
export const SIGN_IN_REFUSED = `Wrong login or password. After ${SIGN_IN_LOCK.after} failed sign-ins in a row an account is locked for ${SIGN_IN_LOCK.minutes} minutes (the registrar can unlock it)`;

/**
 * Checks a login and password. The attempt is counted on the account first, in one statement, so
 * that guesses sent at once all count: from the attempt after the fifth failure in a row every one
 * is refused, whatever the password, until the lock (SIGN_IN_LOCK.minutes) runs out; `onLocked` hears
 * of the attempt that locked it. Every outcome checks one password hash, so that none answers sooner
 * than another.
 */
export async function signIn(
  db: Db,
  login: string,
  password: string,
  now: Date,
  onLocked: (person: { id: number; department_id: number | null }) => void = () => undefined,
): Promise<SignInOutcome> {
  const attempt = await countSignInAttempt(db, login, now.toISOString());
  const matches = await passwordMatches(password, attempt?.password_hash ?? (await decoyHash()));
  const refused: SignInOutcome = { ok: false, detail: SIGN_IN_REFUSED };
  if (!attempt) return refused;
  const locked = (attempt.locked_until !== null && attempt.locked_until > now.toISOString()) || attempt.failed_attempts > SIGN_IN_LOCK.after;
  if (locked || !matches || attempt.disabled_at !== null) {
    if (
      attempt.failed_attempts >= SIGN_IN_LOCK.after &&
      (await lockAccount(db, attempt.id, new Date(now.getTime() + SIGN_IN_LOCK.minutes * 60_000).toISOString()))
    )
      onLocked(attempt);
    return refused;
  }
  await clearFailedSignIns(db, attempt.id);
  return { ok: true, actor: actorOf(attempt) };
}
