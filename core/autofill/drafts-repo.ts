import type { Db } from '../db/store';
import type { AutofillDraftsTable } from '../db/tables';

/** An auto-fill draft's row (its progress and result as JSON text). */
export type DraftRow = Omit<AutofillDraftsTable, 'cancel_asked'> & { cancel_asked: number };

/** `applied` while one process applies the draft: nobody else may. */
export const APPLYING = -1;

export async function insertDraft(db: Db, row: Omit<DraftRow, 'cancel_asked'>): Promise<void> {
  await db.insertInto('autofill_drafts').values(row).execute();
}

/** A department's draft by id (another department's is none). */
export async function draftRow(db: Db, department: number, id: string): Promise<DraftRow | undefined> {
  return db.selectFrom('autofill_drafts').selectAll().where('id', '=', id).where('department_id', '=', department).executeTakeFirst();
}

/** A campus draft by id (the registrar's, read by each department with a part in it). */
export async function campusDraftRow(db: Db, id: string): Promise<DraftRow | undefined> {
  return db.selectFrom('autofill_drafts').selectAll().where('id', '=', id).where('source', '=', 'campus').executeTakeFirst();
}

/** The campus drafts made since `since`, newest first. */
export async function campusDraftRows(db: Db, since: string, limit: number): Promise<DraftRow[]> {
  return db
    .selectFrom('autofill_drafts')
    .selectAll()
    .where('source', '=', 'campus')
    .where('made_at', '>=', since)
    .orderBy('made_at', 'desc')
    .orderBy('id')
    .limit(limit)
    .execute();
}

/** The department's drafts being made whose process still beats (a heartbeat since `aliveSince`). */
export async function countRunning(db: Db, department: number, aliveSince: string): Promise<number> {
  const row = await db
    .selectFrom('autofill_drafts')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('department_id', '=', department)
    .where('status', '=', 'running')
    .where('heartbeat_at', '>=', aliveSince)
    .executeTakeFirst();
  return Number(row?.n ?? 0);
}

/** Forgets finished drafts made before `before`, and the department's oldest finished ones beyond `keep`. */
export async function forgetDrafts(db: Db, department: number, before: string, keep: number): Promise<void> {
  await db.deleteFrom('autofill_drafts').where('status', '!=', 'running').where('made_at', '<', before).execute();
  const kept = await db
    .selectFrom('autofill_drafts')
    .select('id')
    .where('department_id', '=', department)
    .where('status', '!=', 'running')
    .orderBy('made_at', 'desc')
    .orderBy('id')
    .limit(keep)
    .execute();
  let old = db.deleteFrom('autofill_drafts').where('department_id', '=', department).where('status', '!=', 'running');
  if (kept.length > 0)
    old = old.where(
      'id',
      'not in',
      kept.map((k) => k.id),
    );
  if (kept.length >= keep) await old.execute();
}

/** Writes a running draft's progress and heartbeat; answers whether someone asked it to stop. */
export async function beat(db: Db, id: string, progress: string, at: string): Promise<boolean> {
  const row = await db
    .updateTable('autofill_drafts')
    .set({ progress, heartbeat_at: at })
    .where('id', '=', id)
    .where('status', '=', 'running')
    .returning('cancel_asked')
    .executeTakeFirst();
  return (row?.cancel_asked ?? 0) !== 0;
}

export async function finishDraft(db: Db, id: string, end: Pick<DraftRow, 'status' | 'progress' | 'draft' | 'error' | 'heartbeat_at'>): Promise<void> {
  await db.updateTable('autofill_drafts').set(end).where('id', '=', id).execute();
}

export async function askToStop(db: Db, id: string): Promise<void> {
  await db.updateTable('autofill_drafts').set({ cancel_asked: 1 }).where('id', '=', id).execute();
}

/** Takes the draft to apply it: true for one caller only, whichever process it asks. */
export async function claimToApply(db: Db, id: string): Promise<boolean> {
  const taken = await db
    .updateTable('autofill_drafts')
    .set({ applied: APPLYING })
    .where('id', '=', id)
    .where('applied', 'is', null)
    .where('status', 'in', ['done', 'cancelled'])
    .returning('id')
    .executeTakeFirst();
  return taken !== undefined;
}

/** Records what applying stored (or, with null, that it failed and the draft may be applied again). */
export async function settleApply(db: Db, id: string, applied: number | null): Promise<void> {
  await db.updateTable('autofill_drafts').set({ applied }).where('id', '=', id).execute();
}
