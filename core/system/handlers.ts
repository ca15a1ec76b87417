import { ALL_AREAS } from '../domain/changes';
import { z } from 'zod';
import { CoreError, forbidden } from '../domain/errors';
import { defineHandlers, handler } from '../registry';
import { uploadedFileSchema } from '../import/files';
import { storeDescription } from '../db/store';
import { VERSION } from '../version';
import { backupDatabase, restoreDatabase } from './backup';
import { loadSampleData } from './sample';

export const systemHandlers = defineHandlers({
  health: handler(z.object({}), 'Liveness and version', () => ({ status: 'ok' as const, version: VERSION })),
  'campuses-list': handler(z.object({}), 'The campuses this installation plans for (campuses.json in the data folder)', (ctx) => [...ctx.campuses.names]),
  'settings-info': handler(z.object({}), 'Data folder, REST address and API token', (ctx) => ({
    version: VERSION,
    data_dir: ctx.dataDir,
    database_file: ctx.store.config.kind === 'sqlite' ? ctx.store.config.file : null,
    /** Where the data lives: the SQLite file, or the PostgreSQL server and database (never its password). */
    database: storeDescription(ctx.store.config),
    api_url: ctx.access?.url ?? null,
    // A browser session must never learn the token: it would outlive the session.
    api_token: ctx.caller === 'browser' ? null : (ctx.access?.token() ?? null),
    token_source: ctx.access?.source ?? null,
    /** Whether this caller may make a new token here: not from a browser, and not when TERMWISE_API_TOKEN fixes it. */
    token_regenerable: ctx.caller !== 'browser' && (ctx.access?.regenerable ?? false),
  })),
  'settings-regenerate-token': handler(
    z.object({}),
    'Replace the API token (scripts need the new one)',
    (ctx) => {
      if (ctx.caller === 'browser') throw forbidden('The API token can only be regenerated from the desktop app or by a script that holds the current token');
      if (!ctx.access) throw new CoreError('invalid', 'The REST API is not running, so there is no token to regenerate');
      return { api_token: ctx.access.regenerate() };
    },
    { writes: ['settings'] },
  ),
  'database-backup': handler(z.object({}), 'A copy of the database', (ctx) => backupDatabase(ctx)),
  'database-restore': handler(z.object({ file: uploadedFileSchema }), 'Replace all data with a backup', (ctx, { file }) => restoreDatabase(ctx, file), {
    writes: ALL_AREAS,
  }),
  'sample-load': handler(z.object({}), 'Import the shipped sample data', (ctx) => loadSampleData(ctx), { writes: ALL_AREAS }),
});
