import type { CoreContext } from '../context';
import { takeLocks } from '../db/locks';
import { notFound } from '../domain/errors';
import { termKey, type Term } from '../domain/terms';
import { entryLock, meetingTermLocks, termLocks } from './locks';
import { entryTerm, getEntry, termsOfUids, type EntryRow } from './repo';
import { termOf } from './terms';

/**
 * The write gate's locks: every change to a meeting holds the terms it touches before it reads the
 * meeting's current row, so what it reads is what it writes over. A change to one meeting holds its
 * terms shared and the meeting alone; a change to many (publish, fetch, undo, import, copy, an
 * auto-fill apply) holds each term it touches alone. The order is always the same: the timetable,
 * the terms, the meeting, then its rooms, instructors and section (locks.ts). Every rule is then
 * checked, the row written, the change recorded and the term's revision advanced in the same
 * transaction (service.ts, record-changes.ts).
 */

const distinctTerms = (terms: readonly Term[]): Term[] => [...new Map(terms.map((t) => [termKey(t), t])).values()];

/**
 * Reads a stored meeting for a change once no other write can change it: the meeting's term (and
 * `to`, the term a move takes it to: its year, semester or both) and the meeting itself locked first, then read. A meeting
 * moved to another term between the first look and the lock is looked at again.
 */
export async function lockStoredMeeting(tx: CoreContext, id: number, to: Partial<Term> = {}): Promise<EntryRow> {
  const held = new Set<string>();
  for (;;) {
    // A first look at its term only; the row itself is read once held.
    const seen = await entryTerm(tx.db, tx.department, id);
    if (!seen) throw notFound(`No timetable entry with id ${id}`);
    const terms = distinctTerms([seen, termOf(to, seen)]).filter((t) => !held.has(termKey(t)));
    await takeLocks(tx.db, [...meetingTermLocks(terms), entryLock(id)]);
    for (const t of terms) held.add(termKey(t));
    const current = await getEntry(tx.db, tx.department, id);
    if (!current) throw notFound(`No timetable entry with id ${id}`);
    if (held.has(termKey(current))) return current;
  }
}

/**
 * Holds every term a change of many meetings touches before any of them is read: the terms named,
 * and the terms the meetings with these ids are in now (looked at again once held, until no other
 * term appears). Answers the terms held.
 */
export async function lockTermsOfMeetings(tx: CoreContext, named: readonly Term[], uids: readonly string[]): Promise<Term[]> {
  const held = new Map<string, Term>();
  let wanted = distinctTerms([...named, ...(await termsOfUids(tx.db, tx.department, uids))]);
  while (wanted.length > 0) {
    await takeLocks(tx.db, termLocks(wanted));
    for (const t of wanted) held.set(termKey(t), t);
    wanted = (await termsOfUids(tx.db, tx.department, uids)).filter((t) => !held.has(termKey(t)));
  }
  return [...held.values()];
}
