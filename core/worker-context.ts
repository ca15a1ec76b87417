import { openDatabase } from './db/connection';
import { CoreEvents } from './events';
import { CampusList, type CampusSpec } from './domain/campuses';
import type { CoreContext } from './context';

/** What a worker thread needs to act on the core's database: the file, the campuses and the time of the call. */
export interface WorkerContextData {
  databaseFile: string;
  dataDir: string;
  campuses: readonly CampusSpec[];
  /** The caller's clock at the start of the job (ISO). */
  now: string;
}

/** The data a worker needs to open the same database with the same settings as `ctx`. */
export function workerContextData(ctx: CoreContext, databaseFile: string): WorkerContextData {
  return { databaseFile, dataDir: ctx.dataDir, campuses: ctx.campuses.specs, now: ctx.now().toISOString() };
}

/**
 * A context in a worker thread: its own connection to the core's database (WAL: the main thread
 * keeps reading while the worker writes), the same campuses, and the caller's clock.
 */
export function openWorkerContext(data: WorkerContextData): CoreContext {
  const now = new Date(data.now);
  return { db: openDatabase(data.databaseFile), dataDir: data.dataDir, events: new CoreEvents(), campuses: new CampusList(data.campuses), caller: 'desktop', now: () => now };
}
