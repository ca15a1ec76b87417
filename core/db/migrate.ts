import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Kysely, Migrator, sql, SqliteDialect } from 'kysely';
import type Database from 'better-sqlite3';
import type { Tables } from './tables';

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

/** Versions applied to a database, with the checksum each was applied with (schema_migrations). */
type Recorded = Map<number, string>;

/** Refuses a database one of whose applied migrations has since been edited: migrations are append-only. */
function refuseEdited(recorded: Recorded, migrations: readonly Migration[]): void {
  for (const m of migrations) {
    const checksum = recorded.get(m.version);
    if (checksum !== undefined && checksum !== m.checksum) {
      throw new MigrationError(
        `Migration ${m.name} was changed after it was applied to this database (recorded checksum ${checksum.slice(0, 12)}…, file now ${m.checksum.slice(0, 12)}…). Applied migrations must never be edited: add a new migration instead.`,
      );
    }
  }
}

/**
 * Runs the pending migrations with Kysely's Migrator, which holds its lock meanwhile (on PostgreSQL,
 * an advisory lock: two processes starting at once migrate one after the other) and records what it
 * ran in kysely_migration. `apply` applies one migration and records it in schema_migrations (the
 * checksums a backup is compared by). A migration `recorded` there already (as read before the run)
 * is not applied again: a database migrated before the Migrator came, or one whose last run stopped
 * between the two records, is taken up where it is. Answers the versions applied.
 */
async function runMigrator<DB>(
  db: Kysely<DB>,
  migrations: readonly Migration[],
  recorded: Recorded,
  apply: (trx: Kysely<DB>, m: Migration) => Promise<void>,
): Promise<number[]> {
  const applied: number[] = [];
  const up = async (trx: Kysely<DB>, m: Migration): Promise<void> => {
    if (recorded.has(m.version)) return;
    await apply(trx, m);
    applied.push(m.version);
  };
  const migrator = new Migrator({
    db,
    provider: {
      getMigrations: () => Promise.resolve(Object.fromEntries(migrations.map((m) => [m.name.replace(/\.sql$/, ''), { up: (trx: Kysely<DB>) => up(trx, m) }]))),
    },
  });
  const { error } = await migrator.migrateToLatest();
  if (error !== undefined)
    throw error instanceof Error ? error : new MigrationError('The migrations stopped on something other than an error', { cause: error });
  return applied;
}

/**
 * Brings a SQLite database to Termwise's schema. Each migration runs in its own transaction with
 * SQLite's procedure for one that rebuilds a table: foreign keys off (a dropped parent would
 * otherwise cascade to its children), and every key checked before it commits. A failing migration
 * is rolled back whole, and the ones before it stay.
 */
export async function migrate(handle: Database.Database, migrations: readonly Migration[] = loadMigrations()): Promise<number[]> {
  handle.exec(`CREATE TABLE IF NOT EXISTS schema_migrations (
    version INTEGER PRIMARY KEY,
    name TEXT NOT NULL,
    checksum TEXT NOT NULL,
    applied_at TEXT NOT NULL
  )`);
  const recorded: Recorded = new Map(
    handle
      .prepare<[], { version: number; checksum: string }>('SELECT version, checksum FROM schema_migrations')
      .all()
      .map((row) => [row.version, row.checksum]),
  );
  refuseEdited(recorded, migrations);
  const record = handle.prepare('INSERT INTO schema_migrations (version, name, checksum, applied_at) VALUES (?, ?, ?, ?)');
  const foreignKeys = handle.pragma('foreign_keys', { simple: true }) as number;
  handle.pragma('foreign_keys = OFF');
  try {
    // Kysely's own SQLite dialect over the caller's handle (not destroyed: the handle stays open).
    // A migration's SQL holds several statements, which only the handle's exec runs.
    const db = new Kysely<Tables>({ dialect: new SqliteDialect({ database: handle }) });
    return await runMigrator(db, migrations, recorded, (_trx, m) => {
      handle.transaction(() => {
        handle.exec(m.sql);
        const broken = handle.pragma('foreign_key_check') as { table: string; parent: string }[];
        if (broken.length > 0) {
          throw new MigrationError(`Migration ${m.name} leaves ${broken.length} row(s) of ${broken[0]?.table} pointing at no ${broken[0]?.parent} row`);
        }
        record.run(m.version, m.name, m.checksum, new Date().toISOString());
      })();
      return Promise.resolve();
    });
  } finally {
    handle.pragma(`foreign_keys = ${foreignKeys ? 'ON' : 'OFF'}`);
  }
}

/** The baseline schema's SQL, read when a PostgreSQL database is first migrated. */
const baselineSql = (): string => readFileSync(new URL('./postgres/baseline.sql', import.meta.url), 'utf8');
/** The SQLite migrations the PostgreSQL baseline stands for. */
export const BASELINE_VERSION = 12;

/** What a PostgreSQL database records as applied (nothing when it has no record yet). */
async function recordedOnPostgres(db: Kysely<Tables>): Promise<Recorded> {
  const { rows } = await sql<{ present: boolean }>`SELECT to_regclass('schema_migrations') IS NOT NULL AS present`.execute(db);
  if (!rows[0]?.present) return new Map();
  return new Map((await db.selectFrom('schema_migrations').select(['version', 'checksum']).execute()).map((row) => [row.version, row.checksum]));
}

/**
 * Brings a PostgreSQL database to Termwise's schema, all pending migrations in one transaction: the
 * baseline on an empty database, recorded as the migrations it stands for with their checksums (so a
 * backup from either store names the same schema), then each later one in its PostgreSQL variant.
 */
export async function migratePostgres(db: Kysely<Tables>, migrations: readonly Migration[] = loadMigrations()): Promise<number[]> {
  const recorded = await recordedOnPostgres(db);
  refuseEdited(recorded, migrations);
  const partOfBaseline = migrations.filter((m) => m.version <= BASELINE_VERSION && !recorded.has(m.version));
  if (recorded.size > 0 && partOfBaseline.length > 0) {
    throw new MigrationError(
      `This PostgreSQL database holds part of Termwise's schema only (${recorded.size} of ${BASELINE_VERSION} migrations); use an empty database`,
    );
  }
  // Inside the Migrator's lock and transaction: made once, by the first migration a run applies.
  let tableMade = false;
  let baselineApplied = false;
  return runMigrator(db, migrations, recorded, async (trx, m) => {
    if (!tableMade) {
      await sql`CREATE TABLE IF NOT EXISTS schema_migrations (
        version INTEGER PRIMARY KEY, name TEXT COLLATE "C" NOT NULL, checksum TEXT COLLATE "C" NOT NULL, applied_at TEXT COLLATE "C" NOT NULL)`.execute(trx);
      tableMade = true;
    }
    if (m.version > BASELINE_VERSION) await sql.raw(m.postgresSql ?? m.sql).execute(trx);
    else if (!baselineApplied) {
      await sql.raw(baselineSql()).execute(trx);
      baselineApplied = true;
    }
    await trx
      .insertInto('schema_migrations')
      .values({ version: m.version, name: m.name, checksum: m.checksum, applied_at: new Date().toISOString() })
      .execute();
  });
}
