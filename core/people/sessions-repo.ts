import type { Db } from '../db/store';
import type { BrowserSessionsTable } from '../db/tables';
import type { AccessChange, PersonRole } from '../domain/people';

/** Browser sessions and one-time sign-in links as stored (digests of their secrets only). */

export async function forgetSessionsBefore(db: Db, createdBefore: string, seenBefore: string): Promise<void> {
  await db
    .deleteFrom('browser_sessions')
    .where((eb) => eb.or([eb('created_at', '<', createdBefore), eb('last_seen_at', '<', seenBefore)]))
    .execute();
}

export async function insertSession(db: Db, row: BrowserSessionsTable): Promise<void> {
  await db.insertInto('browser_sessions').values(row).execute();
}

/** A session and, in the same read, its person as they are now (null fields: no such person). */
export type SessionRow = BrowserSessionsTable & { role: PersonRole | null; department_id: number | null; disabled_at: string | null; found: number | null };

export async function sessionRow(db: Db, idDigest: string): Promise<SessionRow | undefined> {
  return db
    .selectFrom('browser_sessions as s')
    .leftJoin('people as p', 'p.id', 's.person_id')
    .select([
      's.id_digest',
      's.key_digest',
      's.person_id',
      's.created_at',
      's.last_seen_at',
      's.ended_because',
      'p.role',
      'p.department_id',
      'p.disabled_at',
      'p.id as found',
    ])
    .where('s.id_digest', '=', idDigest)
    .executeTakeFirst();
}

export async function touchSession(db: Db, idDigest: string, at: string): Promise<void> {
  await db.updateTable('browser_sessions').set({ last_seen_at: at }).where('id_digest', '=', idDigest).execute();
}

/** Ends every live session of a person, saying why (each is kept, so that its page can be told). */
export async function endSessionsOf(db: Db, personId: number, because: AccessChange): Promise<void> {
  await db.updateTable('browser_sessions').set({ ended_because: because }).where('person_id', '=', personId).where('ended_because', 'is', null).execute();
}

export async function deleteSession(db: Db, idDigest: string): Promise<void> {
  await db.deleteFrom('browser_sessions').where('id_digest', '=', idDigest).execute();
}

/** Every session and every sign-in link gone (the API token was regenerated). */
export async function deleteEverySessionAndLink(db: Db): Promise<void> {
  await db.deleteFrom('browser_sessions').execute();
  await db.deleteFrom('sign_in_links').execute();
}

export async function insertLink(db: Db, digest: string, issuedBefore: string, at: string): Promise<void> {
  await db.deleteFrom('sign_in_links').where('issued_at', '<', issuedBefore).execute();
  await db.insertInto('sign_in_links').values({ digest, issued_at: at }).execute();
}

/** Deletes a link issued since `since`: true for the one caller that took it. */
export async function takeLink(db: Db, digest: string, since: string): Promise<boolean> {
  const taken = await db.deleteFrom('sign_in_links').where('digest', '=', digest).where('issued_at', '>=', since).returning('digest').executeTakeFirst();
  return taken !== undefined;
}

export async function linkLive(db: Db, digest: string, since: string): Promise<boolean> {
  const row = await db.selectFrom('sign_in_links').select('digest').where('digest', '=', digest).where('issued_at', '>=', since).executeTakeFirst();
  return row !== undefined;
}
