import { describe, expect, inject, it } from 'vitest';
import { loadMigrations } from '../../core/db/migrate';
import { openStore } from '../../core/db/store';
import { createDatabase } from '../helpers/postgres';

/**
 * Two server processes started at once on an empty PostgreSQL database: Kysely's Migrator holds its
 * lock, so one migrates and the other finds it done, and neither fails.
 */
describe('two processes migrating one PostgreSQL database at once', () => {
  it('migrate one after the other: every migration applied and recorded once', async () => {
    const database = await createDatabase(inject('postgresAdminUrl'));
    try {
      const stores = await Promise.all([0, 1, 2].map(() => openStore({ kind: 'postgres', url: database.url }, { migrate: true, poolSize: 2 })));
      try {
        const [first] = stores;
        if (!first) throw new Error('no store');
        const versions = await first.db.selectFrom('schema_migrations').select('version').orderBy('version').execute();
        expect(versions.map((row) => row.version)).toEqual(loadMigrations().map((m) => m.version));
        const names = await first.db.selectFrom('kysely_migration').select('name').orderBy('name').execute();
        expect(names).toHaveLength(loadMigrations().length);
      } finally {
        await Promise.all(stores.map((store) => store.close()));
      }
    } finally {
      await database.drop();
    }
  });
});
