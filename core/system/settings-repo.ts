import { statement, type Db } from '../db/connection';

/** Settings kept with the data (and so in backups): one JSON value per key. */
export function readSetting(db: Db, key: string): unknown {
  const text = statement<[string], string>(db, 'SELECT value FROM settings WHERE key = ?').pluck().get(key);
  if (text === undefined) return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    // A damaged value (e.g. from an edited backup) reads as unset.
    return undefined;
  }
}

export function writeSetting(db: Db, key: string, value: unknown): void {
  db.prepare('INSERT INTO settings (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value').run(key, JSON.stringify(value));
}
