import type { CoreContext } from '../context';
import { CoreError, invalid, notFound } from '../domain/errors';
import { describeChange, type ChangeOperation, type TermChange } from '../domain/history';
import { sectionLabel } from '../domain/meetings';
import type { Semester, Term } from '../domain/terms';
import { inTransaction } from '../db/transactions';
import { takeLocks } from '../db/locks';
import { termLocks } from './locks';
import { changeById, changesOfBatch, laterChanges, listChanges, termRevision, type ChangeNarrowing, type StoredChange } from './history-repo';
import { changesInWords, parseState } from './history';
import { applyMeetingState, applyTogether, instructorsById } from './replay';
import { eachInSavepoint } from '../db/savepoints';
import { termOf, currentTerm } from './terms';

/** The changes a history read lists at most (newest first); `since_revision` pages on. */
export const HISTORY_PAGE = 2_000;

export interface HistoryQuery extends ChangeNarrowing {
  year?: number | undefined;
  semester?: Semester | undefined;
  limit?: number | undefined;
}

export interface TermHistory {
  year: number;
  semester: Semester;
  /** The term's revision now. */
  revision: number;
  /** Newest first. */
  changes: TermChange[];
}

/** A term's changes (the current term unless named), newest first, filtered; only the caller's department's. */
export async function termHistory(ctx: CoreContext, query: HistoryQuery): Promise<TermHistory> {
  const term = termOf(query, await currentTerm(ctx));
  const rows = await listChanges(ctx.db, ctx.department, { ...query, term, limit: Math.min(query.limit ?? HISTORY_PAGE, HISTORY_PAGE) });
  return { ...term, revision: await termRevision(ctx.db, ctx.department, term), changes: await changesInWords(ctx, rows) };
}

/** A term's revision: the number of changes recorded for it (the current term unless named). */
export async function termRevisionOf(ctx: CoreContext, asked: Partial<Term>): Promise<{ year: number; semester: Semester; revision: number }> {
  const term = termOf(asked, await currentTerm(ctx));
  return { ...term, revision: await termRevision(ctx.db, ctx.department, term) };
}

export interface UndoResult {
  /** The changes undone, and the changes the undo recorded (operation `restore`). */
  undone: number;
  revision: number;
  changes: TermChange[];
}

const when = (at: string): string => `${at.slice(0, 16).replace('T', ' ')} UTC`;

/**
 * Undoes one change, or one batch (an import, an apply, a publish), through the checked write path:
 * each meeting goes back to its version before. Refused in words, and nothing changes, when a later
 * change touched one of its meetings, or a rule refuses the old version now.
 */
export async function undoChanges(ctx: CoreContext, input: { change_id?: number | undefined; batch?: string | undefined }): Promise<UndoResult> {
  if ((input.change_id === undefined) === (input.batch === undefined)) throw invalid('Name one change (change_id) or one batch (batch) to undo');
  return inTransaction(ctx.db, async (db) => {
    const tx: CoreContext = { ...ctx, db };
    const found: StoredChange[] =
      input.change_id !== undefined
        ? [await changeById(db, ctx.department, input.change_id)].filter((c): c is StoredChange => c !== undefined)
        : await changesOfBatch(db, ctx.department, input.batch as string);
    const first = found[0];
    if (!first) throw notFound(input.change_id !== undefined ? `No change with id ${input.change_id}` : `No changes in batch ${input.batch ?? ''}`);
    const term: Term = { year: first.year, semester: first.semester as Semester };
    await takeLocks(db, termLocks([term]));
    const last = Math.max(...found.map((c) => c.revision));
    const inBatch = new Set(found.map((c) => c.id));
    const later = await laterChanges(db, ctx.department, term, [...new Set(found.map((c) => c.meeting_uid))], first.revision - 1);
    for (const change of found) {
      const next = later.get(change.meeting_uid);
      if (next && !inBatch.has(next.id) && next.revision > last) {
        const [words] = await changesInWords(tx, [next]);
        throw new CoreError(
          'conflict',
          `Cannot undo: ${sectionLabel(change.course_code, change.section_name)} was changed after it, by ${words?.who ?? 'someone'} at ${when(next.changed_at)} (${describeChange(next.operation as ChangeOperation, parseState(next.before_value), parseState(next.after_value))}). Undo that change first`,
          { conflicts: [`${sectionLabel(change.course_code, change.section_name)} was changed later`] },
        );
      }
    }
    // Each meeting goes back to its earliest version before the batch, the latest changes undone first.
    const targets = new Map<string, StoredChange>();
    for (const change of [...found].sort((a, b) => a.revision - b.revision)) if (!targets.has(change.meeting_uid)) targets.set(change.meeting_uid, change);
    const ordered = [...targets.values()].sort((a, b) => b.revision - a.revision);
    // Removals first, so that a meeting put back does not meet one the batch added in its place.
    ordered.sort((a, b) => Number(parseState(a.before_value) !== null) - Number(parseState(b.before_value) !== null));
    const before = await termRevision(db, ctx.department, term);
    const restore = (change: StoredChange, deferred?: ReadonlySet<number>): Promise<boolean> =>
      applyMeetingState(tx, term, change.meeting_uid, parseState(change.before_value), 'restore', instructorsById, undefined, deferred);
    try {
      // One by one (in a savepoint: a refusal leaves nothing half done) ...
      await inTransaction(db, async () => {
        for (const change of ordered) {
          try {
            await restore(change);
          } catch (error) {
            if (error instanceof CoreError && (error.code === 'conflict' || error.code === 'invalid'))
              throw new CoreError(error.code, `Cannot undo ${sectionLabel(change.course_code, change.section_name)}: ${error.message}`, error.details);
            throw error;
          }
        }
      });
    } catch (refusal) {
      // ... else together, when the batch's meetings need one another's places back (a swap undone).
      if (!(refusal instanceof CoreError) || refusal.code !== 'conflict' || ordered.length < 2) throw refusal;
      const together = await eachInSavepoint(db, [ordered], (changes) =>
        applyTogether(tx, term, 'Undoing these changes together', changes, (c) => c.meeting_uid, restore),
      );
      if (together.written.length === 0) throw refusal;
    }
    const revision = await termRevision(db, ctx.department, term);
    const recorded = await listChanges(db, ctx.department, { term, since_revision: before, limit: HISTORY_PAGE });
    return { undone: found.length, revision, changes: await changesInWords(tx, recorded) };
  });
}
