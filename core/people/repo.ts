import { sql } from 'kysely';
import type { Db } from '../db/store';
import { isRowId } from '../db/batches';
import { prepared } from '../db/prepared';
import type { PersonRole, TokenRevocation } from '../domain/people';

/** A person as the screens and the REST API show them (never their password). */
export interface Person {
  id: number;
  login: string;
  name: string;
  role: PersonRole;
  department_id: number | null;
  disabled: boolean;
  /** Until when repeated failed sign-ins lock the account (UTC, ISO); null when not locked. A past time is a lock run out. */
  locked_until: string | null;
}

export interface PersonRecord extends Person {
  password_hash: string;
  failed_attempts: number;
}

/** Logins compare without case and surrounding spaces. */
export const loginKey = (login: string): string => login.trim().toLowerCase();

type PersonRow = Omit<Person, 'disabled'> & { disabled_at: string | null; password_hash: string; failed_attempts: number };

const COLUMNS = ['id', 'login', 'name', 'role', 'department_id', 'disabled_at', 'password_hash', 'failed_attempts', 'locked_until'] as const;

const fromRow = ({ disabled_at, ...row }: PersonRow): PersonRecord => ({ ...row, disabled: disabled_at !== null });

export const publicPerson = ({ id, login, name, role, department_id, disabled, locked_until }: Person): Person => ({
  id,
  login,
  name,
  role,
  department_id,
  disabled,
  locked_until,
});

export async function listPeople(db: Db, department: number | null): Promise<Person[]> {
  let query = db
    .selectFrom('people')
    .select(COLUMNS)
    .orderBy(sql`lower(name)`)
    .orderBy('id');
  if (department !== null) query = query.where('department_id', '=', department);
  return (await query.execute()).map((row) => publicPerson(fromRow(row)));
}

export async function getPerson(db: Db, id: number): Promise<PersonRecord | undefined> {
  if (!isRowId(id)) return undefined;
  const row = await db.selectFrom('people').select(COLUMNS).where('id', '=', id).executeTakeFirst();
  return row ? fromRow(row) : undefined;
}

/** The names of the given people, by id (history names who made each change). */
export async function personNames(db: Db, ids: readonly number[]): Promise<Map<number, string>> {
  const wanted = ids.filter(isRowId);
  if (wanted.length === 0) return new Map();
  const rows = await db.selectFrom('people').select(['id', 'name']).where('id', 'in', wanted).execute();
  return new Map(rows.map((r) => [r.id, r.name]));
}

export async function personByLogin(db: Db, login: string): Promise<PersonRecord | undefined> {
  const row = await db.selectFrom('people').select(COLUMNS).where('login_key', '=', loginKey(login)).executeTakeFirst();
  return row ? fromRow(row) : undefined;
}

export async function insertPerson(
  db: Db,
  person: { login: string; name: string; role: PersonRole; department_id: number | null; password_hash: string },
  createdAt: string,
): Promise<number> {
  const { id } = await db
    .insertInto('people')
    .values({ ...person, login_key: loginKey(person.login), created_at: createdAt })
    .returning('id')
    .executeTakeFirstOrThrow();
  return id;
}

export async function updatePerson(
  db: Db,
  id: number,
  change: { name?: string; role?: PersonRole; department_id?: number | null; password_hash?: string; disabled_at?: string | null },
): Promise<void> {
  if (Object.keys(change).length > 0) await db.updateTable('people').set(change).where('id', '=', id).execute();
}

/** An account as a sign-in attempt finds it, the attempt already counted. */
export interface SignInAttempt {
  id: number;
  role: PersonRole;
  department_id: number | null;
  password_hash: string;
  disabled_at: string | null;
  /** Attempts since the last success (this one included); a lock that ran out starts them again. */
  failed_attempts: number;
  locked_until: string | null;
}

/**
 * Counts a sign-in attempt on the account of a login, in one statement before its password is
 * checked, so that attempts sent at once are each counted; a lock that has run out is lifted and the
 * count starts again. Answers the account as counted, or undefined for a login that names nobody.
 */
export async function countSignInAttempt(db: Db, login: string, now: string): Promise<SignInAttempt | undefined> {
  const expired = sql<boolean>`locked_until IS NOT NULL AND locked_until <= ${now}`;
  return db
    .updateTable('people')
    .set({
      failed_attempts: sql<number>`CASE WHEN ${expired} THEN 1 ELSE failed_attempts + 1 END`,
      locked_until: sql<string | null>`CASE WHEN ${expired} THEN NULL ELSE locked_until END`,
    })
    .where('login_key', '=', loginKey(login))
    .returning(['id', 'role', 'department_id', 'password_hash', 'disabled_at', 'failed_attempts', 'locked_until'])
    .executeTakeFirst();
}

/**
 * Counts a sign-in attempt from an address, in one statement: within the window that began at
 * `window_start` the attempts add up; a window over `since` starts again. Answers the count and the
 * window's start.
 */
