import type { Database } from 'better-sqlite3';
import type { CoreEvents } from './events';
import type { ApiAccess } from './system/access';
import type { CampusList } from './domain/campuses';

/**
 * Who is asking: the desktop app over IPC (or code in the same process), a script with the API
 * token, or the page served to a browser with a session. Some answers depend on it: a browser
 * session never receives the API token.
 */
export type Caller = 'desktop' | 'script' | 'browser';

export interface CoreContext {
  db: Database;
  dataDir: string;
  events: CoreEvents;
  /** The campuses this installation plans for (campuses.json in the data folder, else the defaults). */
  campuses: CampusList;
  /** Current time; injectable so tests and runs are reproducible. */
  now: () => Date;
  /** Who made the current call (set by the runner for each call). */
  caller: Caller;
  /** Set once the REST API is listening. */
  access?: ApiAccess;
}
