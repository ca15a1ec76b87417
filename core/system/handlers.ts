import { ALL_AREAS } from '../domain/changes';
import { z } from 'zod';
import { defineHandlers, handler } from '../registry';
import { uploadedFileSchema } from '../import/files';
import { VERSION } from '../version';
import { backupDatabase, restoreDatabase } from './backup';
import { loadSampleData } from './sample';
import { regenerateToken, settingsInfo } from './service';
import { previewImport } from './preview';
import { IMPORT_KINDS, type ImportKind } from '../domain/import-kinds';

export const systemHandlers = defineHandlers({
  health: handler(z.object({}), 'Liveness and version', () => ({ status: 'ok' as const, version: VERSION })),
  'campuses-list': handler(z.object({}), 'The campuses this installation plans for (campuses.json in the data folder)', (ctx) => [...ctx.campuses.names]),
  'settings-info': handler(z.object({}), 'Data folder, REST address and API token', (ctx) => settingsInfo(ctx)),
  'settings-regenerate-token': handler(z.object({}), 'Replace the API token (scripts need the new one)', (ctx) => regenerateToken(ctx), {
    writes: ['settings'],
    access: 'registrar',
  }),
  // A backup holds every department and every account: the registrar's alone, as replacing it all is.
  'database-backup': handler(z.object({}), 'A copy of the database', (ctx) => backupDatabase(ctx), { access: 'registrar' }),
  'database-restore': handler(z.object({ file: uploadedFileSchema }), 'Replace all data with a backup', (ctx, { file }) => restoreDatabase(ctx, file), {
    writes: ALL_AREAS,
    access: 'registrar',
  }),
  'import-preview': handler(
    z.object({ kind: z.enum(Object.keys(IMPORT_KINDS) as [ImportKind, ...ImportKind[]]), file: uploadedFileSchema }),
    'The columns and first rows an import would read',
    (_ctx, { kind, file }) => previewImport(kind, file),
  ),
  'sample-load': handler(z.object({}), 'Import the shipped sample data', (ctx) => loadSampleData(ctx), { writes: ALL_AREAS, access: 'registrar' }),
});
