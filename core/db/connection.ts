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
