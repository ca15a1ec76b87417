import pg from 'pg';
import { createDatabase } from './postgres';

/**
 * Test databases used again within a test process: a test done with its database gives it back
 * emptied to the template's rows (every table's rows deleted, the template's rows and sequence values
 * put back, in one transaction), and the next test takes it instead of copying the template again.
 * DELETE, not TRUNCATE: a test leaves a few rows a table, and TRUNCATE makes every table's and
 * index's files anew (80 ms a database given back, against 33).
 * Copying the template took about 360 ms of a loaded 2-core machine per test, and dropping the copy
 * more; emptying takes a few tens. A database whose schema a test changed (a column, an index, a
 * constraint, a trigger, a function, a view) is dropped instead, so a reused one always has the
 * template's schema. Only on the run's own throwaway server: on a server given by TERMWISE_TEST_DATABASE_URL every database is dropped.
 */

export interface TestDatabase {
  url: string;
  drop: () => Promise<void>;
}

interface Seed {
  /** The template's schema, as a digest of its tables' columns and its indexes. */
  fingerprint: string;
  /** One script that empties a database back to the template's rows. */
  reset: string;
}

/** A digest of everything a test might change in a database's schema: columns, indexes, constraints, triggers, functions, views. */
const FINGERPRINT = `SELECT md5(concat_ws('|',
  (SELECT string_agg(table_name || '.' || column_name || ' ' || data_type || ' ' || coalesce(column_default, ''), ',' ORDER BY table_name, column_name)
     FROM information_schema.columns WHERE table_schema = 'public'),
  (SELECT string_agg(indexdef, ',' ORDER BY indexdef) FROM pg_indexes WHERE schemaname = 'public'),
  (SELECT string_agg(c.conrelid::regclass::text || ' ' || pg_get_constraintdef(c.oid), ',' ORDER BY 1)
     FROM pg_constraint c JOIN pg_namespace n ON n.oid = c.connamespace WHERE n.nspname = 'public'),
  (SELECT string_agg(t.tgname || ' ' || t.tgrelid::regclass::text, ',' ORDER BY 1) FROM pg_trigger t WHERE NOT t.tgisinternal),
  (SELECT string_agg(p.proname || ' ' || md5(p.prosrc), ',' ORDER BY 1) FROM pg_proc p JOIN pg_namespace n ON n.oid = p.pronamespace WHERE n.nspname = 'public'),
  (SELECT string_agg(viewname || ' ' || md5(definition), ',' ORDER BY 1) FROM pg_views WHERE schemaname = 'public')
)) AS fingerprint`;

async function withClient<T>(url: string, use: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await use(client);
  } finally {
    await client.end();
  }
}

const fingerprintOf = async (client: pg.Client): Promise<string> => String((await client.query<{ fingerprint: string }>(FINGERPRINT)).rows[0]?.fingerprint);

/** Reads the template once: its schema's digest, and the script that puts its rows and sequences back. */
async function readSeed(templateUrl: string): Promise<Seed> {
  return withClient(templateUrl, async (client) => {
    const tables = (
      await client.query<{ name: string }>(`SELECT quote_ident(tablename) AS name FROM pg_tables WHERE schemaname = 'public' ORDER BY tablename`)
    ).rows.map((row) => row.name);
    // Triggers and foreign keys are not run while the rows go and the template's own rows are put back as they were.
    const statements = ['SET LOCAL session_replication_role = replica', ...tables.map((table) => `DELETE FROM ${table}`)];
    for (const table of tables) {
      const rows = (await client.query<{ rows: unknown[] | null }>(`SELECT json_agg(t) AS rows FROM ${table} t`)).rows[0]?.rows ?? null;
      if (rows !== null)
        statements.push(
          `INSERT INTO ${table} OVERRIDING SYSTEM VALUE SELECT * FROM json_populate_recordset(NULL::${table}, ${client.escapeLiteral(JSON.stringify(rows))})`,
        );
    }
    // Read from each sequence itself: pg_sequences shows no value for one restarted and not yet used.
    const sequences = (
      await client.query<{ name: string }>(
        `SELECT quote_ident(schemaname) || '.' || quote_ident(sequencename) AS name FROM pg_sequences WHERE schemaname = 'public'`,
      )
    ).rows;
    for (const { name } of sequences) {
      const value = (await client.query<{ last_value: string; is_called: boolean }>(`SELECT last_value::text, is_called FROM ${name}`)).rows[0];
      if (value) statements.push(`SELECT setval(${client.escapeLiteral(name)}, ${value.last_value}, ${value.is_called ? 'true' : 'false'})`);
    }
    return { fingerprint: await fingerprintOf(client), reset: `BEGIN; SET LOCAL lock_timeout = '5s'; ${statements.join('; ')}; COMMIT` };
  });
}

const urlOf = (adminUrl: string, database: string): string => {
  const url = new URL(adminUrl);
  url.pathname = `/${database}`;
  return url.toString();
};

let seed: Promise<Seed> | null = null;
const free: TestDatabase[] = [];

/** Empties a database a test is done with back to the template and keeps it; drops it when its schema changed or it cannot. */
async function giveBack(database: TestDatabase, known: Seed): Promise<void> {
  const emptied = await withClient(database.url, async (client) => {
    if ((await fingerprintOf(client)) !== known.fingerprint) return false;
    await client.query(known.reset);
    return true;
  }).catch(() => false);
  if (emptied) free.push(database);
  else await database.drop();
}

/** A database like a fresh copy of the template: one given back by an earlier test of this process, else a new copy. */
export async function pooledDatabase(adminUrl: string, template: string): Promise<TestDatabase> {
  seed ??= readSeed(urlOf(adminUrl, template));
  const known = await seed;
  const database = free.pop() ?? (await createDatabase(adminUrl, template));
  return { url: database.url, drop: () => giveBack(database, known) };
}
