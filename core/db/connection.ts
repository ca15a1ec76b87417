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

const statements = new WeakMap<Db, Map<string, Database.Statement>>();

/**
 * A prepared statement kept per connection: the hot paths (every timetable write checks several
 * queries) compile their SQL once instead of on every call.
 */
export function statement<P extends unknown[] = unknown[], R = unknown>(db: Db, sql: string): Database.Statement<P, R> {
  let cache = statements.get(db);
  if (!cache) statements.set(db, (cache = new Map<string, Database.Statement>()));
  let prepared = cache.get(sql);
  if (!prepared) cache.set(sql, (prepared = db.prepare(sql)));
  return prepared as unknown as Database.Statement<P, R>;
}

/**
 * A stamp that changes on any write to the database: this connection's changes and SQLite's count
 * of other connections' commits (an import writes from its own thread). For results kept until a write.
 */
export function databaseVersion(db: Db): string {
  return `${String(otherCommits(db))}:${String(statement(db, 'SELECT total_changes()').pluck().get())}`;
}

/** SQLite's count of commits made by other connections (PRAGMA data_version): equal twice, nobody else wrote in between. */
export function otherCommits(db: Db): number {
  return Number(db.pragma('data_version', { simple: true }));
}
