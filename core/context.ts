import type { Database } from 'better-sqlite3';
import type { CoreEvents } from './events';
import type { ApiAccess } from './system/access';

export interface CoreContext {
  db: Database;
  dataDir: string;
  events: CoreEvents;
  /** Current time; injectable so tests and runs are reproducible. */
  now: () => Date;
  /** Set once the REST API is listening. */
  access?: ApiAccess;
}
