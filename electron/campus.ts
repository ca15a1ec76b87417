import { createHash } from 'node:crypto';
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import type { Core } from '../core/index';
import { codeOfStatus, CoreError, type CoreErrorCode } from '../core/domain/errors';
import { attachedFile, rpcRequest } from '../core/domain/rpc-wire';
import { readEventStream } from '../core/util/event-stream';
import { ALL_AREAS } from '../core/domain/changes';
import type { Term } from '../core/domain/terms';
import { sideOf, type ConflictChoice, type SyncConflict, type SyncCounts, type SyncOutcome } from '../core/domain/meeting-changes';
import type { InvokeResult } from './bridge';

/**
 * The desktop app connected to a campus server: the screens call the server instead of the local
 * SQLite core, with a personal token kept encrypted by the operating system (Electron's
 * safeStorage). Offline planning stays on the laptop; its changes to a term are published to the
 * server (replayed there through every rule, all or nothing) and the server's fetched back, never
 * replacing either side's term.
 */

/** What Electron's safeStorage offers, as this module needs it (a test passes its own). */
export interface SecretBox {
  isEncryptionAvailable(): boolean;
  encryptString(text: string): Buffer;
  decryptString(data: Buffer): string;
  /** Linux: which secret store encrypts; 'basic_text' means none (a key written in Electron itself). */
  getSelectedStorageBackend?(): string;
}

/** Whether the box really encrypts: on Linux without a keyring Electron "encrypts" with a fixed key. */
function encrypts(box: SecretBox): boolean {
  return box.isEncryptionAvailable() && box.getSelectedStorageBackend?.() !== 'basic_text';
}

export interface CampusConnection {
  /** The server's address, ending with a slash. */
  url: string;
  /** A personal token (tw_…) that acts as the person who connected. */
  token: string;
  /** Its id on the server, to revoke it when the computer disconnects. */
  tokenId?: number | undefined;
}

const LOOPBACK = new Set(['localhost', '127.0.0.1', '[::1]']);

