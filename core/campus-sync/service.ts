import { createHash } from 'node:crypto';
import type { CoreContext } from '../context';
import { CoreError, invalid } from '../domain/errors';
import {
  choiceHolds,
  conflictMessage,
  describeChange,
  sameMeeting,
  sideOf,
  termOfState,
  type ChangeOperation,
  type ConflictChoice,
  type MeetingState,
  type SyncConflict,
  type TheirChange,
} from '../domain/meeting-changes';
import { termKey, type Semester, type Term } from '../domain/terms';
import { inTransaction } from '../db/transactions';
import { takeLocks } from '../db/locks';
import { eachInSavepoint } from '../db/savepoints';
import { storeId } from '../db/store-revisions';
import { getDepartment } from '../departments/repo';
import {
  termLocks,
  lockTermsOfMeetings,
  giveMeetingUid,
  giveSectionUid,
  changeOf,
  changesInWords,
  meetingStates,
  parseState,
  recordTermChanges,
  untimedStates,
  applyMeetingState,
  applyTogether,
  instructorsByName,
} from '../timetable';
import { entriesByUids, listEntries, uidsOfOtherDepartments, type EntryRow } from '../timetable/repo';
import { changesAfter, lastChangeId, laterChanges, termRevision, type StoredChange } from '../timetable/changes-repo';
import { listUntimedSections, untimedSectionsByUids, type UntimedSectionRow } from '../timetable/untimed-repo';
import { forgetKeysBefore, keepAnswer, keptAnswer, saveSyncBase, syncBase, type KeyedRequest, type SyncBase } from './repo';

/**
 * Planning offline and together without losing anything. A laptop keeps the server revision its copy
 * of a term is based on, and its own changes since (from its history). Publishing replays those
 * changes on the server's current term through the server's checked write path; fetching replays
 * the server's changes since the base on the laptop, and keeps the laptop's unpublished changes on
 * top. A meeting both sides changed since the base is a conflict: listed with both versions, nothing
 * stored, until a person keeps one side or the other. Nothing is resolved by dropping a side.
 */

/** One meeting's change as a laptop publishes it: the version it wants (null: deleted), and when it made it. */
export interface PublishedChange {
  meeting_uid: string;
  after: MeetingState | null;
  operation: ChangeOperation;
  at: string;
}

/** A change the server's rules refused, in words. */
export interface RefusedChange {
  meeting_uid: string;
  course_code: string;
  section_name: string;
  reason: string;
}

/** A meeting whose conflict the person settled as "keep mine", with the server's version they saw (its change id). */
export type KeptMine = string | { meeting_uid: string; seen_change_id: number | null };

export interface PublishChangesInput {
  year: number;
  semester: Semester;
  /** The server revision the laptop's copy is based on (0: never fetched). */
  base_revision: number;
  /** The same key again (by the same person, for the same term and body) answers the first publish's answer: applied once. */
  key: string;
  changes: PublishedChange[];
  /** Meetings whose conflict the person settled as "keep mine": the laptop's version is stored over the server's version they saw. */
  keep_mine: KeptMine[];
  dry_run: boolean;
}

/** How long the answer under an idempotency key is kept (TERMWISE_IDEMPOTENCY_DAYS, default 30 days). */
export function keyAgeDays(env: NodeJS.ProcessEnv = process.env): number {
  const days = Number(env.TERMWISE_IDEMPOTENCY_DAYS);
  return Number.isFinite(days) && days > 0 ? Math.min(days, 3_650) : 30;
}

/** What a publish's key is bound to: the person, the term and a digest of what it carries. */
function keyedRequest(ctx: CoreContext, input: PublishChangesInput): KeyedRequest {
  const body = JSON.stringify([input.base_revision, input.changes, input.keep_mine]);
  return {
    operation: 'publish-changes',
    person_id: ctx.actor.person,
    term: { year: input.year, semester: input.semester },
    digest: createHash('sha256').update(body).digest('hex'),
  };
}

