import { sql } from 'kysely';
import type { Selectable } from 'kysely';
import type { Db } from '../db/store';
import type { ScheduleChangesTable } from '../db/tables';
import { ROWS_PER_STATEMENT } from '../db/batches';
import { prepared } from '../db/prepared';
import { isPostgres } from '../db/transactions';
import type { Term } from '../domain/terms';
import type { ChangeOperation, MeetingState } from '../domain/history';

/**
 * The timetable's change history (schedule_changes), each term's revision (term_revisions), a
 * laptop's sync base (sync_bases) and the answers kept under idempotency keys.
 */

/** Who made a write, when, as part of which batch and operation: one per write request. */
export interface ChangeStamp {
  department: number;
  at: string;
  person_id: number | null;
  token_label: string | null;
  caller: string;
  batch: string;
  /** `server` for a change a laptop brought in from the campus server. */
  origin: 'local' | 'server';
}

/** One meeting a write changed. */
export interface ChangeRecord {
  operation: ChangeOperation;
  uid: string;
  course_code: string;
  section_name: string;
  before: MeetingState | null;
  after: MeetingState | null;
}

/** A recorded change as stored. */
export type StoredChange = Selectable<ScheduleChangesTable>;

const CHANGE_COLUMNS = [
  'id',
  'department_id',
  'year',
  'semester',
  'revision',
  'batch',
  'operation',
  'meeting_uid',
  'course_code',
  'section_name',
  'person_id',
  'token_label',
  'caller',
  'changed_at',
  'before_value',
  'after_value',
  'origin',
] as const;

const json = (state: MeetingState | null): string | null => (state === null ? null : JSON.stringify(state));

type ChangeRow = Omit<StoredChange, 'id'>;

/** The row of each change, numbered from `first`. */
function changeRows(stamp: ChangeStamp, term: Term, first: number, records: readonly ChangeRecord[]): ChangeRow[] {
  return records.map((r, i) => ({
    department_id: stamp.department,
    year: term.year,
    semester: term.semester,
    revision: first + i,
    batch: stamp.batch,
    operation: r.operation,
    meeting_uid: r.uid,
    course_code: r.course_code,
    section_name: r.section_name,
    person_id: stamp.person_id,
    token_label: stamp.token_label,
    caller: stamp.caller,
    changed_at: stamp.at,
    before_value: json(r.before),
    after_value: json(r.after),
    origin: stamp.origin,
  }));
}

const ROW_TYPES: Record<keyof ChangeRow, 'integer' | 'text'> = {
  department_id: 'integer',
  year: 'integer',
  semester: 'text',
  revision: 'integer',
  batch: 'text',
  operation: 'text',
  meeting_uid: 'text',
  course_code: 'text',
  section_name: 'text',
  person_id: 'integer',
  token_label: 'text',
  caller: 'text',
  changed_at: 'text',
  before_value: 'text',
  after_value: 'text',
  origin: 'text',
};
const NUMBERED_COLUMNS = (Object.keys(ROW_TYPES) as (keyof ChangeRow)[]).filter((c) => c !== 'revision');

/** SQLite (one writer at a time): the changes inserted after the highest revision recorded, in one statement. */
const insertFollowingChanges = prepared((_db: Db, department: number, year: number, semester: string, rows: ChangeRow[]) => {
  const highest = sql`COALESCE((SELECT revision FROM schedule_changes WHERE department_id = ${department} AND year = ${year} AND semester = ${semester} ORDER BY revision DESC LIMIT 1), 0)`;
  const columns = sql.join(NUMBERED_COLUMNS.map((c) => sql.ref(c)));
  const values = rows.map((row, i) => sql`(${sql.join(NUMBERED_COLUMNS.map((c) => sql`${row[c]}`))}, ${highest} + ${sql.lit(i + 1)})`);
  return sql`INSERT INTO schedule_changes (${columns}, revision) VALUES ${sql.join(values)}`;
});

/** PostgreSQL: the revision row taken and raised, and the changes numbered from it, in one statement (one round trip). */
const recordInOneStatement = prepared((_db: Db, department: number, year: number, semester: string, by: number, rows: ChangeRow[]) => {
  const columns = sql.join(NUMBERED_COLUMNS.map((c) => sql.ref(c)));
  const values = rows.map((row, i) => sql`(${sql.join(NUMBERED_COLUMNS.map((c) => sql`${row[c]}::${sql.raw(ROW_TYPES[c])}`))}, ${sql.lit(i + 1)})`);
  return sql`WITH r AS (
      INSERT INTO term_revisions (department_id, year, semester, revision) VALUES (${department}, ${year}, ${semester}, ${by})
      ON CONFLICT (department_id, year, semester) DO UPDATE SET revision = term_revisions.revision + ${by} RETURNING revision)
    INSERT INTO schedule_changes (${columns}, revision)
    SELECT ${sql.join(NUMBERED_COLUMNS.map((c) => sql`v.${sql.ref(c)}`))}, r.revision - ${by} + v.k FROM r, (VALUES ${sql.join(values)}) AS v(${columns}, k)
`;
});

/**
 * Records the changes of one write in its transaction and advances the term's revision by one per
 * change. Built once per shape (prepared), one statement: every booking records.
 * PostgreSQL numbers them holding the term's revision row (writers of one term take turns there).
 */
export async function recordChanges(db: Db, stamp: ChangeStamp, term: Term, records: readonly ChangeRecord[]): Promise<void> {
  for (let start = 0; start < records.length; start += ROWS_PER_STATEMENT) {
    const rows = changeRows(stamp, term, 0, records.slice(start, start + ROWS_PER_STATEMENT));
    if (isPostgres(db)) await recordInOneStatement.run(db, stamp.department, term.year, term.semester, rows.length, rows);
    else await insertFollowingChanges.run(db, stamp.department, term.year, term.semester, rows);
  }
}

