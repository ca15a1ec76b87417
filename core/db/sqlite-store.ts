import Database from 'better-sqlite3';
import {
  CompiledQuery,
  createQueryId,
  Kysely,
  sql,
  SqliteDialect,
  type DatabaseConnection,
  type Driver,
  type QueryCompiler,
  type QueryResult,
  type TransactionSettings,
} from 'kysely';
import { checkpointWhenIdle } from './checkpoints';
import { migrate } from './migrate';
import type { Tables } from './tables';
import { storable } from './batches';

export type SqliteHandle = Database.Database;

/** Opens the Termwise database file with the settings every connection must have. */
export function openSqliteFile(file: string): SqliteHandle {
  const db = new Database(file);
  db.pragma('journal_mode = WAL');
  db.pragma('foreign_keys = ON');
  db.pragma('busy_timeout = 5000');
  db.pragma('synchronous = NORMAL');
  return db;
}

/** Statements kept per connection: the hot paths compile their SQL once instead of on every call. */
const MAX_CACHED_STATEMENTS = 500;

/** A statement kept with the names of the columns it answers (none for a write without RETURNING). */
interface KeptStatement {
  statement: Database.Statement;
  columns: string[] | null;
}

/**
 * A row as an object of the statement's columns. Rows are read as arrays and made objects here:
 * better-sqlite3 builds each object through its native side, about twice as slow for the dozens
 * of rows a timetable check reads.
 */
function rowObject(columns: readonly string[], values: readonly unknown[]): Record<string, unknown> {
  const row: Record<string, unknown> = {};
  for (let i = 0; i < columns.length; i++) row[columns[i] as string] = values[i];
  return row;
}

/** One connection to the file; SQLite runs one statement at a time on it. */
class SqliteConnection implements DatabaseConnection {
  private readonly statements = new Map<string, KeptStatement>();

  constructor(readonly handle: SqliteHandle) {}

  private prepared(sql: string): KeptStatement {
    let kept = this.statements.get(sql);
    if (!kept) {
      const statement = this.handle.prepare(sql);
      kept = {
        statement,
        columns: statement.reader
          ? statement
              .raw(true)
              .columns()
              .map((c) => c.name)
          : null,
      };
      if (this.statements.size >= MAX_CACHED_STATEMENTS) this.statements.delete(this.statements.keys().next().value as string);
      this.statements.set(sql, kept);
    }
    return kept;
  }

  executeQuery<R>(compiled: CompiledQuery): Promise<QueryResult<R>> {
    try {
      const { statement, columns } = this.prepared(compiled.sql);
      const parameters = compiled.parameters.map(storable);
      if (columns) return Promise.resolve({ rows: (statement.all(...parameters) as unknown[][]).map((values) => rowObject(columns, values) as R) });
      const { changes, lastInsertRowid } = statement.run(...parameters);
      return Promise.resolve({ numAffectedRows: BigInt(changes), insertId: BigInt(lastInsertRowid), rows: [] });
    } catch (error) {
      return Promise.reject(error instanceof Error ? error : new Error(String(error)));
    }
  }

  streamQuery<R>(): AsyncIterableIterator<QueryResult<R>> {
    throw new Error('Streaming is not supported on the SQLite store');
  }
}

/** Waits its turn for the one connection (a transaction holds it until it ends). */
class Turn {
  private held: Promise<void> | null = null;
  private release: (() => void) | null = null;

  async take(): Promise<void> {
    while (this.held) await this.held;
    this.held = new Promise((resolve) => (this.release = resolve));
  }

  give(): void {
    const release = this.release;
    this.held = null;
    this.release = null;
    release?.();
  }
}

/**
 * Kysely's SQLite driver with statements kept between calls and write transactions begun
 * IMMEDIATE: the write lock is taken before the first read, so a check and the write it guards see
 * the same data even while another connection (an import's thread) writes.
 */
class SqliteDriver implements Driver {
  private readonly connection: SqliteConnection;
  private readonly turn = new Turn();

  constructor(handle: SqliteHandle) {
    this.connection = new SqliteConnection(handle);
  }

  async init(): Promise<void> {}

  async acquireConnection(): Promise<DatabaseConnection> {
    await this.turn.take();
    return this.connection;
  }

  async beginTransaction(connection: DatabaseConnection, settings: TransactionSettings): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw(settings.accessMode === 'read only' ? 'BEGIN DEFERRED' : 'BEGIN IMMEDIATE'));
  }

  async commitTransaction(connection: DatabaseConnection): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw('COMMIT'));
  }

  async rollbackTransaction(connection: DatabaseConnection): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw('ROLLBACK'));
  }

  // Kysely's savepoints (see core/db/transactions): the same statements its own SQLite driver sends.
  async savepoint(connection: DatabaseConnection, name: string, compile: QueryCompiler['compileQuery']): Promise<void> {
    await connection.executeQuery(compile(sql`savepoint ${sql.id(name)}`.toOperationNode(), createQueryId()));
  }

  async rollbackToSavepoint(connection: DatabaseConnection, name: string, compile: QueryCompiler['compileQuery']): Promise<void> {
    await connection.executeQuery(compile(sql`rollback to ${sql.id(name)}`.toOperationNode(), createQueryId()));
  }

  async releaseSavepoint(connection: DatabaseConnection, name: string, compile: QueryCompiler['compileQuery']): Promise<void> {
    await connection.executeQuery(compile(sql`release ${sql.id(name)}`.toOperationNode(), createQueryId()));
  }

  releaseConnection(): Promise<void> {
    this.turn.give();
    return Promise.resolve();
  }

  destroy(): Promise<void> {
    if (this.connection.handle.open) this.connection.handle.close();
    return Promise.resolve();
  }
}

class TermwiseSqliteDialect extends SqliteDialect {
  constructor(private readonly handle: SqliteHandle) {
    super({ database: handle });
  }

  override createDriver(): Driver {
    return new SqliteDriver(this.handle);
  }
}

/** A typed query builder over an open SQLite file. */
export function sqliteKysely(handle: SqliteHandle): Kysely<Tables> {
  return new Kysely<Tables>({ dialect: new TermwiseSqliteDialect(handle) });
}

export interface SqliteStoreParts {
  handle: SqliteHandle;
  db: Kysely<Tables>;
  /** Call after each write: the write-ahead log is folded into the file once writes pause. */
  wrote: () => void;
  close: () => Promise<void>;
}

/** Opens (and migrates) the SQLite store of a data folder's database file. */
export async function openSqliteStore(file: string, options: { migrate: boolean; checkpoints: boolean }): Promise<SqliteStoreParts> {
  const handle = openSqliteFile(file);
  try {
    if (options.migrate) await migrate(handle);
  } catch (error) {
    handle.close();
    throw error;
  }
  const db = sqliteKysely(handle);
  const checkpoints = options.checkpoints ? checkpointWhenIdle(handle) : null;
  return {
    handle,
    db,
    wrote: () => checkpoints?.wrote(),
    close: async () => {
      checkpoints?.stop();
      await db.destroy();
    },
  };
}