/** Refuses a key sent before with another request, saying what differs. */
function refuseReusedKey(key: string, kept: KeyedRequest, asked: KeyedRequest): void {
  const differs =
    kept.operation !== asked.operation
      ? 'another operation'
      : kept.person_id !== asked.person_id
        ? 'by another person'
        : termKey(kept.term) !== termKey(asked.term)
          ? `for ${kept.term.semester} ${kept.term.year}`
          : kept.digest !== asked.digest
            ? 'with other changes'
            : null;
  if (differs !== null) throw invalid(`The idempotency key "${key}" was sent before ${differs}: send this publish with a new key`);
}

export interface PublishChangesResult {
  /** published (stored), preview (a dry run that would store), conflicts or refused (nothing stored). */
  status: 'published' | 'preview' | 'conflicts' | 'refused';
  stored: boolean;
  year: number;
  semester: Semester;
  /** The term's revision on the server after the publish (unchanged when nothing was stored). */
  revision: number;
  /** Changes replayed (or that a dry run would replay). */
  applied: number;
  conflicts: SyncConflict[];
  refused: RefusedChange[];
  /** Answered from an earlier publish with the same key (nothing applied again). */
  replayed: boolean;
}

/** Thrown to end a transaction without storing it (a dry run, or a publish that conflicts), carrying its answer. */
class NothingStored<T> extends Error {
  constructor(readonly answer: T) {
    super('nothing stored');
  }
}

async function withoutStoring<T>(run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (error) {
    if (error instanceof NothingStored) return error.answer as T;
    throw error;
  }
}

/**
 * Runs a replay's transaction the fast way (`listRefusals` false); when a rule refuses a change on the
 * way, runs it again listing every refusal (nothing is stored either way then).
 */
async function replayTransaction<T>(run: (listRefusals: boolean) => Promise<T>): Promise<T> {
  try {
    return await withoutStoring(() => run(false));
  } catch (error) {
    if (error instanceof RefusedOnTheWay) return withoutStoring(() => run(true));
    throw error;
  }
}

/** A meeting, or a section without a time, as stored now. */
type StoredNow = { row: EntryRow; untimed?: undefined; state: MeetingState } | { row?: undefined; untimed: UntimedSectionRow; state: MeetingState };

/** The state of each of the department's meetings and sections without a time named, as stored now (null: not stored), read at once. */
async function currentStates(tx: CoreContext, uids: readonly string[]): Promise<Map<string, StoredNow | null>> {
  const found = new Map<string, StoredNow | null>(uids.map((uid) => [uid, null]));
  const rows = await entriesByUids(tx.db, tx.department, uids);
  const states = await meetingStates(tx, rows);
  for (const row of rows) found.set(row.uid, { row, state: states.get(row.id) as MeetingState });
  const untimed = await untimedSectionsByUids(tx.db, tx.department, uids);
  const untimedNow = await untimedStates(tx, untimed);
  for (const section of untimed) found.set(section.uid, { untimed: section, state: untimedNow.get(section.uid) as MeetingState });
  return found;
}

/** The refusal of one replayed change, in words. */
const refusalOf = (change: { meeting_uid: string; after: MeetingState | null }, before: MeetingState | null, error: CoreError): RefusedChange => {
  const any = change.after ?? before;
  return { meeting_uid: change.meeting_uid, course_code: any?.course_code ?? '', section_name: any?.section_name ?? '', reason: error.message };
};

/** Where a meeting, or a section without a time, is stored now. */
const termOfStored = (stored: StoredNow): Term => stored.row ?? stored.untimed;

/**
 * A publish of one term changes that term's meetings. For a meeting the server holds in another
 * term: a change whose version is in that term (or gone) has nothing left to do here (the meeting
 * left this term; that term's publish carries its version); one the server also changed here since
 * the base was settled as a conflict; any other is refused in words: that term's history is what it
 * is checked against, so it is published there first. Answers the refusals and the changes skipped.
 */
