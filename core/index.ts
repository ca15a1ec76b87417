import { join } from 'node:path';
import { assertRegularOrAbsent, ensurePrivateDir, makePrivate } from './files/private';
import { DATABASE_FILE } from './db/files';
import { openStore, PROCESS_ID, type Store, type StoreConfig } from './db/store';
import { CoreEvents } from './events';
import { desktopOnlyHandlers, servedHandlers, type HandlerName, type Handlers } from './handlers';
import { refuseBeforeInput, runHandler, type Call, type InputOf, type OutputOf, type Operations } from './registry';
import type { CoreContext } from './context';
import { REGISTRAR } from './domain/people';
import { readCampusConfig } from './campus-config';
import { readProfileFile, profileFileTakenIn, type ProfileFile } from './profile-config';
import { saveDepartmentProfile } from './predict/profile';
import { followModelChanges } from './predict';
import { callScope, FIRST_DEPARTMENT } from './departments';
import { identityOf, type Identity } from './people';
import { settleTimetable } from './timetable/terms';
import { CampusList, type CampusSpec } from './domain/campuses';
import { isChangedEvent, type ChangedEvent } from './domain/changes';

export interface CoreOptions {
  dataDir: string;
  now?: () => Date;
  /** The campuses; by default those of campuses.json in the data folder, else Beirut and Byblos. */
  campuses?: readonly CampusSpec[];
  /** A PostgreSQL database (postgres://…) to keep the data in; by default SQLite in the data folder. */
  databaseUrl?: string | undefined;
}

export interface Core {
  readonly dataDir: string;
  readonly context: CoreContext;
  readonly events: CoreEvents;
  run<N extends HandlerName>(name: N, args: InputOf<Handlers[N]>): Promise<OutputOf<Handlers[N]>>;
  /** Untyped entry for transports that receive names from outside (IPC, HTTP), saying who asks. */
  runUnchecked(name: string, args: unknown, call: Call): Promise<unknown>;
  /** Throws the refusal a caller gets before their input is read (a viewer's write, the registrar's operation): transports ask before reading a body. */
  refuseBeforeInput(name: string, call: Call): void;
  /** Who asks: sign-ins, personal tokens and sessions' people, read from the store (the transports' one way to learn it). */
  readonly identity: Identity;
  close(): Promise<void>;
}

export { DATABASE_FILE } from './db/files';

/** The store a data folder's core uses: the database URL given, else SQLite in the folder. */
export function storeConfigOf(options: Pick<CoreOptions, 'dataDir' | 'databaseUrl'>): StoreConfig {
  return options.databaseUrl ? { kind: 'postgres', url: options.databaseUrl } : { kind: 'sqlite', file: join(options.dataDir, DATABASE_FILE) };
}

/** What every transport's calls run: the operation tables, each call's department decided by the departments feature. */
const operations: Operations = { served: servedHandlers, desktopOnly: desktopOnlyHandlers, scopeOf: callScope };

/** Opens the store (SQLite files must be regular files, kept private). */
async function openCoreStore(config: StoreConfig): Promise<Store> {
  if (config.kind === 'postgres') return openStore(config, { migrate: true, listen: true });
  const files = [config.file, `${config.file}-wal`, `${config.file}-shm`];
  for (const file of files) assertRegularOrAbsent(file);
  const store = await openStore(config, { migrate: true, checkpoints: true });
  for (const file of files) makePrivate(file);
  return store;
}

/** A change message on the store's channel: which process wrote, and the event. */
interface ChangeMessage {
  from: string;
  event: ChangedEvent;
}

/**
 * Every change this process announces goes to the other processes on the store, and theirs come
 * here: each server process's event streams (and the screens they feed) see every write.
 */
function shareChanges(store: Store, events: CoreEvents): () => void {
  const stopListening = store.onMessage((text) => {
    let message: ChangeMessage;
    try {
      message = JSON.parse(text) as ChangeMessage;
    } catch {
      return;
    }
    if (message.from === PROCESS_ID || !isChangedEvent(message.event)) return;
    events.emit({ ...message.event, remote: true });
  });
  const stopSending = events.subscribe((event) => {
    if (event.type !== 'changed' || event.remote) return;
    store.wrote();
    // The department travels with the change: another process shows it to that department's readers alone.
    const shared: ChangedEvent = { type: 'changed', areas: event.areas, ...(event.department === undefined ? {} : { department: event.department }) };
    store.publish(JSON.stringify({ from: PROCESS_ID, event: shared } satisfies ChangeMessage)).catch((error: unknown) => {
      console.error(`Could not tell other server processes of a change: ${error instanceof Error ? error.message : String(error)}`);
    });
  });
  return () => {
    stopListening();
    stopSending();
  };
}

/**
 * A profile.json in the data folder (from before profiles were kept with the data, or written by
 * hand) becomes the first department's profile, and the file is renamed so it is taken in once.
 */
async function takeInProfileFile(context: CoreContext, profile: ProfileFile): Promise<void> {
  await saveDepartmentProfile(context.db, FIRST_DEPARTMENT, profile);
  profileFileTakenIn(context.dataDir);
}

export async function createCore(options: CoreOptions): Promise<Core> {
  ensurePrivateDir(options.dataDir);
  const campuses = options.campuses ? new CampusList(options.campuses) : readCampusConfig(options.dataDir);
  // A profile.json placed in the data folder is taken in below; one that cannot be used stops start-up naming the problem, as campuses.json does.
  const profileFile = readProfileFile(options.dataDir);
  const store = await openCoreStore(storeConfigOf(options));
  const events = new CoreEvents();
  const context: CoreContext = {
    store,
    db: store.db,
    dataDir: options.dataDir,
    events,
    campuses,
    caller: 'desktop',
    department: 1,
    actor: REGISTRAR,
    now: options.now ?? (() => new Date()),
  };
  try {
    // Meetings from before timetables had terms join the current term.
    await settleTimetable(context);
    if (profileFile !== null) await takeInProfileFile(context, profileFile);
  } catch (error) {
    await store.close();
    throw error;
  }
  const stopSharing = shareChanges(store, events);
  const stopFollowingModels = followModelChanges(store, events);
  return {
    dataDir: options.dataDir,
    context,
    events,
    run: async (name, args) => (await runHandler(context, operations, name, args)) as never,
    runUnchecked: (name, args, call) => runHandler(context, operations, name, args, call),
    refuseBeforeInput: (name, call) => void refuseBeforeInput(operations, name, {}, call),
    identity: identityOf(store.db, context.now, events),
    close: async () => {
      stopSharing();
      stopFollowingModels();
      await store.close();
    },
  };
}

export type { HandlerName, Handlers } from './handlers';
export type { Caller } from './context';
export type { Call } from './registry';
