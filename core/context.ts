import type { Database } from 'better-sqlite3';
import type { CoreEvents } from './events';

export interface CoreContext {
  db: Database;
  dataDir: string;
  events: CoreEvents;
  /** Current time; injectable so tests and runs are reproducible. */
  now: () => Date;
}
