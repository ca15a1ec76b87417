import type { Db, Store } from './db/store';
import type { CoreEvents } from './events';
import type { CampusList } from './domain/campuses';
import type { Actor } from './domain/people';

/**
 * Who is asking: the desktop app over IPC (or code in the same process), a script with the API
 * token, or the page served to a browser with a session. Some answers depend on it: a browser
 * session never receives the API token.
 */
export type Caller = 'desktop' | 'script' | 'browser';

/** How scripts reach this core over REST; set by whoever hosts the HTTP server. */
export interface ApiAccess {
  url: string;
  token: () => string;
  /** Where the token comes from, in words. */
  source: string;
  /** Whether `regenerate` can make a new token (not when TERMWISE_API_TOKEN fixes it). */
  regenerable: boolean;
  /** Makes a new token; refused when the token is fixed by TERMWISE_API_TOKEN. */
  regenerate: () => string | Promise<string>;
  /**
   * A campus server (PostgreSQL, or a public address configured): its sign-in link is kept out of
   * the console, and a session without a person is the registrar's, by that link.
   */
  campus: boolean;
}

export interface CoreContext {
  /** Where the data lives (SQLite on the laptop, PostgreSQL on a shared server). */
  store: Store;
  /** The queries' builder: the store itself, or the transaction the current write runs in. */
  db: Db;
  dataDir: string;
  events: CoreEvents;
  /** The campuses this installation plans for (campuses.json in the data folder, else the defaults). */
  campuses: CampusList;
  /** Current time; injectable so tests and runs are reproducible. */
  now: () => Date;
  /** Who made the current call (set by the runner for each call). */
  caller: Caller;
  /**
   * The department the call acts in: every department-owned row it reads or writes is this
   * department's (a laptop has one, 1).
   */
  department: number;
  /** Who the call acts for: their role and department (the laptop's user is the registrar). */
  actor: Actor;
  /** The batch the current call's timetable changes belong to (one per call; set by the runner). */
  batch?: string;
  /** Set once the REST API is listening. */
  access?: ApiAccess;
}