const highestRevision = prepared((db: Db, department: number, year: number, semester: string) =>
  db
    .selectFrom('schedule_changes')
    .select('revision')
    .where('department_id', '=', department)
    .where('year', '=', year)
    .where('semester', '=', semester)
    .orderBy('revision', 'desc')
    .limit(1),
);

/** A department's term revision: the highest recorded for it (0 before its first change). */
export async function termRevision(db: Db, department: number, term: Term): Promise<number> {
  const row = await highestRevision.first(db, department, term.year, term.semester);
  return Number(row?.revision ?? 0);
}

/** What a history read narrows to, beyond its term: a section, a person, a meeting, a batch, changes after a revision. */
export interface ChangeNarrowing {
  course_code?: string | undefined;
  section_name?: string | undefined;
  person_id?: number | undefined;
  meeting_uid?: string | undefined;
  since_revision?: number | undefined;
  batch?: string | undefined;
}

export interface ChangeFilter extends ChangeNarrowing {
  term: Term;
  limit: number;
}

/** A department's changes of a term, newest first, filtered. */
export async function listChanges(db: Db, department: number, filter: ChangeFilter): Promise<StoredChange[]> {
  let query = db
    .selectFrom('schedule_changes')
    .select(CHANGE_COLUMNS)
    .where('department_id', '=', department)
    .where('year', '=', filter.term.year)
    .where('semester', '=', filter.term.semester);
  if (filter.since_revision !== undefined) query = query.where('revision', '>', filter.since_revision);
  if (filter.course_code !== undefined) query = query.where('course_code', '=', filter.course_code);
  if (filter.section_name !== undefined) query = query.where('section_name', '=', filter.section_name);
  if (filter.person_id !== undefined) query = query.where('person_id', '=', filter.person_id);
  if (filter.meeting_uid !== undefined) query = query.where('meeting_uid', '=', filter.meeting_uid);
  if (filter.batch !== undefined) query = query.where('batch', '=', filter.batch);
  return query.orderBy('revision', 'desc').limit(filter.limit).execute();
}

/** One change of the department, by id. */
export async function changeById(db: Db, department: number, id: number): Promise<StoredChange | undefined> {
  return db.selectFrom('schedule_changes').select(CHANGE_COLUMNS).where('department_id', '=', department).where('id', '=', id).executeTakeFirst();
}

/** The changes of one batch (one write), in the order they were made. */
export async function changesOfBatch(db: Db, department: number, batch: string): Promise<StoredChange[]> {
  return db
    .selectFrom('schedule_changes')
    .select(CHANGE_COLUMNS)
    .where('department_id', '=', department)
    .where('batch', '=', batch)
    .orderBy('revision')
    .execute();
}

/** The latest change of each of the given meetings after a revision (of the department's term). */
export async function laterChanges(db: Db, department: number, term: Term, uids: readonly string[], after: number): Promise<Map<string, StoredChange>> {
  const latest = new Map<string, StoredChange>();
  if (uids.length === 0) return latest;
  const rows = await db
    .selectFrom('schedule_changes')
    .select(CHANGE_COLUMNS)
    .where('department_id', '=', department)
    .where('year', '=', term.year)
    .where('semester', '=', term.semester)
    .where('revision', '>', after)
    .where('meeting_uid', 'in', [...uids])
    .orderBy('revision')
    .execute();
  for (const row of rows) latest.set(row.meeting_uid, row);
  return latest;
}

/** The changes of a department's term after a revision or a change id, oldest first. */
export async function changesAfter(db: Db, department: number, term: Term, after: { revision?: number; id?: number }): Promise<StoredChange[]> {
  let query = db
    .selectFrom('schedule_changes')
    .select(CHANGE_COLUMNS)
    .where('department_id', '=', department)
    .where('year', '=', term.year)
    .where('semester', '=', term.semester);
  if (after.revision !== undefined) query = query.where('revision', '>', after.revision);
  if (after.id !== undefined) query = query.where('id', '>', after.id);
  return query.orderBy('revision').execute();
}

export interface SyncBase {
  base_revision: number;
  published_through: number;
  synced_at: string;
}

/** A laptop's sync base for a term; undefined before its first fetch or publish. */
export async function syncBase(db: Db, department: number, term: Term): Promise<SyncBase | undefined> {
  return db
    .selectFrom('sync_bases')
    .select(['base_revision', 'published_through', 'synced_at'])
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

/** The last change id recorded (0 when none): later ones are what a laptop has not yet published. */
export async function lastChangeId(db: Db, department: number, term: Term): Promise<number> {
  const row = await db
    .selectFrom('schedule_changes')
    .select((eb) => eb.fn.max('id').as('id'))
    .where('department_id', '=', department)
    .where('year', '=', term.year)
    .where('semester', '=', term.semester)
    .executeTakeFirst();
  return Number(row?.id ?? 0);
}

/** The answer kept under an idempotency key, if any. */
export async function keptAnswer(db: Db, department: number, key: string): Promise<{ operation: string; response: string } | undefined> {
  return db.selectFrom('idempotency_keys').select(['operation', 'response']).where('department_id', '=', department).where('key', '=', key).executeTakeFirst();
}

export async function keepAnswer(db: Db, department: number, key: string, operation: string, response: unknown, at: string): Promise<void> {
  await db
    .insertInto('idempotency_keys')
    .values({ department_id: department, key, operation, response: JSON.stringify(response), created_at: at })
    .execute();
}
