import type { CoreContext } from '../context';
import { CoreError, invalid, notFound } from '../domain/errors';
import { describeChange, termOfState, type ChangeOperation, type TermChange } from '../domain/meeting-changes';
import { sectionLabel } from '../domain/meetings';
import { termKey, type Semester, type Term } from '../domain/terms';
import { inTransaction } from '../db/transactions';
import { lockTermsOfMeetings, changesInWords, parseState, applyMeetingState, applyTogether, instructorsById, termOf, currentTerm } from '../timetable';
import { changeById, changesOfBatch, laterChanges, listChanges, termRevision, type ChangeNarrowing, type StoredChange } from '../timetable/changes-repo';
import { eachInSavepoint } from '../db/savepoints';

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

const termOfChange = (c: StoredChange): Term => ({ year: c.year, semester: c.semester as Semester });
/** A change's term as a key. */
const changeTermKey = (c: StoredChange): string => termKey(termOfChange(c));

/** The changes an undo names: one change (and its twin in the other term, for a move between terms), or one batch. */
async function changesToUndo(ctx: CoreContext, input: { change_id?: number | undefined; batch?: string | undefined }): Promise<StoredChange[]> {
  if (input.change_id === undefined) return changesOfBatch(ctx.db, ctx.department, input.batch as string);
  const change = await changeById(ctx.db, ctx.department, input.change_id);
  if (!change) return [];
  // A move between terms is one change recorded in both terms' history.
  const twins = (await changesOfBatch(ctx.db, ctx.department, change.batch)).filter(
    (c) =>
      c.id !== change.id &&
      c.meeting_uid === change.meeting_uid &&
      changeTermKey(c) !== changeTermKey(change) &&
      c.before_value === change.before_value &&
      c.after_value === change.after_value,
  );
  return [change, ...twins];
}

/** Refuses an undo when a change after it (in any term it touched) changed one of its meetings. */
async function refuseLaterChanges(tx: CoreContext, found: readonly StoredChange[]): Promise<void> {
  const inBatch = new Set(found.map((c) => c.id));
  const uids = [...new Set(found.map((c) => c.meeting_uid))];
  const byTerm = new Map<string, StoredChange[]>();
  for (const change of found) byTerm.set(changeTermKey(change), [...(byTerm.get(changeTermKey(change)) ?? []), change]);
  for (const changes of byTerm.values()) {
    const first = Math.min(...changes.map((c) => c.revision));
    const last = Math.max(...changes.map((c) => c.revision));
    const later = await laterChanges(tx.db, tx.department, termOfChange(changes[0] as StoredChange), uids, first - 1);
    for (const next of later.values()) {
      if (inBatch.has(next.id) || next.revision <= last) continue;
      const change = found.find((c) => c.meeting_uid === next.meeting_uid) as StoredChange;
      const [words] = await changesInWords(tx, [next]);
      throw new CoreError(
        'conflict',
        `Cannot undo: ${sectionLabel(change.course_code, change.section_name)} was changed after it, by ${words?.who ?? 'someone'} at ${when(next.changed_at)} (${describeChange(next.operation as ChangeOperation, parseState(next.before_value), parseState(next.after_value))}). Undo that change first`,
        { conflicts: [`${sectionLabel(change.course_code, change.section_name)} was changed later`] },
      );
    }
  }
}

/** Each meeting's change to undo: its earliest of the batch (the version before the batch), latest undone first, removals first. */
function undoOrder(found: readonly StoredChange[]): StoredChange[] {
  const targets = new Map<string, StoredChange>();
  // Change ids are in the order the changes were made, in every term.
  for (const change of [...found].sort((a, b) => a.id - b.id)) if (!targets.has(change.meeting_uid)) targets.set(change.meeting_uid, change);
  const ordered = [...targets.values()].sort((a, b) => b.id - a.id);
  // Removals first, so that a meeting put back does not meet one the batch added in its place.
  return ordered.sort((a, b) => Number(parseState(a.before_value) !== null) - Number(parseState(b.before_value) !== null));
}

/**
 * Undoes one change, or one batch (an import, an apply, a publish), through the checked write path:
 * each meeting goes back to its version before, in the term that version names. Refused in words,
 * and nothing changes, when a later change touched one of its meetings in any term it touched, or
 * a rule refuses the old version now.
 */
export async function undoChanges(ctx: CoreContext, input: { change_id?: number | undefined; batch?: string | undefined }): Promise<UndoResult> {
  if ((input.change_id === undefined) === (input.batch === undefined)) throw invalid('Name one change (change_id) or one batch (batch) to undo');
  return inTransaction(ctx.db, async (db) => {
    const tx: CoreContext = { ...ctx, db };
    // Recorded changes are never rewritten: they may be read before the terms are held.
    const found = await changesToUndo(tx, input);
    const first = found[0];
    if (!first) throw notFound(input.change_id !== undefined ? `No change with id ${input.change_id}` : `No changes in batch ${input.batch ?? ''}`);
    const term = termOfChange(first);
    const versionTerms = found.flatMap((c) => {
      const before = parseState(c.before_value);
      return before ? [termOfState(before, termOfChange(c))] : [];
    });
    const ordered = undoOrder(found);
    await lockTermsOfMeetings(
      tx,
      [...found.map(termOfChange), ...versionTerms],
      ordered.map((c) => c.meeting_uid),
    );
    await refuseLaterChanges(tx, found);
    const before = await termRevision(db, ctx.department, term);
    const restore = (change: StoredChange, deferred?: ReadonlySet<number>): Promise<boolean> =>
      applyMeetingState(tx, termOfChange(change), change.meeting_uid, parseState(change.before_value), 'restore', instructorsById, undefined, deferred);
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
    return { undone: ordered.length, revision, changes: await changesInWords(tx, recorded) };
  });
}
