import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import type { Db } from '../db/store';
import { REGISTRAR, type AccessChange, type Actor } from '../domain/people';
import { actorOf } from './service';
import {
  deleteEverySessionAndLink,
  deleteSession,
  forgetSessionsBefore,
  insertLink,
  insertSession,
  linkLive,
  sessionRow,
  takeLink,
  touchSession,
} from './sessions-repo';

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

/**
 * Why a session lets nobody in: it has ended (signed out, expired, unknown), its person may no
 * longer sign in, or a change to its person's access ended it (a new password, a new role).
 */
export type SessionCheck = { ok: true; actor: Actor } | { ok: false; reason: 'ended' | 'no_access' | AccessChange };

const secret = (): string => randomBytes(32).toString('hex');
const digest = (text: string): string => createHash('sha256').update(text).digest('hex');
const sameDigest = (a: string, b: string): boolean => a.length === b.length && timingSafeEqual(Buffer.from(a), Buffer.from(b));
const before = (at: Date, ms: number): string => new Date(at.getTime() - ms).toISOString();

/** A new session for an actor: the registrar (by a sign-in link) or a person who signed in. Sessions past their time are forgotten first. */
export async function openSession(db: Db, actor: Actor, at: Date): Promise<NewSession> {
  await forgetSessionsBefore(db, before(at, SESSION_LIFETIME_MS), before(at, SESSION_IDLE_MS));
  const session: NewSession = { id: secret(), key: secret() };
  const now = at.toISOString();
  await insertSession(db, { id_digest: digest(session.id), key_digest: digest(session.key), person_id: actor.person, created_at: now, last_seen_at: now });
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
  const row = await sessionRow(db, idDigest);
  if (!row) return { ok: false, reason: 'ended' };
  if (!within(row, at)) {
    await deleteSession(db, idDigest);
    return { ok: false, reason: 'ended' };
  }
  if (!sameDigest(digest(key), row.key_digest)) return { ok: false, reason: 'ended' };
  if (row.ended_because) return { ok: false, reason: row.ended_because };
  if (at.getTime() - Date.parse(row.last_seen_at) > SEEN_EVERY_MS) await touchSession(db, idDigest, at.toISOString());
  if (row.person_id === null) return { ok: true, actor: REGISTRAR };
  // The person as they are now (read with the session): a changed role or a disabled account counts at once.
  if (row.found === null || row.role === null || row.disabled_at !== null) return { ok: false, reason: 'no_access' };
  return { ok: true, actor: actorOf({ id: row.person_id, role: row.role, department_id: row.department_id }) };
}

/** Whether a session exists and is within its time (nothing refreshed). */
export async function sessionLive(db: Db, id: string, at: Date): Promise<boolean> {
  const row = await sessionRow(db, digest(id));
  return row !== undefined && !row.ended_because && within(row, at);
}

export async function endSession(db: Db, id: string): Promise<void> {
  await deleteSession(db, digest(id));
}

/** Ends every browser session (the API token was regenerated) and every sign-in link. */
export async function endAllSessions(db: Db): Promise<void> {
  await deleteEverySessionAndLink(db);
}

/** A new one-time sign-in link's secret (links past their time are forgotten first). */
export async function issueSignInLink(db: Db, at: Date): Promise<string> {
  const nonce = secret();
  await insertLink(db, digest(nonce), before(at, LOGIN_LINK_LIFETIME_MS), at.toISOString());
  return nonce;
}

/** Uses a sign-in link up: true once for a link issued and within its time, whichever process is asked, however many ask at once. */
export async function useSignInLink(db: Db, nonce: string, at: Date): Promise<boolean> {
  return takeLink(db, digest(nonce), before(at, LOGIN_LINK_LIFETIME_MS));
}

/** Whether a sign-in link still works (not used, within its time). */
export async function signInLinkLive(db: Db, nonce: string, at: Date): Promise<boolean> {
  return linkLive(db, digest(nonce), before(at, LOGIN_LINK_LIFETIME_MS));
}
