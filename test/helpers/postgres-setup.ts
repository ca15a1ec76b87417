import type { TestProject } from 'vitest/node';
import { openStore } from '../../core/db/store';
import { createTemplateDatabase, startThrowawayPostgres } from './postgres';

declare module 'vitest' {
  export interface ProvidedContext {
    /** A PostgreSQL server's maintenance database, where each test makes a database of its own. */
    postgresAdminUrl: string;
    /** The database each test's database is copied from (migrated once for the run). */
    postgresTemplate: string;
    /** Whether the server is the run's own throwaway one (test databases are then used again: postgres-pool.ts). */
    postgresThrowaway: boolean;
  }
}

/** The run's PostgreSQL server and template database, shared by every project that runs on PostgreSQL. */
interface RunPostgres {
  adminUrl: string;
  template: string;
  throwaway: boolean;
  stop: () => Promise<void>;
}
/** Kept on the run's process, not this module: vitest loads a global setup once per project that names it. */
const run = globalThis as typeof globalThis & { termwisePostgres?: { started: Promise<RunPostgres>; projectsUsing: number } };

async function startRunPostgres(): Promise<RunPostgres> {
  const given = process.env.TERMWISE_TEST_DATABASE_URL;
  const server = given ? null : await startThrowawayPostgres();
  const adminUrl = given ?? server?.adminUrl ?? '';
  console.log(
    given
      ? `PostgreSQL tests run against TERMWISE_TEST_DATABASE_URL (${new URL(given).host})`
      : `PostgreSQL tests run against a throwaway PostgreSQL ${server?.version ?? ''}`,
  );
  const migrate = async (url: string): Promise<void> => (await openStore({ kind: 'postgres', url }, { migrate: true, poolSize: 1 })).close();
  const template = await createTemplateDatabase(adminUrl, migrate);
  return { adminUrl, template, throwaway: server !== null, stop: async () => server?.stop() };
}

/**
 * Global setup of the PostgreSQL test projects: the server at TERMWISE_TEST_DATABASE_URL, else a
 * throwaway one started for the run (once, whichever project asks first, and stopped after the last).
 * Never skipped: without a server the run fails saying how to get one.
 */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const shared = (run.termwisePostgres ??= { started: startRunPostgres(), projectsUsing: 0 });
  shared.projectsUsing += 1;
  const { adminUrl, template, throwaway, stop } = await shared.started;
  project.provide('postgresAdminUrl', adminUrl);
  project.provide('postgresTemplate', template);
  project.provide('postgresThrowaway', throwaway);
  return async () => {
    shared.projectsUsing -= 1;
    if (shared.projectsUsing === 0) await stop();
  };
}