function changesOfOtherTerms(
  term: Term,
  changes: readonly { meeting_uid: string; after: MeetingState | null }[],
  server: ReadonlyMap<string, StoredNow | null>,
  later: ReadonlyMap<string, StoredChange>,
): { refused: RefusedChange[]; skipped: Set<string> } {
  const refused: RefusedChange[] = [];
  const skipped = new Set<string>();
  for (const change of changes) {
    const now = server.get(change.meeting_uid);
    if (!now || termKey(termOfStored(now)) === termKey(term) || later.has(change.meeting_uid)) continue;
    const where = termOfStored(now);
    if (change.after === null || termKey(termOfState(change.after, term)) === termKey(where)) {
      skipped.add(change.meeting_uid);
      continue;
    }
    const words = `${where.semester} ${where.year}`;
    refused.push(refusalOf(change, now.state, invalid(`It is in ${words} on the server: publish ${words} first, where its change is recorded`)));
  }
  return { refused, skipped };
}

/** The last of each meeting's changes, in the order of each meeting's last change. */
function lastOfEach<T extends { meeting_uid: string }>(changes: readonly T[]): T[] {
  const last = new Map<string, T>();
  for (const change of changes) {
    last.delete(change.meeting_uid);
    last.set(change.meeting_uid, change);
  }
  return [...last.values()];
}

/** A change a rule refused on the fast path: the replay is made again, each change in a savepoint, to list every refusal. */
class RefusedOnTheWay extends Error {
  constructor() {
    super('a change was refused');
  }
}

/**
 * Replays changes through the checked write path. First all at once (the usual case: nothing is
 * refused); when a rule refuses one, the caller runs it again with `listRefusals`: each change in a
 * savepoint, one a rule refuses tried again once the others are in (a meeting moved into a slot
 * another one left), until no more go in. Answers the refusals left.
 */
async function replayAll(
  tx: CoreContext,
  term: Term,
  changes: readonly { meeting_uid: string; after: MeetingState | null }[],
  operation: ChangeOperation,
  current: ReadonlyMap<string, StoredNow | null>,
  listRefusals: boolean,
): Promise<{ applied: number; refused: RefusedChange[] }> {
  const before = new Map([...current].map(([uid, s]) => [uid, s?.state ?? null]));
  const instructors = instructorsByName(tx);
  const elsewhere = await uidsOfOtherDepartments(
    tx.db,
    tx.department,
    changes.filter((c) => c.after !== null && !current.get(c.meeting_uid)).map((c) => c.meeting_uid),
  );
  const apply = (change: { meeting_uid: string; after: MeetingState | null }, deferred?: ReadonlySet<number>): Promise<boolean> =>
    applyMeetingState(
      tx,
      term,
      change.meeting_uid,
      change.after,
      operation,
      instructors,
      {
        current: current.get(change.meeting_uid)?.row,
        untimed: current.get(change.meeting_uid)?.untimed,
        takenElsewhere: elsewhere.has(change.meeting_uid),
      },
      deferred,
    );
  // Removals first: they only free rooms and instructors.
  let waiting = [...changes.filter((c) => c.after === null), ...changes.filter((c) => c.after !== null)];
  if (!listRefusals) {
    let applied = 0;
    for (const change of waiting) {
      try {
        if (await apply(change)) applied++;
      } catch (error) {
        if (error instanceof CoreError && error.code !== 'internal') throw new RefusedOnTheWay();
        throw error;
      }
    }
    return { applied, refused: [] };
  }
  let applied = 0;
  for (;;) {
    const { written, refused } = await eachInSavepoint(tx.db, waiting, (change) => apply(change));
    applied += written.filter(Boolean).length;
    if (refused.length === 0 || written.length === 0) {
      // Stuck: those left may need one another's places (a swap); together, they may all go in.
      if (refused.length > 1) {
        const group = refused.map((r) => r.item);
        const together = await eachInSavepoint(tx.db, [group], (items) =>
          applyTogether(tx, term, 'Replaying these changes together', items, (c) => c.meeting_uid, apply),
        );
        if (together.written.length === 1) return { applied: applied + (together.written[0] ?? 0), refused: [] };
      }
      return { applied, refused: refused.map(({ item, error }) => refusalOf(item, before.get(item.meeting_uid) ?? null, error)) };
    }
    waiting = refused.map((r) => r.item);
  }
}

