import type { Db } from '../db/store';
import type { Term } from '../domain/terms';

/** Campus sync's own tables: a laptop's sync base per term (sync_bases) and the answers kept under idempotency keys. */

export interface SyncBase {
  base_revision: number;
  published_through: number;
  synced_at: string;
  /** The server the base came from (its store id) and the department it was fetched for (its code); null before either is known. */
  server_id: string | null;
  server_department: string | null;
}

/** A laptop's sync base for a term; undefined before its first fetch or publish. */
export async function syncBase(db: Db, department: number, term: Term): Promise<SyncBase | undefined> {
  return db
    .selectFrom('sync_bases')
    .select(['base_revision', 'published_through', 'synced_at', 'server_id', 'server_department'])
    .where('department_id', '=', department)
    .where('year', '=', term.year)
    .where('semester', '=', term.semester)
    .executeTakeFirst();
}

export async function saveSyncBase(db: Db, department: number, term: Term, base: SyncBase): Promise<void> {
  await db
    .insertInto('sync_bases')
    .values({ department_id: department, year: term.year, semester: term.semester, ...base })
    .onConflict((oc) => oc.columns(['department_id', 'year', 'semester']).doUpdateSet(base))
    .execute();
}

/** What an idempotency key was sent for: the operation, the person, the term and a digest of the request. */
export interface KeyedRequest {
  operation: string;
  person_id: number | null;
  term: Term;
  digest: string;
}

/** The answer kept under an idempotency key, if any, with what it was sent for. */
export async function keptAnswer(db: Db, department: number, key: string): Promise<(KeyedRequest & { response: string }) | undefined> {
  const row = await db
    .selectFrom('idempotency_keys')
    .select(['operation', 'response', 'person_id', 'year', 'semester', 'request_digest'])
    .where('department_id', '=', department)
    .where('key', '=', key)
    .executeTakeFirst();
  if (!row) return undefined;
  return {
    operation: row.operation,
    response: row.response,
    person_id: row.person_id,
    term: { year: Number(row.year ?? 0), semester: (row.semester ?? '') as Term['semester'] },
    digest: row.request_digest ?? '',
  };
}

export async function keepAnswer(db: Db, department: number, key: string, request: KeyedRequest, response: unknown, at: string): Promise<void> {
  await db
    .insertInto('idempotency_keys')
    .values({
      department_id: department,
      key,
      operation: request.operation,
      response: JSON.stringify(response),
      created_at: at,
      person_id: request.person_id,
      year: request.term.year,
      semester: request.term.semester,
      request_digest: request.digest,
    })
    .execute();
}

/** Removes the answers kept under keys made before `before` (an ISO time): a key is answered again only so long. */
export async function forgetKeysBefore(db: Db, before: string): Promise<void> {
  await db.deleteFrom('idempotency_keys').where('created_at', '<', before).execute();
}
