import { createHash } from 'node:crypto';
import type { Db } from '../../core/db/connection';

/** A digest of every table's rows: equal before and after means nothing was written. */
export function tableHashes(db: Db): Record<string, string> {
  const tables = db.prepare<[], string>("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name").pluck().all();
  const hashes: Record<string, string> = {};
  for (const table of tables) {
    const hash = createHash('sha256');
    const text: string[] = [];
    for (const row of db.prepare(`SELECT * FROM "${table}" ORDER BY rowid`).raw().all() as unknown[][]) {
      for (const value of row) {
        if (value instanceof Uint8Array) hash.update(value);
        else text.push(typeof value === 'string' ? `s${value}` : `${typeof value}${String(value)}`);
      }
      text.push('\n');
    }
    hash.update(text.join('\u0000'));
    hashes[table] = hash.digest('hex');
  }
  return hashes;
}