/** Who made a stored change and what it did, in words, and its id (the version a person's choice names). */
async function theirChange(tx: CoreContext, change: StoredChange): Promise<TheirChange> {
  const [words] = await changesInWords(tx, [change]);
  return {
    who: words?.who ?? 'someone',
    at: change.changed_at,
    summary: describeChange(change.operation as ChangeOperation, parseState(change.before_value), parseState(change.after_value)),
    id: change.id,
  };
}

/** The "keep mine" choices by meeting: each with the server version it was made against. */
function keptMine(list: readonly KeptMine[]): Map<string, ConflictChoice> {
  return new Map(
    list.map((k): [string, ConflictChoice] => (typeof k === 'string' ? [k, 'mine'] : [k.meeting_uid, { choice: 'mine', seen_change_id: k.seen_change_id }])),
  );
}

/**
 * The server's side of a publish: replays a laptop's changes on the current term, all or nothing.
 * A change to a meeting the server also changed since the laptop's base is a conflict (both versions
 * listed), unless the person chose to keep theirs; a change a rule refuses is listed in words.
 */
export async function publishChanges(ctx: CoreContext, input: PublishChangesInput): Promise<PublishChangesResult> {
  const term: Term = { year: input.year, semester: input.semester };
  const request = keyedRequest(ctx, input);
  const changes = lastOfEach(input.changes);
  const uids = changes.map((c) => c.meeting_uid);
  return replayTransaction((listRefusals) =>
    inTransaction(ctx.db, async (db) => {
      const tx: CoreContext = { ...ctx, db };
      // The gate: every term the changes touch (the term, the terms their versions name, where their meetings are) held first.
      await lockTermsOfMeetings(tx, [term, ...changes.flatMap((c) => (c.after ? [termOfState(c.after, term)] : []))], uids);
      // A publish retried after a lost answer is answered as the first time, and not applied again.
      const kept = input.dry_run ? undefined : await keptAnswer(db, ctx.department, input.key);
      if (kept) {
        refuseReusedKey(input.key, kept, request);
        return { ...(JSON.parse(kept.response) as PublishChangesResult), replayed: true };
      }
      const revision = await termRevision(db, ctx.department, term);
      if (input.base_revision > revision)
        throw invalid(
          `The server's ${term.semester} ${term.year} is at revision ${revision}, not ${input.base_revision}: fetch the term again before publishing`,
        );
      const server = await currentStates(tx, uids);
      const later = await laterChanges(db, ctx.department, term, uids, input.base_revision);
      const keepMine = keptMine(input.keep_mine);
      const conflicts: SyncConflict[] = [];
      for (const change of changes) {
        const theirs = later.get(change.meeting_uid);
        const now = server.get(change.meeting_uid)?.state ?? null;
        if (!theirs || sameMeeting(now, change.after)) continue;
        // "Keep mine" holds against the server's version the person saw; a later one is a new conflict.
        const keep = keepMine.get(change.meeting_uid);
        if (keep !== undefined && choiceHolds(keep, theirs.id)) continue;
        const by = await theirChange(tx, theirs);
        const any = (change.after ?? now ?? parseState(theirs.before_value)) as MeetingState;
        conflicts.push({
          meeting_uid: change.meeting_uid,
          course_code: any.course_code,
          section_name: any.section_name,
          yours: change.after,
          theirs: now,
          their_change: by,
          message: conflictMessage(change.after, now, by.who, by.at, 'server'),
        });
      }
      const answer = (status: PublishChangesResult['status'], applied: number, refused: RefusedChange[], rev: number): PublishChangesResult => ({
        status,
        stored: status === 'published',
        ...term,
        revision: rev,
        applied,
        conflicts,
        refused,
        replayed: false,
      });
      if (conflicts.length > 0) throw new NothingStored(answer('conflicts', 0, [], revision));
      const elsewhere = changesOfOtherTerms(term, changes, server, later);
      if (elsewhere.refused.length > 0) throw new NothingStored(answer('refused', 0, elsewhere.refused, revision));
      const here = changes.filter((c) => !elsewhere.skipped.has(c.meeting_uid));
      const { applied, refused } = await replayAll(tx, term, here, 'publish', server, listRefusals);
      if (refused.length > 0) throw new NothingStored(answer('refused', 0, refused, revision));
      if (input.dry_run) throw new NothingStored(answer('preview', applied, [], revision));
      const result = answer('published', applied, [], await termRevision(db, ctx.department, term));
      const now = ctx.now();
      await forgetKeysBefore(db, new Date(now.getTime() - keyAgeDays() * 86_400_000).toISOString());
      await keepAnswer(db, ctx.department, input.key, request, result, now.toISOString());
      return result;
    }),
  );
}

