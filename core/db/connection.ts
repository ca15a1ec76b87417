import Database from 'better-sqlite3';

export type Db = Database.Database;

/** Opens the Termwise database with the settings every connection must have. */
export function openDatabase(file: string): Db {
  const db = new Database(file);
  db.pragma('journal_mode = WAL');
  db.pragma('foreign_keys = ON');
  db.pragma('busy_timeout = 5000');
  db.pragma('synchronous = NORMAL');
  return db;
}
