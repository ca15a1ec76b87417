import { inject } from 'vitest';
import { createDatabase } from './postgres';

/** The store this test run exercises: TERMWISE_TEST_STORE=postgres (the PostgreSQL project), else SQLite. */
export const TEST_STORE: 'sqlite' | 'postgres' = process.env.TERMWISE_TEST_STORE === 'postgres' ? 'postgres' : 'sqlite';

/**
 * Where a test core keeps its data: SQLite in its data folder (databaseUrl undefined), or a new
 * database of its own on the run's PostgreSQL server. `drop` removes it.
 */
export async function testDatabase(): Promise<{ databaseUrl: string | undefined; drop: () => Promise<void> }> {
  if (TEST_STORE === 'sqlite') return { databaseUrl: undefined, drop: async () => {} };
  const database = await createDatabase(inject('postgresAdminUrl'), inject('postgresTemplate'));
  return { databaseUrl: database.url, drop: database.drop };
}
