import type { TestProject } from 'vitest/node';
import { openStore } from '../../core/db/store';
import { createTemplateDatabase, startThrowawayPostgres } from './postgres';

declare module 'vitest' {
  export interface ProvidedContext {
    /** A PostgreSQL server's maintenance database, where each test makes a database of its own. */
    postgresAdminUrl: string;
    /** The database each test's database is copied from (migrated once for the run). */
    postgresTemplate: string;
  }
}

/**
 * Global setup of the PostgreSQL test project: the server at TERMWISE_TEST_DATABASE_URL, else a
 * throwaway one started for the run (and stopped after it). Never skipped: without a server the
 * run fails saying how to get one.
 */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const given = process.env.TERMWISE_TEST_DATABASE_URL;
  const server = given ? null : await startThrowawayPostgres();
  const adminUrl = given ?? server?.adminUrl ?? '';
  console.log(
    given
      ? `PostgreSQL tests run against TERMWISE_TEST_DATABASE_URL (${new URL(given).host})`
      : `PostgreSQL tests run against a throwaway PostgreSQL ${server?.version ?? ''}`,
  );
  const migrate = async (url: string): Promise<void> => (await openStore({ kind: 'postgres', url }, { migrate: true, poolSize: 1 })).close();
  project.provide('postgresAdminUrl', adminUrl);
  project.provide('postgresTemplate', await createTemplateDatabase(adminUrl, migrate));
  return async () => server?.stop();
}
