import { openStore, type StoreConfig } from './db/store';
import { CoreEvents } from './events';
import { CampusList, type CampusSpec } from './domain/campuses';
import type { Caller, CoreContext } from './context';
import type { Actor } from './domain/people';

/** What a worker thread needs to act on the core's store: where it is, the campuses and the time of the call. */
export interface WorkerContextData {
  store: StoreConfig;
  dataDir: string;
  campuses: readonly CampusSpec[];
  /** The department the job acts in, and who it acts for (what it may name of other departments). */
  department: number;
  actor: Actor;
  /** How the caller reached the core, and the batch its changes belong to (history records both). */
  caller: Caller;
  batch: string | null;
  /** The caller's clock at the start of the job (ISO). */
  now: string;
}

/** The data a worker needs to open the same store with the same settings as `ctx`. */
export function workerContextData(ctx: CoreContext): WorkerContextData {
  return {
    store: ctx.store.config,
    dataDir: ctx.dataDir,
    campuses: ctx.campuses.specs,
    department: ctx.department,
    actor: ctx.actor,
    caller: ctx.caller,
    batch: ctx.batch ?? null,
    now: ctx.now().toISOString(),
  };
}

/** Connections a worker keeps to a PostgreSQL store: its job runs one query at a time. */
const WORKER_CONNECTIONS = 2;

/**
 * A context in a worker thread: its own connection to the core's store (the main thread keeps
 * reading and writing while the worker works), the same campuses, and the caller's clock. Close it
 * with `ctx.store.close()`.
 */
export async function openWorkerContext(data: WorkerContextData): Promise<CoreContext> {
  const now = new Date(data.now);
  const store = await openStore(data.store, { migrate: false, poolSize: WORKER_CONNECTIONS });
  return {
    store,
    db: store.db,
    dataDir: data.dataDir,
    events: new CoreEvents(),
    campuses: new CampusList(data.campuses),
    caller: data.caller,
    ...(data.batch === null ? {} : { batch: data.batch }),
    department: data.department,
    actor: data.actor,
    now: () => now,
  };
}
