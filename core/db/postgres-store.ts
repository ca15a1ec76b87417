import type pg from 'pg';
import { Kysely, PostgresDialect, type PostgresPool, type PostgresPoolClient } from 'kysely';
import { storable } from './batches';
import { statementName } from './statement-names';
import type { Tables } from './tables';

/** What a PostgreSQL store is given: the connection URL and how many connections a process keeps. */
export interface PostgresOptions {
  url: string;
  /** Connections this process keeps open (the server's requests share them). */
  poolSize: number;
  /** Name shown in pg_stat_activity. */
  applicationName: string;
}

/** Postgres' type ids whose text Termwise reads as numbers: bigint (COUNT, SUM) and numeric (AVG of integers). */
const INT8_OID = 20;
const NUMERIC_OID = 1700;

/** Counts and sums fit in a double (they are rows and students); reading them as numbers keeps both stores' answers alike. */
const typeParsers = (driver: typeof pg) => ({
  getTypeParser(oid: number, format?: 'text' | 'binary') {
    if (oid === INT8_OID || oid === NUMERIC_OID) return (text: string) => Number(text);
    return driver.types.getTypeParser(oid, format) as (text: string) => unknown;
  },
});

let driverLoading: Promise<typeof pg> | null = null;

/** The PostgreSQL driver, loaded when a PostgreSQL store is first opened: a laptop on SQLite never loads it. */
export function postgresDriver(): Promise<typeof pg> {
  driverLoading ??= import('pg').then((module) => module.default);
  return driverLoading;
}

/** Waits the busy timeout SQLite waits, then gives up with a lock error (answered as busy). */
const LOCK_TIMEOUT_MS = 5_000;
/** No statement from a request runs for ever; long work (imports, training) has its own bounds. */
const STATEMENT_TIMEOUT_MS = 60_000;
/** A transaction left open by a crashed worker does not hold its locks for ever. */
const IDLE_IN_TRANSACTION_MS = 60_000;

export async function postgresPool(options: PostgresOptions): Promise<pg.Pool> {
  const driver = await postgresDriver();
  const pool = new driver.Pool({
    connectionString: options.url,
    max: options.poolSize,
    // Connections once opened stay open (no idle timeout below `min`): a new one costs a server
    // process with cold caches and every named statement prepared again. Under a steady load (a
    // campus at a person's pace), closing the idle few and opening them at the next burst made
    // the slowest answers, 100–400 ms. Idle connections do not keep a process from exiting.
    min: options.poolSize,
    allowExitOnIdle: true,
    types: typeParsers(driver),
    application_name: options.applicationName,
    connectionTimeoutMillis: 10_000,
    options: `-c lock_timeout=${LOCK_TIMEOUT_MS} -c statement_timeout=${STATEMENT_TIMEOUT_MS} -c idle_in_transaction_session_timeout=${IDLE_IN_TRANSACTION_MS} -c TimeZone=UTC`,
  });
  // An idle connection the server dropped is replaced by the pool; the error must not end the process.
  pool.on('error', (error) => console.error(`PostgreSQL connection lost: ${error.message}`));
  return pool;
}

/** The opening of a transaction, as Kysely sends it ("begin", or "start transaction" with its settings). */
const OPENS_TRANSACTION = /^(begin|start transaction)\b[a-z ]*$/i;
const ENDS_TRANSACTION = /^(commit|rollback)$/i;

type Answer = pg.QueryResult<Record<string, unknown>>;
const nothingSent = (command: string): Answer => ({ command, rowCount: null, oid: 0, fields: [], rows: [] });

/**
 * The pool as Kysely sees it: each query's text values made storable (see storable) on the way,
 * and the hot queries (core/db/prepared) sent as named statements.
 *
 * A transaction's opening is held back and sent with the first statement that follows it, when
 * that statement has no values (the locks a write takes first, see core/db/locks): one round trip
 * to the server instead of two for every write. A transaction that sent nothing sends nothing.
 */
function storingPool(pool: pg.Pool): PostgresPool {
  const clients = new WeakMap<pg.PoolClient, PostgresPoolClient>();
  const wrap = (client: pg.PoolClient): PostgresPoolClient => {
    let wrapped = clients.get(client);
    if (!wrapped) {
      let opening: string | null = null;
      const send = (text: string, values: unknown[]): Promise<Answer> => {
        // A prepared query's text is parsed and planned once per connection, under its name.
        const name = statementName(text);
        return name === undefined ? client.query(text, values) : client.query({ name, text, values });
      };
      const query = async (text: string, parameters: readonly unknown[]): Promise<Answer> => {
        const values = parameters.map(storable);
        if (values.length === 0 && OPENS_TRANSACTION.test(text)) {
          opening = text;
          return nothingSent('BEGIN');
        }
        const held = opening;
        if (held === null) return send(text, values);
        opening = null;
        if (ENDS_TRANSACTION.test(text)) return nothingSent(text.toUpperCase());
        if (values.length > 0 || statementName(text) !== undefined) {
          await client.query(held);
          return send(text, values);
        }
        // Two statements in one message (the simple protocol, which takes no values): the second's answer is the caller's.
        const answers = (await client.query(`${held}; ${text}`)) as unknown as Answer[];
        return answers[answers.length - 1] ?? nothingSent('');
      };
      wrapped = {
        query: query as unknown as PostgresPoolClient['query'],
        release: (destroy?: boolean) => {
          opening = null;
          client.release(destroy);
        },
      };
      clients.set(client, wrapped);
    }
    return wrapped;
  };
  return { connect: async () => wrap(await pool.connect()), end: () => pool.end() };
}

export function postgresKysely(pool: pg.Pool): Kysely<Tables> {
  return new Kysely<Tables>({ dialect: new PostgresDialect({ pool: storingPool(pool) }) });
}
