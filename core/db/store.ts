import { randomUUID } from 'node:crypto';
import type pg from 'pg';
import { sql, type Kysely } from 'kysely';
import { openSqliteStore, type SqliteHandle } from './sqlite-store';
import { migratePostgres } from './migrate';
import { postgresDriver, postgresKysely, postgresPool } from './postgres-store';
import type { Tables } from './tables';

/** The typed query builder every repository takes: the store itself, or a transaction on it. */
export type Db = Kysely<Tables>;

/** Where the data lives: a SQLite file in the data folder (the laptop), or a PostgreSQL database (a shared server). */
export type StoreConfig = { kind: 'sqlite'; file: string } | { kind: 'postgres'; url: string };

export type StoreKind = StoreConfig['kind'];

/** A store in words, for screens and logs: the file, or the server and database (no user name or password). */
export function storeDescription(config: StoreConfig): string {
  if (config.kind === 'sqlite') return `SQLite ${config.file}`;
  try {
    const url = new URL(config.url);
    return `PostgreSQL ${url.hostname || 'localhost'}${url.port ? `:${url.port}` : ''}${url.pathname}`;
  } catch {
    return 'PostgreSQL';
  }
}

/** The channel change messages cross server processes on. */
const CHANGES_CHANNEL = 'termwise_changes';
/** NOTIFY carries at most 8,000 bytes; change messages are a few dozen. */
const MAX_MESSAGE_BYTES = 7_900;

export interface Store {
  readonly config: StoreConfig;
  readonly kind: StoreKind;
  readonly db: Db;
  /** The SQLite connection itself, for what only SQLite does (its online backup); null on PostgreSQL. */
  readonly sqlite: SqliteHandle | null;
  /** Sends a message to the other processes on this store (PostgreSQL NOTIFY); nothing on SQLite, which one process holds. */
  publish(message: string): Promise<void>;
  /** Messages other processes published; answers the function that stops listening. */
  onMessage(listener: (message: string) => void): () => void;
  /** Call after each write (SQLite folds its write-ahead log once writes pause). */
  wrote(): void;
  close(): Promise<void>;
}

export interface OpenStoreOptions {
  /** Apply pending migrations (the process that owns the store); workers open it as it is. */
  migrate?: boolean;
  /** Connections a PostgreSQL store keeps (the server's requests share them). */
  poolSize?: number;
  /** Listen for other processes' messages (the server); workers do not. */
  listen?: boolean;
  /** Fold SQLite's write-ahead log in idle time (the server's connection). */
  checkpoints?: boolean;
}

/** Opens a store: SQLite in a file, or PostgreSQL at a URL, migrated to Termwise's schema. */
export async function openStore(config: StoreConfig, options: OpenStoreOptions = {}): Promise<Store> {
  if (config.kind === 'sqlite') {
    const parts = await openSqliteStore(config.file, { migrate: options.migrate ?? true, checkpoints: options.checkpoints ?? false });
    return {
      config,
      kind: 'sqlite',
      db: parts.db,
      sqlite: parts.handle,
      publish: async () => {},
      onMessage: () => () => {},
      wrote: parts.wrote,
      close: parts.close,
    };
  }
  const pool = await postgresPool({ url: config.url, poolSize: options.poolSize ?? 10, applicationName: 'termwise' });
  const db = postgresKysely(pool);
  try {
    if (options.migrate ?? true) await migratePostgres(db);
  } catch (error) {
    await db.destroy();
    throw error;
  }
  const listener = options.listen ? await listenForMessages(config.url) : null;
  let open = true;
  return {
    config,
    kind: 'postgres',
    db,
    sqlite: null,
    publish: async (message) => {
      if (!open || Buffer.byteLength(message) > MAX_MESSAGE_BYTES) return;
      // Sent on the listening connection where there is one: the requests' connections stay free.
      if (listener && (await listener.send(message))) return;
      await sql`SELECT pg_notify(${CHANGES_CHANNEL}, ${message})`.execute(db);
    },
    onMessage: (listener_) => listener?.add(listener_) ?? (() => {}),
    wrote: () => {},
    close: async () => {
      open = false;
      await listener?.close();
      await db.destroy();
    },
  };
}

/**
 * One connection kept for LISTEN: every message another process publishes reaches the listeners.
 * A lost connection is opened again (messages sent meanwhile are missed; the screens reload what
 * they show when their own event stream reconnects).
 */
async function listenForMessages(
  url: string,
): Promise<{ add: (listener: (message: string) => void) => () => void; send: (message: string) => Promise<boolean>; close: () => Promise<void> }> {
  const listeners = new Set<(message: string) => void>();
  let client: pg.Client | null = null;
  let closed = false;
  let retry: NodeJS.Timeout | undefined;
  let sending: Promise<unknown> = Promise.resolve();
  const connect = async (): Promise<void> => {
    const driver = await postgresDriver();
    const next = new driver.Client({ connectionString: url, application_name: 'termwise-listen' });
    next.on('notification', (message) => {
      if (message.channel !== CHANGES_CHANNEL || message.payload === undefined) return;
      for (const listener of listeners) listener(message.payload);
    });
    next.on('error', () => reconnect());
    next.on('end', () => reconnect());
    await next.connect();
    await next.query(`LISTEN ${CHANGES_CHANNEL}`);
    client = next;
  };
  const reconnect = (): void => {
    if (closed || retry) return;
    client = null;
    retry = setTimeout(() => {
      retry = undefined;
      connect().catch(() => reconnect());
    }, 1_000);
    retry.unref();
  };
  await connect();
  return {
    add: (listener) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    /** Sends on the listening connection, one message after another; false when it is down (the caller sends another way). */
    send: (message) => {
      const sent = sending.then(async () => {
        const current = client;
        if (!current || closed) return false;
        await current.query('SELECT pg_notify($1, $2)', [CHANGES_CHANNEL, message]);
        return true;
      });
      sending = sent.catch(() => false);
      return sent;
    },
    close: async () => {
      closed = true;
      clearTimeout(retry);
      await sending;
      const current = client;
      client = null;
      await current?.end().catch(() => undefined);
    },
  };
}

/** A process's own name on the store's channel, so it knows its own messages when they come back. */
export const PROCESS_ID = randomUUID();
