import { ALL_AREAS } from '../domain/changes';
import { z } from 'zod';
import { CoreError, forbidden } from '../domain/errors';
import { defineHandlers, handler } from '../registry';
import type { CoreContext } from '../context';
import { uploadedFileSchema } from '../import/files';
import { storeDescription } from '../db/store';
import { VERSION } from '../version';
import { backupDatabase, restoreDatabase } from './backup';
import { loadSampleData } from './sample';

/** Whether the caller acts as the installation itself (the desktop user, the server's own token), not as a person who signed in. */
const holdsInstallation = (ctx: CoreContext): boolean => ctx.actor.person === null && ctx.actor.role === 'registrar';

export const systemHandlers = defineHandlers({
  health: handler(z.object({}), 'Liveness and version', () => ({ status: 'ok' as const, version: VERSION })),
  'campuses-list': handler(z.object({}), 'The campuses this installation plans for (campuses.json in the data folder)', (ctx) => [...ctx.campuses.names]),
  'settings-info': handler(z.object({}), 'Data folder, REST address and API token', (ctx) => {
    // Where the data lives and the installation's token are the installation's own: a person who signs in sees neither.
    const installation = holdsInstallation(ctx);
    return {
      version: VERSION,
      data_dir: installation ? ctx.dataDir : null,
      database_file: installation && ctx.store.config.kind === 'sqlite' ? ctx.store.config.file : null,
      /** Where the data lives: the SQLite file, or the PostgreSQL server and database (never its password). */
      database: installation ? storeDescription(ctx.store.config) : null,
      api_url: ctx.access?.url ?? null,
      // A browser session must never learn the token: it would outlive the session.
      api_token: installation && ctx.caller !== 'browser' ? (ctx.access?.token() ?? null) : null,
      token_source: installation ? (ctx.access?.source ?? null) : null,
      /** Whether this caller may make a new token here: not from a browser, and not when TERMWISE_API_TOKEN fixes it. */
      token_regenerable: installation && ctx.caller !== 'browser' && (ctx.access?.regenerable ?? false),
    };
  }),
  'settings-regenerate-token': handler(
    z.object({}),
    'Replace the API token (scripts need the new one)',
    (ctx) => {
      if (ctx.caller === 'browser' || !holdsInstallation(ctx))
        throw forbidden('The API token can only be regenerated from the desktop app or by a script that holds the current token');
      if (!ctx.access) throw new CoreError('invalid', 'The REST API is not running, so there is no token to regenerate');
      return { api_token: ctx.access.regenerate() };
    },
    { writes: ['settings'], access: 'registrar' },
  ),
  // A backup holds every department and every account: the registrar's alone, as replacing it all is.
  'database-backup': handler(z.object({}), 'A copy of the database', (ctx) => backupDatabase(ctx), { access: 'registrar' }),
  'database-restore': handler(z.object({ file: uploadedFileSchema }), 'Replace all data with a backup', (ctx, { file }) => restoreDatabase(ctx, file), {
    writes: ALL_AREAS,
    access: 'registrar',
  }),
  'sample-load': handler(z.object({}), 'Import the shipped sample data', (ctx) => loadSampleData(ctx), { writes: ALL_AREAS, access: 'registrar' }),
});
