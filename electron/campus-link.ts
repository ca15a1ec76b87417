import { hostname } from 'node:os';
import type { Core } from '../core/index';
import { isCoreError } from '../core/domain/errors';
import { SEMESTERS, type Term } from '../core/domain/terms';
import type { InvokeResult } from './bridge';
import { CampusServer, checkedServerUrl, fetchTerm, forgetConnection, loadConnection, publishTerm, saveConnection, syncCounts, type SecretBox } from './campus';
import type { ConflictChoice } from '../core/domain/meeting-changes';

/** How the person settled each conflict listed before: meeting id → mine or theirs (anything else is left out). */
function choicesOf(args: Record<string, unknown>): Record<string, ConflictChoice> {
  const given = args.choices;
  if (typeof given !== 'object' || given === null) return {};
  const choices: Record<string, ConflictChoice> = {};
  for (const [uid, choice] of Object.entries(given as Record<string, unknown>).slice(0, 5_000))
    if (choice === 'mine' || choice === 'theirs') choices[uid] = choice;
  return choices;
}

/** What the desktop page asks of the campus link (the campus channel). */
export type CampusAction = 'status' | 'connect' | 'online' | 'offline' | 'disconnect' | 'publish' | 'fetch' | 'sync-counts';

export interface CampusStatus {
  /** Whether a server and its token are kept (publish and fetch need one). */
  connected: boolean;
  /** Whether the screens read and write on the server (else on this computer). */
  online: boolean;
  url: string | null;
}

const text = (value: unknown, name: string, max = 500): string => {
  if (typeof value !== 'string' || value.trim() === '' || value.length > max) throw new Error(`Give the ${name}`);
  return value;
};

function termOf(args: Record<string, unknown>): Term {
  const year = Number(args.year);
  const semester = args.semester;
  if (!Number.isInteger(year) || typeof semester !== 'string' || !(SEMESTERS as readonly string[]).includes(semester))
    throw new Error('Name the term to publish or fetch (a year and a semester)');
  return { year, semester: semester as Term['semester'] };
}

/**
 * The desktop app's link to a campus server: while connected, the screens' calls and change events
 * go to the server; publishing and fetching move a term between the laptop and the server. The
 * token is kept with the operating system's encryption (safeStorage); the password never is.
 */
export class CampusLink {
  private server: CampusServer | null = null;
  private online = false;
  private stopEvents: (() => void) | null = null;

  constructor(
    private readonly file: string,
    private readonly box: SecretBox,
    private readonly onEvent: (event: unknown) => void,
    private readonly fetcher: typeof fetch = fetch,
  ) {
    const saved = loadConnection(file, box);
    if (saved) this.use(new CampusServer(saved, fetcher), true);
  }

  /** The server the screens call, or null: the laptop's own core. */
  get current(): CampusServer | null {
    return this.online ? this.server : null;
  }

  private use(server: CampusServer | null, online: boolean): void {
    this.stopEvents?.();
    this.stopEvents = null;
    this.server = server;
    this.online = server !== null && online;
    if (this.online && server) this.stopEvents = server.subscribe(this.onEvent);
    // Every screen reads again from where it now reads.
    this.onEvent({ type: 'changed', areas: ['catalog', 'offerings', 'doctors', 'timetable', 'rooms', 'runs', 'models', 'settings', 'departments', 'people'] });
  }

  status(): CampusStatus {
    return { connected: this.server !== null, online: this.current !== null, url: this.server?.connection.url ?? null };
  }

  /** Answers the page's campus request; refusals come back as data, in words. */
  async handle(local: Pick<Core, 'run'>, action: unknown, input: unknown): Promise<InvokeResult> {
    const args = (typeof input === 'object' && input !== null ? input : {}) as Record<string, unknown>;
    try {
      return { ok: true, value: await this.act(local, action, args) };
    } catch (error) {
      if (isCoreError(error)) return { ok: false, error: error.toData() };
      return { ok: false, error: { code: 'invalid', message: error instanceof Error ? error.message : String(error) } };
    }
  }

  private async act(local: Pick<Core, 'run'>, action: unknown, args: Record<string, unknown>): Promise<unknown> {
    switch (action as CampusAction) {
      case 'status':
        return this.status();
      case 'connect': {
        const server = await CampusServer.signIn(
          checkedServerUrl(text(args.url, 'server address')),
          text(args.login, 'login', 80),
          text(args.password, 'password', 1_000),
          `Termwise desktop on ${hostname().slice(0, 60)}`,
          this.fetcher,
        );
        try {
          saveConnection(this.file, server.connection, this.box);
        } catch (error) {
          // A token this computer cannot keep must not stay valid on the server.
          await server.revoke();
          throw error;
        }
        // The token of a server connected before is revoked once the new one is kept.
        await this.server?.revoke();
        this.use(server, true);
        return this.status();
      }
      case 'online':
        this.use(this.required(), true);
        return this.status();
      case 'offline':
        this.use(this.server, false);
        return this.status();
      case 'disconnect':
        await this.server?.revoke();
        forgetConnection(this.file);
        this.use(null, false);
        return this.status();
      case 'publish':
        return publishTerm(local, this.required(), termOf(args), { dryRun: args.dry_run === true, choices: choicesOf(args) });
      case 'fetch':
        return fetchTerm(local, this.required(), termOf(args), { dryRun: args.dry_run === true, choices: choicesOf(args) });
      case 'sync-counts':
        return syncCounts(local, this.required(), termOf(args));
      default:
        throw new Error('Unknown campus action');
    }
  }

  private required(): CampusServer {
    if (!this.server) throw new Error('Connect to a campus server first (Settings → Campus server)');
    return this.server;
  }

  close(): void {
    this.stopEvents?.();
  }
}
