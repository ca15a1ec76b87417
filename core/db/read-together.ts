import { CompiledQuery } from 'kysely';
import type { Db } from './store';
import { isPostgres } from './transactions';
import { nameStatement } from './statement-names';

/**
 * A read not yet sent: its query, and what its rows answer. Reads that do not depend on each other
 * are sent together (readTogether).
 */
export interface PendingRead<T> {
  /** The query; null when the answer is known without one (an empty list asked for). */
  query: CompiledQuery | null;
  answer(rows: readonly unknown[]): T;
}

/** A read whose answer is its rows made into something else. */
export function mapRead<T, U>(read: PendingRead<T>, map: (value: T) => U): PendingRead<U> {
  return { query: read.query, answer: (rows) => map(read.answer(rows)) };
}

/** An answer known without reading. */
export function knownRead<T>(value: T): PendingRead<T> {
  return { query: null, answer: () => value };
}

/** One read on its own (a read also sent together elsewhere, or too few to send together). */
export async function readAlone<T>(db: Db, read: PendingRead<T>): Promise<T> {
  return read.answer(read.query === null ? [] : (await db.executeQuery(read.query)).rows);
}

type Answers<T extends Record<string, PendingRead<unknown>>> = { [K in keyof T]: T[K] extends PendingRead<infer V> ? V : never };

/** A query's `$n` placeholders moved up by `offset` (quoted text and names left as they are). */
function renumbered(text: string, offset: number): string {
  return text.replace(/'(?:[^']|'')*'|"(?:[^"]|"")*"|\$(\d+)/g, (match, n: string | undefined) => (n === undefined ? match : `$${Number(n) + offset}`));
}

/** Each query's rows as one JSON list, all in one statement. */
function together(queries: readonly (readonly [string, CompiledQuery])[]): CompiledQuery {
  const parameters: unknown[] = [];
  const columns = queries.map(([name, query]) => {
    const text = renumbered(query.sql, parameters.length);
    parameters.push(...query.parameters);
    return `(SELECT coalesce(json_agg(t), '[]'::json) FROM (${text}) AS t) AS "${name}"`;
  });
  const sql = `SELECT ${columns.join(', ')}`;
  // Prepared once per connection, as its parts would be.
  nameStatement(sql);
  return CompiledQuery.raw(sql, parameters);
}

/**
 * Reads that do not depend on each other, in one round trip to a database server: on PostgreSQL,
 * one statement answers each query's rows as a JSON list (every column Termwise reads this way is
 * text or a number, which JSON keeps). SQLite is in the process, with no round trip to save: each
 * query runs as it is.
 */
export async function readTogether<T extends Record<string, PendingRead<unknown>>>(db: Db, reads: T): Promise<Answers<T>> {
  const sent = Object.entries(reads).filter((entry): entry is [string, PendingRead<unknown> & { query: CompiledQuery }] => entry[1].query !== null);
  const answers: Record<string, unknown> = {};
  if (isPostgres(db) && sent.length > 1) {
    const rows = (await db.executeQuery<Record<string, unknown[]>>(together(sent.map(([name, read]) => [name, read.query])))).rows[0] ?? {};
    for (const [name, read] of Object.entries(reads)) answers[name] = read.answer(rows[name] ?? []);
  } else for (const [name, read] of Object.entries(reads)) answers[name] = await readAlone(db, read);
  return answers as Answers<T>;
}