/** One meeting the server changed since a revision: its version now (null: deleted), and who changed it last. */
export interface ServerMeeting {
  meeting_uid: string;
  state: MeetingState | null;
  change: TheirChange | null;
}

export interface TermChangesSince {
  year: number;
  semester: Semester;
  revision: number;
  /** Every meeting of the term (no revision given: a first fetch), or those changed since the revision. */
  complete: boolean;
  meetings: ServerMeeting[];
  /** The server's own id and the department the answer is for (its code): a laptop's base names both. */
  server_id?: string | undefined;
  department?: string | undefined;
  /**
   * The laptop's base cannot be followed (the server was restored to an older state, or the base
   * names another server): the whole term is answered, for the laptop to fetch afresh.
   */
  reset?: boolean | undefined;
}

/**
 * What a laptop fetches: the server's meetings changed since its base revision, as they are now, each
 * in the term it is in (all of them without a base, or when the base cannot be followed: the server
 * restored to an older revision, or the base naming another server).
 */
export async function changesSince(
  ctx: CoreContext,
  input: { year: number; semester: Semester; since_revision?: number | undefined; base_server?: string | undefined; base_department?: string | undefined },
): Promise<TermChangesSince> {
  const term: Term = { year: input.year, semester: input.semester };
  return inTransaction(
    ctx.db,
    async (db) => {
      const tx: CoreContext = { ...ctx, db };
      const revision = await termRevision(db, ctx.department, term);
      const serverId = await storeId(db);
      const department = (await getDepartment(db, ctx.department))?.code;
      const followed =
        input.since_revision !== undefined &&
        input.since_revision <= revision &&
        (input.base_server === undefined || input.base_server === serverId) &&
        (input.base_department === undefined || input.base_department === department);
      const since = followed ? input.since_revision : undefined;
      const changes = since === undefined ? [] : await changesAfter(db, ctx.department, term, { revision: since });
      const lastChange = new Map(changes.map((c) => [c.meeting_uid, c]));
      const uids =
        since === undefined
          ? [...(await listEntries(db, ctx.department, term)), ...(await listUntimedSections(db, ctx.department, term))].map((r) => r.uid)
          : [...lastChange.keys()];
      const states = await currentStates(tx, uids);
      const meetings: ServerMeeting[] = [];
      for (const uid of uids) {
        const change = lastChange.get(uid);
        meetings.push({ meeting_uid: uid, state: states.get(uid)?.state ?? null, change: change ? await theirChange(tx, change) : null });
      }
      return {
        ...term,
        revision,
        complete: since === undefined,
        meetings,
        server_id: serverId,
        department,
        reset: input.since_revision !== undefined && !followed,
      };
    },
    { readOnly: true },
  );
}

/** The laptop's side: its base, and its changes not yet published. */
export interface SyncStatus {
  year: number;
  semester: Semester;
  /** The server revision this copy is based on; null before its first fetch or publish. */
  base_revision: number | null;
  /** The last local change already on the server (or brought from it): later local changes are not published. */
  published_through: number;
  /** The last change recorded here. */
  last_change: number;
  /** Meetings changed here and not yet published, each with the version to publish. */
  pending: PublishedChange[];
  /** The server the base came from (its id) and the department it was fetched for; null before the first fetch. */
  server_id: string | null;
  server_department: string | null;
}

