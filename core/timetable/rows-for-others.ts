import type { CoreContext } from '../context';
import type { PartOfTerm } from '../domain/parts';
import type { Term } from '../domain/terms';
import { renameChangesUid } from './changes-repo';
import { insertClashes, insertEntries, setEntryUid, upsertPart, type EntryValues } from './repo';
import { doctorNames } from '../faculty/repo';
import type { ChangeOperation } from '../domain/meeting-changes';
import { changeOf, meetingState, recordChangesByTerm } from './record-changes';
import { setUntimedSectionUid } from './untimed-repo';

/**
 * The timetable's own rows as other features write them (the timetable import's meetings, clashes
 * and parts; campus sync's ids taken from a server): a feature writes only its own tables, so these
 * go through the timetable. The caller holds the transaction and the terms' locks (see gate.ts).
 */

/** A meeting, and its recorded changes, take the id another store knows it by (a laptop's first fetch matching it to the server's). */
export async function giveMeetingUid(tx: CoreContext, meeting: { id: number; uid: string }, uid: string): Promise<void> {
  await setEntryUid(tx.db, tx.department, meeting.id, uid);
  await renameChangesUid(tx.db, tx.department, meeting.uid, uid);
}

/** A section without a time, and its recorded changes, take the id another store knows it by. */
export async function giveSectionUid(tx: CoreContext, section: { id: number; uid: string }, uid: string): Promise<void> {
  await setUntimedSectionUid(tx.db, tx.department, section.id, uid);
  await renameChangesUid(tx.db, tx.department, section.uid, uid);
}

/**
 * A clash a listed meeting is stored with: with a meeting already stored (its id), with one of the
 * same listing's meetings (its index), or none (availability).
 */
export type PlannedClash = { detail: string; with: { entry: number } | { planned: number } | null };

/**
 * A listing's meetings stored as the import planned them (checked against the term as read in the
 * caller's transaction): each recorded as created by `operation`, with the clashes it keeps.
 */
export async function storeListedMeetings(
  tx: CoreContext,
  meetings: readonly { values: EntryValues; clashes: readonly PlannedClash[] }[],
  operation: ChangeOperation,
): Promise<void> {
  const values = meetings.map((m) => m.values);
  const ids = await insertEntries(tx.db, values, tx.now().toISOString());
  const names = await doctorNames(
    tx.db,
    values.flatMap((v) => v.doctor_ids),
  );
  await recordChangesByTerm(
    tx,
    values.map((v) => ({ term: v, change: changeOf(operation, null, meetingState(v, names, false)) })),
  );
  const clashes = meetings.flatMap((meeting, i) => {
    const id = ids[i] as number;
    return meeting.clashes.map((clash) => ({
      entry_id: id,
      other_id: clash.with === null ? id : 'entry' in clash.with ? clash.with.entry : (ids[clash.with.planned] as number),
      detail: clash.detail,
    }));
  });
  await insertClashes(tx.db, clashes);
}

/** A part of term an import names, added or changed. */
export async function storePart(tx: CoreContext, term: Term, part: PartOfTerm): Promise<void> {
  await upsertPart(tx.db, tx.department, term, part);
}
