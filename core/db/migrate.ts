import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type Database from 'better-sqlite3';

type Db = Database.Database;

export interface Migration {
  version: number;
  name: string;
  /** The migration's SQL, for SQLite, and for PostgreSQL too unless it has a variant of its own. */
  sql: string;
  /** PostgreSQL's variant (`NNNN_name.postgres.sql`), where the two languages differ. */
  postgresSql?: string;
  /** Of the SQL of both stores: each store records the same one, so a backup names its schema alike. */
  checksum: string;
}

export const MIGRATIONS_DIR = fileURLToPath(new URL('./migrations/', import.meta.url));

const FILE_PATTERN = /^(\d{4})_([a-z0-9_]+)\.sql$/;

export function loadMigrations(dir: string = MIGRATIONS_DIR): Migration[] {
  const files = readdirSync(dir);
  return files
    .filter((file) => FILE_PATTERN.test(file))
    .sort()
    .map((file) => {
      const match = FILE_PATTERN.exec(file);
      const sql = readFileSync(join(dir, file), 'utf8');
      const variant = file.replace(/\.sql$/, '.postgres.sql');
      const postgresSql = files.includes(variant) ? readFileSync(join(dir, variant), 'utf8') : undefined;
      return {
        version: Number(match?.[1]),
        name: file,
        sql,
        ...(postgresSql === undefined ? {} : { postgresSql }),
        checksum: createHash('sha256')
          .update(postgresSql === undefined ? sql : `${sql}\u0000${postgresSql}`)
          .digest('hex'),
      };
    });
}

export class MigrationError extends Error {}

/**
 * Applies pending migrations in order, each in its own transaction, recording a checksum.
 * An applied migration whose file has since changed is refused: migrations are append-only.
 */
export function migrate(db: Db, migrations: Migration[] = loadMigrations()): number[] {
  db.exec(`CREATE TABLE IF NOT EXISTS schema_migrations (
    version INTEGER PRIMARY KEY,
    name TEXT NOT NULL,
    checksum TEXT NOT NULL,
    applied_at TEXT NOT NULL
  )`);
  const applied = new Map(
    db
      .prepare<[], { version: number; name: string; checksum: string }>('SELECT version, name, checksum FROM schema_migrations')
      .all()
      .map((row) => [row.version, row]),
  );
  for (const m of migrations) {
    const done = applied.get(m.version);
    if (done && done.checksum !== m.checksum) {
      throw new MigrationError(
        `Migration ${m.name} was changed after it was applied to this database (recorded checksum ${done.checksum.slice(0, 12)}…, file now ${m.checksum.slice(0, 12)}…). Applied migrations must never be edited: add a new migration instead.`,
      );
    }
  }
  const newlyApplied: number[] = [];
  const record = db.prepare('INSERT INTO schema_migrations (version, name, checksum, applied_at) VALUES (?, ?, ?, ?)');
  // SQLite's procedure for a migration that rebuilds a table: foreign keys off (a dropped parent
  // would otherwise cascade to its children), and every key checked before the migration commits.
  const foreignKeys = db.pragma('foreign_keys', { simple: true }) as number;
  db.pragma('foreign_keys = OFF');
  try {
    for (const m of migrations) {
      if (applied.has(m.version)) continue;
      db.transaction(() => {
        db.exec(m.sql);
        const broken = db.pragma('foreign_key_check') as { table: string; parent: string }[];
        if (broken.length > 0) {
          throw new MigrationError(`Migration ${m.name} leaves ${broken.length} row(s) of ${broken[0]?.table} pointing at no ${broken[0]?.parent} row`);
        }
        record.run(m.version, m.name, m.checksum, new Date().toISOString());
      })();
      newlyApplied.push(m.version);
    }
  } finally {
    db.pragma(`foreign_keys = ${foreignKeys ? 'ON' : 'OFF'}`);
  }
  return newlyApplied;
}