/**
 * The laptop's changes not yet published: its own changes after the last publish, except where the
 * server's version was taken since (a fetch that kept theirs).
 */
async function pendingChanges(tx: CoreContext, term: Term, publishedThrough: number): Promise<PublishedChange[]> {
  const changes = await changesAfter(tx.db, tx.department, term, { id: publishedThrough });
  const lastFromServer = new Map<string, number>();
  for (const c of changes) if (c.origin === 'server') lastFromServer.set(c.meeting_uid, c.id);
  const own = changes.filter((c) => c.origin === 'local' && c.id > (lastFromServer.get(c.meeting_uid) ?? 0));
  return lastOfEach(own).map((c) => ({
    meeting_uid: c.meeting_uid,
    after: parseState(c.after_value),
    operation: c.operation as ChangeOperation,
    at: c.changed_at,
  }));
}

/** The meetings this computer changed and has not published in the other terms given, by id. */
async function pendingInOtherTerms(tx: CoreContext, term: Term, terms: readonly Term[]): Promise<Set<string>> {
  const others = new Map(terms.filter((t) => termKey(t) !== termKey(term)).map((t) => [termKey(t), t]));
  const uids = new Set<string>();
  for (const other of others.values()) {
    const base = await syncBase(tx.db, tx.department, other);
    for (const change of await pendingChanges(tx, other, base?.published_through ?? 0)) uids.add(change.meeting_uid);
  }
  return uids;
}

export async function syncStatus(ctx: CoreContext, term: Term): Promise<SyncStatus> {
  const base = await syncBase(ctx.db, ctx.department, term);
  const through = base?.published_through ?? 0;
  return {
    ...term,
    base_revision: base?.base_revision ?? null,
    published_through: through,
    last_change: await lastChangeId(ctx.db, ctx.department, term),
    pending: await pendingChanges(ctx, term, through),
    server_id: base?.server_id ?? null,
    server_department: base?.server_department ?? null,
  };
}

/** After a publish stored the laptop's changes up to `through`: they are no longer pending. */
export async function markPublished(ctx: CoreContext, input: { year: number; semester: Semester; through: number }): Promise<SyncStatus> {
  const term: Term = { year: input.year, semester: input.semester };
  await inTransaction(ctx.db, async (db) => {
    await takeLocks(db, termLocks([term]));
    const base = await syncBase(db, ctx.department, term);
    await saveSyncBase(db, ctx.department, term, {
      base_revision: base?.base_revision ?? 0,
      published_through: Math.max(base?.published_through ?? 0, input.through),
      synced_at: ctx.now().toISOString(),
      server_id: base?.server_id ?? null,
      server_department: base?.server_department ?? null,
    });
  });
  return syncStatus(ctx, term);
}

export interface RebaseInput {
  year: number;
  semester: Semester;
  /** What the server answered for the laptop's base (`changesSince`). */
  server: TermChangesSince;
  /** How the person settled each conflict listed before. */
  choices: Record<string, ConflictChoice>;
  dry_run: boolean;
}

export interface RebaseResult {
  status: 'fetched' | 'preview' | 'conflicts' | 'refused';
  stored: boolean;
  year: number;
  semester: Semester;
  /** The server revision the copy is now based on (unchanged when nothing was stored). */
  base_revision: number | null;
  /** The server's changes brought in. */
  applied: number;
  /** Changes of this computer kept on top, still to publish. */
  pending: number;
  conflicts: SyncConflict[];
  refused: RefusedChange[];
}

/** The meeting key a first fetch matches a laptop's meeting to the server's by (the same meeting of a section). */
const sameSlotKey = (m: Pick<MeetingState, 'course_code' | 'section_name' | 'day' | 'start_time' | 'part_of_term'>): string =>
  [m.course_code, m.section_name, m.day, m.start_time, m.part_of_term].join('\u0000');

