import type { CoreContext } from '../context';
import type { PartOfTerm } from '../domain/parts';
import type { Term } from '../domain/terms';
import { renameChangesUid } from './changes-repo';
import { insertClashes, setEntryUid, upsertPart } from './repo';
import { setUnscheduledUid } from './unscheduled-repo';

/**
 * The timetable's own rows as other features change them (the timetable import, campus sync): a
 * feature writes only its own tables, so these go through the timetable. The caller holds the
 * transaction and the terms' locks (see gate.ts).
 */

/** A meeting, and its recorded changes, take the id another store knows it by (a laptop's first fetch matching it to the server's). */
export async function giveMeetingUid(tx: CoreContext, meeting: { id: number; uid: string }, uid: string): Promise<void> {
  await setEntryUid(tx.db, tx.department, meeting.id, uid);
  await renameChangesUid(tx.db, tx.department, meeting.uid, uid);
}

/** A section without a time, and its recorded changes, take the id another store knows it by. */
export async function giveSectionUid(tx: CoreContext, section: { id: number; uid: string }, uid: string): Promise<void> {
  await setUnscheduledUid(tx.db, tx.department, section.id, uid);
  await renameChangesUid(tx.db, tx.department, section.uid, uid);
}

/** The clashes an import stores with the meetings it flags (each pair once). */
export async function storeClashes(tx: CoreContext, clashes: readonly { entry_id: number; other_id: number; detail: string }[]): Promise<void> {
  await insertClashes(tx.db, clashes);
}

/** A part of term an import names, added or changed. */
export async function storePart(tx: CoreContext, term: Term, part: PartOfTerm): Promise<void> {
  await upsertPart(tx.db, tx.department, term, part);
}
