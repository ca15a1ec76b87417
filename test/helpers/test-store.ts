import { inject } from 'vitest';
import { createDatabase } from './postgres';
import { pooledDatabase } from './postgres-pool';

/** The store this test run exercises: TERMWISE_TEST_STORE=postgres (the PostgreSQL project), else SQLite. */
export const TEST_STORE: 'sqlite' | 'postgres' = process.env.TERMWISE_TEST_STORE === 'postgres' ? 'postgres' : 'sqlite';

/**
 * Where a test core keeps its data: SQLite in its data folder (databaseUrl undefined), or a
 * database of its own on the run's PostgreSQL server, as the template made it (on the run's
 * throwaway server, one an earlier test gave back emptied: test/helpers/postgres-pool.ts). `drop`
 * gives it back.
 */
export async function testDatabase(): Promise<{ databaseUrl: string | undefined; drop: () => Promise<void> }> {
  if (TEST_STORE === 'sqlite') return { databaseUrl: undefined, drop: async () => {} };
  const [adminUrl, template] = [inject('postgresAdminUrl'), inject('postgresTemplate')];
  const database = inject('postgresThrowaway') ? await pooledDatabase(adminUrl, template) : await createDatabase(adminUrl, template);
  return { databaseUrl: database.url, drop: database.drop };
}
