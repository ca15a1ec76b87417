import type { Compilable, CompiledQuery, QueryResult, RawBuilder } from 'kysely';
import type { Db } from './store';
import { isPostgres } from './transactions';
import { nameStatement } from './statement-names';
import type { PendingRead } from './read-together';

/**
 * A query built once with Kysely's typed builder and compiled once per store kind and shape of its
 * values, then run with new values: the hot paths (every timetable write runs a dozen small queries)
 * skip building and compiling each time, as a prepared statement would.
 *
 * `build` receives stand-ins for the values and must only pass them on as values (never branch on
 * them). Lists and rows (plain objects) are taken apart: a list of another length, or a row with
 * other fields, compiles once more.
 */
export interface PreparedQuery<A extends readonly unknown[], R> {
  /** The rows the query answers. */
  rows(db: Db, ...values: A): Promise<R[]>;
  /** The first row, if any. */
  first(db: Db, ...values: A): Promise<R | undefined>;
  /** What a write did (rows changed). */
  run(db: Db, ...values: A): Promise<QueryResult<R>>;
  /** The query with its values, to be read with others in one round trip (see readTogether). */
  read(db: Db, ...values: A): PendingRead<R[]>;
}

type Path = readonly (string | number)[];

const MARK = '\u0001termwise:';
const standIn = (path: Path): string => `${MARK}${JSON.stringify(path)}\u0001`;

const isRow = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && Object.getPrototypeOf(value) === Object.prototype;

/** The values with each scalar replaced by its stand-in (lists and rows kept as lists and rows). */
function standIns(value: unknown, path: Path): unknown {
  if (Array.isArray(value)) return value.map((item, i) => standIns(item, [...path, i]));
  if (isRow(value))
    return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, item === undefined ? undefined : standIns(item, [...path, key])]));
  return standIn(path);
}

/** What decides the compiled SQL besides the store: the lengths of lists and the fields of rows. */
function shapeOf(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(shapeOf).join(',')}]`;
  if (isRow(value))
    return `{${Object.entries(value)
      .map(([key, item]) => `${key}:${item === undefined ? 'u' : shapeOf(item)}`)
      .join(',')}}`;
  return '';
}

function valueAt(values: readonly unknown[], path: Path): unknown {
  let value: unknown = values;
  for (const step of path) value = (value as Record<string | number, unknown>)[step];
  return value;
}

interface Compiled {
  sql: string;
  /** For each parameter of the compiled query: where among the values it comes from, or its constant value. */
  sources: ({ path: Path } | { constant: unknown })[];
  query: CompiledQuery['query'];
}

export function prepared<A extends readonly unknown[], R>(build: (db: Db, ...values: A) => Compilable<R> | RawBuilder<R>): PreparedQuery<A, R> {
  const cache = new Map<string, Compiled>();
  const compiled = (db: Db, values: A): Compiled => {
    const shape = `${isPostgres(db) ? 'pg' : 'sqlite'}|${values.map(shapeOf).join('|')}`;
    let found = cache.get(shape);
    if (!found) {
      const built = build(db, ...(values.map((v, i) => standIns(v, [i])) as unknown as A));
      const query = 'isRawBuilder' in built ? built.compile(db) : built.compile();
      found = {
        sql: query.sql,
        query: query.query,
        sources: query.parameters.map((p) =>
          typeof p === 'string' && p.startsWith(MARK) ? { path: JSON.parse(p.slice(MARK.length, -1)) as Path } : { constant: p },
        ),
      };
      cache.set(shape, found);
      nameStatement(found.sql);
    }
    return found;
  };
  const compiledWith = (db: Db, values: A): CompiledQuery<R> => {
    const { sql, sources, query } = compiled(db, values);
    const parameters = sources.map((s) => ('constant' in s ? s.constant : valueAt(values, s.path)));
    return { sql, parameters, query, queryId: { queryId: 'prepared' } };
  };
  const run = (db: Db, values: A): Promise<QueryResult<R>> => db.executeQuery<R>(compiledWith(db, values));
  return {
    rows: async (db, ...values) => (await run(db, values)).rows,
    first: async (db, ...values) => (await run(db, values)).rows[0],
    run: (db, ...values) => run(db, values),
    read: (db, ...values) => ({ query: compiledWith(db, values), answer: (rows) => rows as R[] }),
  };
}