/** A campus server's address, checked: http(s) only, and https unless the server is this computer. */
export function checkedServerUrl(text: string): string {
  let url: URL;
  try {
    url = new URL(text.trim());
  } catch {
    throw new Error(`"${text}" is not a server address (for example https://termwise.campus.example/)`);
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') throw new Error('A campus server is reached over https');
  if (url.protocol === 'http:' && !LOOPBACK.has(url.hostname))
    throw new Error('A campus server on the network is reached over https: a password or token must not cross the network in the clear');
  if (url.username || url.password) throw new Error('Give the sign-in separately, not in the address');
  url.hash = '';
  url.search = '';
  if (!url.pathname.endsWith('/')) url.pathname += '/';
  return url.href;
}

/** Keeps the connection in `file`, the token encrypted by the operating system; refused where it cannot encrypt. */
export function saveConnection(file: string, connection: CampusConnection, box: SecretBox): void {
  if (!encrypts(box)) throw new Error('This computer offers no encrypted storage for the token (no keyring): Termwise will not keep it in the clear');
  const stored = {
    url: connection.url,
    token: box.encryptString(connection.token).toString('base64'),
    ...(connection.tokenId === undefined ? {} : { token_id: connection.tokenId }),
  };
  writeFileSync(file, JSON.stringify(stored), { mode: 0o600 });
}

/** The connection kept in `file`, or null when there is none or it cannot be read back. */
export function loadConnection(file: string, box: SecretBox): CampusConnection | null {
  if (!existsSync(file) || !encrypts(box)) return null;
  try {
    const stored = JSON.parse(readFileSync(file, 'utf8')) as { url?: unknown; token?: unknown; token_id?: unknown };
    if (typeof stored.url !== 'string' || typeof stored.token !== 'string') return null;
    const tokenId = typeof stored.token_id === 'number' ? stored.token_id : undefined;
    return { url: checkedServerUrl(stored.url), token: box.decryptString(Buffer.from(stored.token, 'base64')), tokenId };
  } catch {
    return null;
  }
}

export function forgetConnection(file: string): void {
  rmSync(file, { force: true });
}

type ErrorBody = { detail?: unknown; fields?: unknown; conflicts?: unknown };

/** A refusal from the server in the shape the screens read from the local core. */
function refusal(status: number, body: ErrorBody | null): InvokeResult {
  const message = typeof body?.detail === 'string' ? body.detail : `The campus server answered HTTP ${status}`;
  const details = {
    ...(Array.isArray(body?.fields) ? { fields: body.fields as never } : {}),
    ...(Array.isArray(body?.conflicts) ? { conflicts: body.conflicts as never } : {}),
  };
  return {
    ok: false,
    error: {
      code: codeOfStatus(status, Array.isArray(body?.conflicts) && body.conflicts.length > 0),
      message,
      ...(Object.keys(details).length ? { details } : {}),
    },
  };
}

/** The campus server as the desktop app calls it: any operation by name, as the page served by the server does. */
export class CampusServer {
  constructor(
    readonly connection: CampusConnection,
    private readonly fetcher: typeof fetch = fetch,
  ) {}

  /** Signs in with a login and password and makes a personal token for this computer: the password is not kept. */
  static async signIn(url: string, login: string, password: string, label: string, fetcher: typeof fetch = fetch): Promise<CampusServer> {
    const base = checkedServerUrl(url);
    const response = await fetcher(new URL('session/token', base), {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ login, password, label }),
      // A redirect would send the password on, possibly elsewhere or in the clear.
      redirect: 'error',
    });
    const body = (await response.json().catch(() => null)) as (ErrorBody & { token?: unknown; id?: unknown }) | null;
    if (!response.ok || typeof body?.token !== 'string')
      throw new Error(typeof body?.detail === 'string' ? body.detail : `The campus server answered HTTP ${response.status}`);
    return new CampusServer({ url: base, token: body.token, tokenId: typeof body.id === 'number' ? body.id : undefined }, fetcher);
  }

  private headers(): Record<string, string> {
    return { authorization: `Bearer ${this.connection.token}` };
  }

  /** Runs an operation on the server; refusals come back as data, as from the local core. */
  async invoke(operation: string, args: unknown): Promise<InvokeResult> {
    if (!/^[a-z][a-z0-9-]{0,60}$/.test(operation)) return { ok: false, error: { code: 'validation', message: 'The operation name must be a short name' } };
    const { headers, body } = rpcRequest(args, this.headers());
    let response: Response;
    try {
      response = await this.fetcher(new URL(`rpc/${operation}`, this.connection.url), { method: 'POST', headers, body, redirect: 'error' });
    } catch (error) {
      return { ok: false, error: { code: 'busy', message: `The campus server cannot be reached (${error instanceof Error ? error.message : String(error)})` } };
    }
    if (!response.ok) return refusal(response.status, (await response.json().catch(() => null)) as ErrorBody | null);
    const file = await attachedFile(response);
    if (file !== null) return { ok: true, value: file };
    return { ok: true, value: (await response.json()) as unknown };
  }

  /** Revokes this computer's token on the server (best effort: an unreachable server keeps it until revoked in Settings → My tokens). */
  async revoke(): Promise<void> {
    if (this.connection.tokenId === undefined) return;
    await this.invoke('tokens-revoke', { token_id: this.connection.tokenId });
  }

  /** Like invoke, throwing the refusal as the core's error (its words, fields and clashes kept). */
  async run(operation: string, args: unknown): Promise<unknown> {
    const result = await this.invoke(operation, args);
    if (!result.ok) throw new CoreError(result.error.code as CoreErrorCode, result.error.message, result.error.details);
    return result.value;
  }

  /**
   * Follows the server's change events (the same stream the server's own page follows) until the
   * returned stop is called; a dropped stream is opened again after `retryMs`.
   */
  subscribe(listener: (event: unknown) => void, retryMs = 3_000): () => void {
    let stopped = false;
    let reconnecting = false;
    let controller: AbortController | null = null;
    const follow = async (): Promise<void> => {
      while (!stopped) {
        controller = new AbortController();
        try {
          const response = await this.fetcher(new URL('events', this.connection.url), {
            headers: this.headers(),
            signal: controller.signal,
            redirect: 'error',
          });
          if (!response.ok || !response.body) throw new Error(`HTTP ${response.status}`);
          // Changes made while the stream was down are not replayed: everything may have changed.
          if (reconnecting) listener({ type: 'changed', areas: [...ALL_AREAS] });
          reconnecting = true;
          await readEventStream(response.body, (data) => listener(JSON.parse(data)));
        } catch {
          // Dropped, refused or stopped: tried again below unless stopped.
        }
        if (!stopped) await new Promise((resolve) => setTimeout(resolve, retryMs));
      }
    };
    void follow();
    return () => {
      stopped = true;
      controller?.abort();
    };
  }
}

const termArgs = (term: Term) => ({ year: term.year, semester: term.semester });

interface ServerChanges {
  year: number;
  semester: Term['semester'];
  revision: number;
  complete: boolean;
  meetings: { meeting_uid: string; state: unknown; change: unknown }[];
  server_id?: string;
  department?: string;
  reset?: boolean;
}

