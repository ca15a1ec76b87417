import { join } from 'node:path';
import { openDatabase } from './db/connection';
import { assertRegularOrAbsent, ensurePrivateDir, makePrivate } from './files/private';
import { DATABASE_FILE } from './db/files';
import { migrate } from './db/migrate';
import { checkpointWhenIdle } from './db/checkpoints';
import { CoreEvents } from './events';
import { handlers, type HandlerName, type Handlers } from './handlers';
import { runHandler, type InputOf, type OutputOf } from './registry';
import type { Caller, CoreContext } from './context';
import { readCampusConfig } from './campus-config';
import { readProfileFile } from './profile-config';
import { settleTimetable } from './schedule/terms';
import { CampusList, type CampusSpec } from './domain/campuses';

export interface CoreOptions {
  dataDir: string;
  now?: () => Date;
  /** The campuses; by default those of campuses.json in the data folder, else Beirut and Byblos. */
  campuses?: readonly CampusSpec[];
}

export interface Core {
  readonly dataDir: string;
  readonly context: CoreContext;
  readonly events: CoreEvents;
  run<N extends HandlerName>(name: N, args: InputOf<Handlers[N]>): Promise<OutputOf<Handlers[N]>>;
  /** Untyped entry for transports that receive names from outside (IPC, HTTP), saying who asks. */
  runUnchecked(name: string, args: unknown, caller: Caller): Promise<unknown>;
  close(): void;
}

export { DATABASE_FILE } from './db/files';

export function createCore(options: CoreOptions): Core {
  ensurePrivateDir(options.dataDir);
  const campuses = options.campuses ? new CampusList(options.campuses) : readCampusConfig(options.dataDir);
  // A department profile that cannot be used stops start-up naming the problem, as campuses.json does.
  readProfileFile(options.dataDir);
  const dbFile = join(options.dataDir, DATABASE_FILE);
  for (const file of [dbFile, `${dbFile}-wal`, `${dbFile}-shm`]) assertRegularOrAbsent(file);
  const db = openDatabase(dbFile);
  for (const file of [dbFile, `${dbFile}-wal`, `${dbFile}-shm`]) makePrivate(file);
  const events = new CoreEvents();
  const context: CoreContext = { db, dataDir: options.dataDir, events, campuses, caller: 'desktop', now: options.now ?? (() => new Date()) };
  try {
    migrate(db);
    // Meetings from before timetables had terms join the current term.
    settleTimetable(context);
  } catch (error) {
    db.close();
    throw error;
  }
  const checkpoints = checkpointWhenIdle(db);
  events.subscribe((event) => {
    if (event.type === 'changed') checkpoints.wrote();
  });
  return {
    dataDir: options.dataDir,
    context,
    events,
    run: async (name, args) => (await runHandler(context, handlers, name, args)) as never,
    runUnchecked: (name, args, caller) => runHandler(context, handlers, name, args, caller),
    close: () => {
      checkpoints.stop();
      db.close();
    },
  };
}

export type { HandlerName, Handlers } from './handlers';
export type { Caller } from './context';
