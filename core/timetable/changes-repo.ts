import { sql, type Selectable } from 'kysely';
import type { Db } from '../db/store';
import type { ScheduleChangesTable } from '../db/tables';
import { ROWS_PER_STATEMENT } from '../db/batches';
import { prepared } from '../db/prepared';
import { isPostgres } from '../db/transactions';
import type { Term } from '../domain/terms';
import type { ChangeOperation, MeetingState } from '../domain/meeting-changes';

/**
 * The timetable's change history (schedule_changes) and each term's revision (term_revisions).
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

/** SQLite (one writer at a time): the term's revision raised by the changes' count, answering the new revision. */
const raiseSqliteRevision = prepared((db: Db, department: number, year: number, semester: string, by: number) =>
  db
    .insertInto('term_revisions')
    .values({ department_id: department, year, semester, revision: by })
    .onConflict((oc) => oc.columns(['department_id', 'year', 'semester']).doUpdateSet({ revision: sql`term_revisions.revision + ${by}` }))
    .returning('revision'),
);

const insertNumberedChanges = prepared((db: Db, rows: ChangeRow[]) => db.insertInto('schedule_changes').values(rows));

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
 * change. The revision is one counter on every store (term_revisions): its row is taken and raised
 * with the changes (writers of one term take turns there), and the changes are numbered from it.
 */
export async function recordChanges(db: Db, stamp: ChangeStamp, term: Term, records: readonly ChangeRecord[]): Promise<void> {
  for (let start = 0; start < records.length; start += ROWS_PER_STATEMENT) {
    const rows = changeRows(stamp, term, 0, records.slice(start, start + ROWS_PER_STATEMENT));
    if (isPostgres(db)) {
      await recordInOneStatement.run(db, stamp.department, term.year, term.semester, rows.length, rows);
      continue;
    }
    const raised = await raiseSqliteRevision.first(db, stamp.department, term.year, term.semester, rows.length);
    const first = Number(raised?.revision ?? rows.length) - rows.length + 1;
    await insertNumberedChanges.run(
      db,
      rows.map((row, i) => ({ ...row, revision: first + i })),
    );
  }
}

const revisionRow = prepared((db: Db, department: number, year: number, semester: string) =>
  db.selectFrom('term_revisions').select('revision').where('department_id', '=', department).where('year', '=', year).where('semester', '=', semester),
);

/** A department's term revision: its counter (0 before its first change). */
export async function termRevision(db: Db, department: number, term: Term): Promise<number> {
  const row = await revisionRow.first(db, department, term.year, term.semester);
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

/**
 * The department's recorded changes of a meeting renamed to the id another store knows it by (a
 * laptop's first fetch matching its meeting to the server's): its history follows it, versions too.
 */
export async function renameChangesUid(db: Db, department: number, from: string, to: string): Promise<void> {
  // Ids are letters, digits, - and _ (meetingUidField), so the version's JSON holds them as written.
  const [was, now] = [`"uid":"${from}"`, `"uid":"${to}"`];
  await db
    .updateTable('schedule_changes')
    .set({
      meeting_uid: to,
      before_value: sql<string | null>`replace(before_value, ${was}, ${now})`,
      after_value: sql<string | null>`replace(after_value, ${was}, ${now})`,
    })
    .where('department_id', '=', department)
    .where('meeting_uid', '=', from)
    .execute();
}
