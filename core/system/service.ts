import type { CoreContext } from '../context';
import { storeDescription } from '../db/store';
import { CoreError, forbidden } from '../domain/errors';
import { VERSION } from '../version';

/** Whether the caller acts as the installation itself (the desktop user, the server's own token), not as a person who signed in. */
const holdsInstallation = (ctx: CoreContext): boolean => ctx.actor.person === null && ctx.actor.role === 'registrar';

/** Where the data lives, the REST address and the API token, as much of it as the caller may see. */
export function settingsInfo(ctx: CoreContext) {
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
}

/** A new API token (scripts need it): only the installation itself, not from a browser, and not when the environment fixes it. */
export async function regenerateToken(ctx: CoreContext): Promise<{ api_token: string }> {
  if (ctx.caller === 'browser' || !holdsInstallation(ctx))
    throw forbidden('The API token can only be regenerated from the desktop app or by a script that holds the current token');
  if (!ctx.access) throw new CoreError('invalid', 'The REST API is not running, so there is no token to regenerate');
  return { api_token: await ctx.access.regenerate() };
}