/** Where this computer's copy of a term stands: its base on a server (which server), and its changes not published. */
type LocalStatus = { base_revision: number | null; server_id: string | null; server_department: string | null };

/**
 * The server's meetings changed since this computer's base (all of them before the first fetch, or
 * when the base is of another server, or one the server can no longer follow).
 */
async function serverChanges(server: CampusServer, term: Term, status: LocalStatus): Promise<ServerChanges> {
  const base =
    status.base_revision === null ? {} : { since_revision: status.base_revision, ...(status.server_id === null ? {} : { base_server: status.server_id }) };
  return (await server.run('schedule-changes-since', { ...termArgs(term), ...base })) as ServerChanges;
}

export async function syncCounts(local: Pick<Core, 'run'>, server: CampusServer, term: Term): Promise<SyncCounts> {
  const status = await local.run('schedule-sync-status', termArgs(term));
  const changes = await serverChanges(server, term, status);
  return {
    base_revision: status.base_revision,
    not_published: status.pending.length,
    server_changes: changes.meetings.length,
    server_revision: changes.revision,
  };
}

/**
 * Fetches the server's changes since this computer's copy and replays them here, keeping this
 * computer's unpublished changes on top. A meeting changed on both sides is listed as a conflict
 * (both versions) and nothing is stored until the person chooses, for each, mine or theirs.
 */
export async function fetchTerm(
  local: Pick<Core, 'run'>,
  server: CampusServer,
  term: Term,
  options: { choices?: Record<string, ConflictChoice>; dryRun?: boolean } = {},
): Promise<SyncOutcome> {
  const status = await local.run('schedule-sync-status', termArgs(term));
  const changes = await serverChanges(server, term, status);
  const result = await local.run('schedule-sync-rebase', {
    ...termArgs(term),
    server: changes as never,
    choices: options.choices ?? {},
    dry_run: options.dryRun ?? false,
  });
  return {
    stored: result.stored,
    status: result.status,
    conflicts: result.conflicts,
    refused: result.refused,
    published: 0,
    fetched: result.applied,
    pending: result.pending,
    base_revision: result.base_revision,
  };
}

/**
 * Publishes this computer's changes to a term: first the server's changes since this copy are
 * brought in (conflicts listed, nothing stored, until chosen), then this computer's changes are
 * replayed on the server's current term, all or nothing, under one idempotency key, and the copy
 * is brought to the server's new revision. Nothing is replaced and nothing dropped.
 */
export async function publishTerm(
  local: Pick<Core, 'run'>,
  server: CampusServer,
  term: Term,
  options: { choices?: Record<string, ConflictChoice>; dryRun?: boolean; key?: string } = {},
): Promise<SyncOutcome> {
  const choices = options.choices ?? {};
  const dryRun = options.dryRun ?? false;
  const fetched = await fetchTerm(local, server, term, { choices, dryRun });
  if (fetched.status === 'conflicts' || fetched.status === 'refused') return fetched;
  const status = await local.run('schedule-sync-status', termArgs(term));
  // A check fetches nothing, so it publishes against the base this copy has.
  const base = dryRun ? status.base_revision : fetched.base_revision;
  // Each "keep mine" names the server's version the person kept theirs over.
  const keepMine = Object.entries(choices)
    .filter(([, choice]) => sideOf(choice) === 'mine')
    .map(([uid, choice]) => (typeof choice === 'string' ? uid : { meeting_uid: uid, seen_change_id: choice.seen_change_id }));
  const answer = (await server.run('schedule-publish-changes', {
    ...termArgs(term),
    base_revision: base ?? 0,
    // The same changes on the same base make the same key: a publish retried after a lost answer is applied once.
    key:
      options.key ??
      `publish-${createHash('sha256')
        .update(JSON.stringify([term, base, status.pending, keepMine]))
        .digest('hex')
        .slice(0, 40)}`,
    changes: status.pending,
    keep_mine: keepMine,
    dry_run: dryRun,
  })) as { status: SyncOutcome['status']; stored: boolean; applied: number; conflicts: SyncConflict[]; refused: SyncOutcome['refused']; revision: number };
  if (!answer.stored) {
    const { status: outcome, conflicts, refused, applied } = answer;
    return { ...fetched, stored: false, status: outcome, conflicts, refused, published: applied, pending: status.pending.length };
  }
  await local.run('schedule-sync-published', { ...termArgs(term), through: status.last_change });
  // The copy follows the server to its new revision (its own changes come back unchanged).
  const after = await fetchTerm(local, server, term);
  return { ...after, status: 'published', stored: true, published: answer.applied, fetched: fetched.fetched + after.fetched };
}