/**
 * A first fetch (no base yet, or a base that cannot be followed): a meeting here that the server
 * holds too (the same section, days, start and part of term) takes the server's id, and its recorded
 * changes follow it, so what it was changed to here is still this computer's change (a conflict
 * where the two copies differ, never an overwrite). One the server lacks and history never recorded
 * (planned before history) is recorded now as added here, so that it is published, never dropped;
 * so is one the server holds differently, so that the difference is shown to the person.
 */
async function adoptServerIds(tx: CoreContext, term: Term, server: TermChangesSince): Promise<void> {
  const serverStates = new Map(server.meetings.map((m) => [m.meeting_uid, m.state]));
  const onServer = new Set(serverStates.keys());
  const recorded = new Set((await changesAfter(tx.db, tx.department, term, {})).map((c) => c.meeting_uid));
  const local = await listEntries(tx.db, tx.department, term);
  const localUids = new Set(local.map((r) => r.uid));
  const unmatched = new Map<string, string>();
  for (const m of server.meetings) if (m.state && !localUids.has(m.meeting_uid)) unmatched.set(sameSlotKey(m.state), m.meeting_uid);
  const before = await meetingStates(tx, local);
  const untimed = await listUntimedSections(tx.db, tx.department, term);
  const untimedBefore = await untimedStates(tx, untimed);
  const toRecord: MeetingState[] = [];
  /** Matches one local meeting (or section without a time) to the server's: its id and its history take the server's id. */
  const adopt = async (uid: string, state: MeetingState, rename: (to: string) => Promise<void>): Promise<void> => {
    if (onServer.has(uid)) return;
    const theirs = unmatched.get(sameSlotKey(state));
    if (theirs === undefined) {
      if (!recorded.has(uid)) toRecord.push(state);
      return;
    }
    unmatched.delete(sameSlotKey(state));
    await rename(theirs);
    if (!recorded.has(uid) && !sameMeeting({ ...state, uid: theirs }, serverStates.get(theirs) ?? null)) toRecord.push({ ...state, uid: theirs });
  };
  for (const row of local) await adopt(row.uid, before.get(row.id) as MeetingState, (to) => giveMeetingUid(tx, row, to));
  // Sections without a time likewise (one per section: its course and section find it).
  for (const section of untimed) await adopt(section.uid, untimedBefore.get(section.uid) as MeetingState, (to) => giveSectionUid(tx, section, to));
  await recordTermChanges(
    tx,
    term,
    toRecord.map((state) => changeOf('create', null, state)),
  );
}

/** This computer's meetings (and sections without a time) of the term that a whole term from the server lacks and that it has not changed itself. */
async function notOnServer(tx: CoreContext, term: Term, listed: ReadonlySet<string>, pending: ReadonlyMap<string, unknown>): Promise<string[]> {
  const here = [...(await listEntries(tx.db, tx.department, term)), ...(await listUntimedSections(tx.db, tx.department, term))];
  return here.map((r) => r.uid).filter((uid) => !listed.has(uid) && !pending.has(uid));
}

/** Whether a laptop's base can be followed with this answer: the same server and department, and the server not reset. */
function followsBase(base: SyncBase | undefined, server: TermChangesSince): base is SyncBase {
  return (
    base !== undefined &&
    server.reset !== true &&
    (base.server_id ?? null) === (server.server_id ?? null) &&
    (base.server_department ?? null) === (server.department ?? null)
  );
}

/** The conflict of a meeting changed on both sides, as the laptop lists it. */
function fetchConflict(m: RebaseInput['server']['meetings'][number], mine: MeetingState | null): SyncConflict {
  const any = (mine ?? m.state) as MeetingState;
  return {
    meeting_uid: m.meeting_uid,
    course_code: any.course_code,
    section_name: any.section_name,
    yours: mine,
    theirs: m.state,
    their_change: m.change,
    message: conflictMessage(mine, m.state, m.change?.who ?? 'someone', m.change?.at ?? '', 'server'),
  };
}

