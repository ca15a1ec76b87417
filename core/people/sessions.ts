import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import type { Db } from '../db/store';
import { REGISTRAR, type Actor } from '../domain/people';
import { actorOfPerson } from './service';

/**
 * Browser sessions and the server's one-time sign-in links, kept in the store so that every server
 * process on one database knows them (a campus runs several behind one address, without sticky
 * routing). Only digests of the secrets are kept: a copy of the store opens nothing.
 */

/** A session ends after this long, or after this long unused. */
export const SESSION_LIFETIME_MS = 24 * 60 * 60 * 1000;
export const SESSION_IDLE_MS = 8 * 60 * 60 * 1000;
/** A sign-in link works once and only this long. */
export const LOGIN_LINK_LIFETIME_MS = 10 * 60 * 1000;
/** A session's last use is written at most this often (a write per request would be a write per read). */
const SEEN_EVERY_MS = 60_000;

export interface NewSession {
  /** The cookie's value. */
  id: string;
  /** The key the page sends back in its X-Termwise header. */
  key: string;
}

/** Why a session lets nobody in: it has ended (signed out, expired, unknown), or its person may no longer sign in. */
export type SessionCheck = { ok: true; actor: Actor } | { ok: false; reason: 'ended' | 'no_access' };

const secret = (): string => randomBytes(32).toString('hex');
const digest = (text: string): string => createHash('sha256').update(text).digest('hex');
const sameDigest = (a: string, b: string): boolean => a.length === b.length && timingSafeEqual(Buffer.from(a), Buffer.from(b));
const before = (at: Date, ms: number): string => new Date(at.getTime() - ms).toISOString();

/** A new session for an actor: the registrar (by a sign-in link) or a person who signed in. Sessions past their time are forgotten first. */
export async function openSession(db: Db, actor: Actor, at: Date): Promise<NewSession> {
  await db
    .deleteFrom('browser_sessions')
    .where((eb) => eb.or([eb('created_at', '<', before(at, SESSION_LIFETIME_MS)), eb('last_seen_at', '<', before(at, SESSION_IDLE_MS))]))
    .execute();
  const session: NewSession = { id: secret(), key: secret() };
  const now = at.toISOString();
  await db
    .insertInto('browser_sessions')
    .values({ id_digest: digest(session.id), key_digest: digest(session.key), person_id: actor.person, created_at: now, last_seen_at: now })
    .execute();
  return session;
}

const within = (row: { created_at: string; last_seen_at: string }, at: Date): boolean =>
  at.getTime() - Date.parse(row.created_at) <= SESSION_LIFETIME_MS && at.getTime() - Date.parse(row.last_seen_at) <= SESSION_IDLE_MS;

/**
 * Who a session acts for, when it exists, is within its time and the key is its own (its last use
 * refreshed). A person's session reads the person again, so a changed role or a disabled account
 * counts from the next request.
 */
export async function checkSession(db: Db, id: string, key: string, at: Date): Promise<SessionCheck> {
  const idDigest = digest(id);
  const row = await db.selectFrom('browser_sessions').selectAll().where('id_digest', '=', idDigest).executeTakeFirst();
  if (!row) return { ok: false, reason: 'ended' };
  if (!within(row, at)) {
    await endSession(db, id);
    return { ok: false, reason: 'ended' };
  }
  if (!sameDigest(digest(key), row.key_digest)) return { ok: false, reason: 'ended' };
  if (at.getTime() - Date.parse(row.last_seen_at) > SEEN_EVERY_MS)
    await db.updateTable('browser_sessions').set({ last_seen_at: at.toISOString() }).where('id_digest', '=', idDigest).execute();
  if (row.person_id === null) return { ok: true, actor: REGISTRAR };
  const actor = await actorOfPerson(db, row.person_id);
  return actor ? { ok: true, actor } : { ok: false, reason: 'no_access' };
}

/** Whether a session exists and is within its time (nothing refreshed). */
export async function sessionLive(db: Db, id: string, at: Date): Promise<boolean> {
  const row = await db.selectFrom('browser_sessions').select(['created_at', 'last_seen_at']).where('id_digest', '=', digest(id)).executeTakeFirst();
  return row !== undefined && within(row, at);
}

export async function endSession(db: Db, id: string): Promise<void> {
  await db.deleteFrom('browser_sessions').where('id_digest', '=', digest(id)).execute();
}

/** Ends every browser session (the API token was regenerated) and every sign-in link. */
export async function endAllSessions(db: Db): Promise<void> {
  await db.deleteFrom('browser_sessions').execute();
  await db.deleteFrom('sign_in_links').execute();
}

/** A new one-time sign-in link's secret (links past their time are forgotten first). */
export async function issueSignInLink(db: Db, at: Date): Promise<string> {
  await db.deleteFrom('sign_in_links').where('issued_at', '<', before(at, LOGIN_LINK_LIFETIME_MS)).execute();
  const nonce = secret();
  await db
    .insertInto('sign_in_links')
    .values({ digest: digest(nonce), issued_at: at.toISOString() })
    .execute();
  return nonce;
}

/** Uses a sign-in link up: true once for a link issued and within its time, whichever process is asked, however many ask at once. */
export async function useSignInLink(db: Db, nonce: string, at: Date): Promise<boolean> {
  const used = await db
    .deleteFrom('sign_in_links')
    .where('digest', '=', digest(nonce))
    .where('issued_at', '>=', before(at, LOGIN_LINK_LIFETIME_MS))
    .returning('digest')
    .executeTakeFirst();
  return used !== undefined;
}

/** Whether a sign-in link still works (not used, within its time). */
export async function signInLinkLive(db: Db, nonce: string, at: Date): Promise<boolean> {
  const row = await db
    .selectFrom('sign_in_links')
    .select('digest')
    .where('digest', '=', digest(nonce))
    .where('issued_at', '>=', before(at, LOGIN_LINK_LIFETIME_MS))
    .executeTakeFirst();
  return row !== undefined;
}
