/**
 * The SQL texts of prepared queries (core/db/prepared), each with a name: a store that keeps
 * server-side statements names them (PostgreSQL parses and plans each once per connection).
 */
const names = new Map<string, string>();

/** Records a prepared query's SQL text under a name of its own (once). */
export function nameStatement(sql: string): void {
  if (!names.has(sql)) names.set(sql, `termwise_${names.size + 1}`);
}

/** The name a prepared query's SQL text is kept under, or undefined for any other text. */
export function statementName(sql: string): string | undefined {
  return names.get(sql);
}