/**
 * The laptop's side of a fetch: brings the server's changes since the base into the laptop's copy,
 * and keeps the laptop's unpublished changes on top. A meeting changed on both sides is a conflict,
 * unless the person chose against the server's version shown: "mine" keeps this computer's version
 * (published next), "theirs" takes the server's. A base of another server or department, or one the
 * server can no longer follow, starts afresh from the whole term. All or nothing.
 */
export async function rebaseOnServer(ctx: CoreContext, input: RebaseInput): Promise<RebaseResult> {
  const term: Term = { year: input.year, semester: input.semester };
  if (input.server.year !== term.year || input.server.semester !== term.semester) throw invalid("The server's answer is for another term");
  const uids = input.server.meetings.map((m) => m.meeting_uid);
  return replayTransaction((listRefusals) =>
    inTransaction(ctx.db, async (db) => {
      const tx: CoreContext = { ...ctx, db };
      await lockTermsOfMeetings(tx, [term, ...input.server.meetings.flatMap((m) => (m.state ? [termOfState(m.state, term)] : []))], uids);
      const stored = await syncBase(db, ctx.department, term);
      const base = followsBase(stored, input.server) ? stored : undefined;
      if (!input.server.complete && base === undefined) throw invalid('This computer has no copy of the term from this server yet: fetch the whole term first');
      if (base === undefined) await adoptServerIds(tx, term, input.server);
      const publishedThrough = base?.published_through ?? 0;
      const pending = new Map((await pendingChanges(tx, term, publishedThrough)).map((c) => [c.meeting_uid, c]));
      // The whole term fetched afresh: what this computer holds from a server and did not change itself goes where the server's term has none.
      const gone = base === undefined ? await notOnServer(tx, term, new Set(uids), pending) : [];
      const local = await currentStates(tx, [...uids, ...gone]);
      // A meeting this computer holds in another term is this computer's to change there too (a move between terms).
      const pendingElsewhere = await pendingInOtherTerms(
        tx,
        term,
        [...local.values()].flatMap((now) => (now ? [termOfStored(now)] : [])),
      );
      const conflicts: SyncConflict[] = [];
      const toApply: { meeting_uid: string; after: MeetingState | null }[] = [];
      for (const m of input.server.meetings) {
        const mine = local.get(m.meeting_uid)?.state ?? null;
        if (sameMeeting(mine, m.state)) continue;
        const given = input.choices[m.meeting_uid];
        // A choice holds for the server's version the person saw; a later one is a new conflict.
        const choice = given !== undefined && choiceHolds(given, m.change?.id ?? null) ? sideOf(given) : undefined;
        if ((pending.has(m.meeting_uid) || pendingElsewhere.has(m.meeting_uid)) && choice !== 'theirs') {
          if (choice !== 'mine') conflicts.push(fetchConflict(m, mine));
          continue;
        }
        toApply.push({ meeting_uid: m.meeting_uid, after: m.state });
      }
      for (const uid of gone) toApply.push({ meeting_uid: uid, after: null });
      const answer = (status: RebaseResult['status'], applied: number, refused: RebaseResult['refused'], kept: number): RebaseResult => ({
        status,
        stored: status === 'fetched',
        ...term,
        base_revision: status === 'fetched' ? input.server.revision : (base?.base_revision ?? null),
        applied,
        pending: kept,
        conflicts,
        refused,
      });
      if (conflicts.length > 0) throw new NothingStored(answer('conflicts', 0, [], pending.size));
      const { applied, refused } = await replayAll(tx, term, toApply, 'fetch', local, listRefusals);
      if (refused.length > 0) throw new NothingStored(answer('refused', 0, refused, pending.size));
      const kept = (await pendingChanges(tx, term, publishedThrough)).length;
      if (input.dry_run) throw new NothingStored(answer('preview', applied, [], kept));
      await saveSyncBase(db, ctx.department, term, {
        base_revision: input.server.revision,
        published_through: publishedThrough,
        synced_at: ctx.now().toISOString(),
        server_id: input.server.server_id ?? null,
        server_department: input.server.department ?? null,
      });
      return answer('fetched', applied, [], kept);
    }),
  );
}