export async function countAddressAttempt(db: Db, address: string, now: string, since: string): Promise<{ attempts: number; window_start: string }> {
  const stale = sql<boolean>`sign_in_addresses.window_start < ${since}`;
  return db
    .insertInto('sign_in_addresses')
    .values({ address, window_start: now, attempts: 1 })
    .onConflict((oc) =>
      oc.column('address').doUpdateSet({
        attempts: sql<number>`CASE WHEN ${stale} THEN 1 ELSE sign_in_addresses.attempts + 1 END`,
        window_start: sql<string>`CASE WHEN ${stale} THEN ${now} ELSE sign_in_addresses.window_start END`,
      }),
    )
    .returning(['attempts', 'window_start'])
    .executeTakeFirstOrThrow();
}

/** Forgets the addresses whose window ended before `since` (the table stays as small as the recent callers). */
export async function forgetAddressesBefore(db: Db, since: string): Promise<void> {
  await db.deleteFrom('sign_in_addresses').where('window_start', '<', since).execute();
}

/** Locks an account until `until` (a lock already running is kept): true when this call locked it. */
export async function lockAccount(db: Db, id: number, until: string): Promise<boolean> {
  const result = await db.updateTable('people').set({ locked_until: until }).where('id', '=', id).where('locked_until', 'is', null).executeTakeFirst();
  return result.numUpdatedRows > 0n;
}

export async function clearFailedSignIns(db: Db, id: number): Promise<void> {
  await db.updateTable('people').set({ failed_attempts: 0, locked_until: null }).where('id', '=', id).execute();
}

/** A personal token as its person and the registrar see it (never the token itself), its revocation recorded. */
export interface TokenInfo {
  id: number;
  label: string;
  created_at: string;
  last_used_at: string | null;
  revoked: boolean;
  revoked_at: string | null;
  /** Who revoked it, in words. */
  revoked_by: string | null;
  /** Why: revoked by its owner or the registrar, or with a new password for its person. */
  revoked_because: TokenRevocation | null;
}

/** A revocation as recorded: when, by whom (in words), why. */
export interface Revocation {
  at: string;
  by: string;
  because: TokenRevocation;
}

export async function insertToken(db: Db, personId: number, label: string, tokenHash: string, createdAt: string): Promise<number> {
  const { id } = await db
    .insertInto('api_tokens')
    .values({ person_id: personId, label, token_hash: tokenHash, created_at: createdAt })
    .returning('id')
    .executeTakeFirstOrThrow();
  return id;
}

export async function listTokens(db: Db, personId: number): Promise<TokenInfo[]> {
  const rows = await db
    .selectFrom('api_tokens')
    .select(['id', 'label', 'created_at', 'last_used_at', 'revoked_at', 'revoked_by', 'revoked_because'])
    .where('person_id', '=', personId)
    .orderBy('id')
    .execute();
  return rows.map((row) => ({ ...row, revoked: row.revoked_at !== null }));
}

const revoked = (revocation: Revocation) => ({ revoked_at: revocation.at, revoked_by: revocation.by, revoked_because: revocation.because });

/** Revokes one live token of a person: false when they have none with that id. */
export async function revokeToken(db: Db, personId: number, id: number, revocation: Revocation): Promise<boolean> {
  if (!isRowId(id)) return false;
  const result = await db
    .updateTable('api_tokens')
    .set(revoked(revocation))
    .where('id', '=', id)
    .where('person_id', '=', personId)
    .where('revoked_at', 'is', null)
    .executeTakeFirst();
  return result.numUpdatedRows > 0n;
}

/** Revokes every live token of a person; answers how many. */
export async function revokeTokensOf(db: Db, personId: number, revocation: Revocation): Promise<number> {
  const result = await db
    .updateTable('api_tokens')
    .set(revoked(revocation))
    .where('person_id', '=', personId)
    .where('revoked_at', 'is', null)
    .executeTakeFirst();
  return Number(result.numUpdatedRows);
}

const tokenOwner = prepared((db: Db, tokenHash: string) =>
  db
    .selectFrom('api_tokens as t')
    .innerJoin('people as p', 'p.id', 't.person_id')
    .select(['t.id as token_id', 't.label', 'p.id', 'p.role', 'p.department_id', 'p.disabled_at'])
    .where('t.token_hash', '=', tokenHash)
    .where('t.revoked_at', 'is', null),
);

/** The person a live personal token acts for, and the token's id. */
export async function personOfToken(
  db: Db,
  tokenHash: string,
): Promise<{ token_id: number; label: string; id: number; role: PersonRole; department_id: number | null; disabled_at: string | null } | undefined> {
  return tokenOwner.first(db, tokenHash);
}

export async function touchToken(db: Db, id: number, at: string): Promise<void> {
  await db.updateTable('api_tokens').set({ last_used_at: at }).where('id', '=', id).execute();
}

export async function countRegistrars(db: Db): Promise<number> {
  const row = await db
    .selectFrom('people')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('role', '=', 'registrar')
    .where('disabled_at', 'is', null)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}
