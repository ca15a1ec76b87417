import type Database from 'better-sqlite3';

type Db = Database.Database;

/** WAL pages a burst of writes may add before SQLite checkpoints on a write's own time (about 40 MB). */
export const AUTOCHECKPOINT_PAGES = 10_000;
/** Quiet time after the last write before the write-ahead log is folded into the database. */
export const IDLE_CHECKPOINT_MS = 1_000;

/**
 * Moves WAL checkpoints off the request path: SQLite's default folds the log into the database
 * every 1,000 pages, inside whichever write crosses the line (a 10 ms pause every hundred or so
 * timetable writes). Instead the log is checkpointed once writes have paused; a long burst still
 * checkpoints at AUTOCHECKPOINT_PAGES. Returns `wrote` (call after each write) and `stop`.
 */
export function checkpointWhenIdle(db: Db, idleMs = IDLE_CHECKPOINT_MS): { wrote: () => void; stop: () => void } {
  db.pragma(`wal_autocheckpoint = ${AUTOCHECKPOINT_PAGES}`);
  let timer: NodeJS.Timeout | null = null;
  const stop = (): void => {
    if (timer) clearTimeout(timer);
    timer = null;
  };
  return {
    wrote() {
      stop();
      timer = setTimeout(() => {
        timer = null;
        if (db.open) db.pragma('wal_checkpoint(PASSIVE)');
      }, idleMs);
      timer.unref();
    },
    stop,
  };
}
