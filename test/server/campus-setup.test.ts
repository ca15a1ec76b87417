import { spawn, execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { createDatabase } from '../helpers/postgres';
import { runningUrl } from '../helpers/serve-process';

/**
 * The campus set-up of docs/campus-server.md, run as a department would run it: its shell lines,
 * word for word, in bash with a home folder of its own. Only what this machine cannot be is put in:
 * the test's own PostgreSQL database for the example's, `npm run serve`'s program without its page
 * build (the browser tests build the page), any free port for 4610. The database's role and
 * database (`sudo -u postgres …`) are the test's: they need a database server's administrator.
 */
const GUIDE = readFileSync(join(process.cwd(), 'docs', 'campus-server.md'), 'utf8');
const EXAMPLE_DATABASE = 'postgres://termwise:PASSWORD@db.example.edu:5432/termwise';

/** The guide's shell blocks, in order. */
const blocks = [...GUIDE.matchAll(/```sh\n([\s\S]*?)```/g)].map((m) => m[1] ?? '');
const lines = (block: string): string[] =>
  block
    .replace(/\\\n\s*/g, ' ')
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l !== '' && !l.startsWith('#'));

let home: string;
let database: { url: string; drop: () => Promise<void> };
let stop: (() => void) | null = null;

beforeAll(async () => {
  home = mkdtempSync(join(tmpdir(), 'termwise-campus-home-'));
  database = await createDatabase(inject('postgresAdminUrl'), inject('postgresTemplate'));
});
afterAll(async () => {
  stop?.();
  await database.drop();
  rmSync(home, { recursive: true, force: true });
});

const bash = (script: string, env: Record<string, string> = {}): string =>
  execFileSync('bash', ['-euo', 'pipefail', '-c', script], { cwd: process.cwd(), env: { ...process.env, HOME: home, ...env }, encoding: 'utf8' });

describe("the campus guide's set-up, as written", () => {
  it('makes the token, starts the server, makes the first registrar, renames the built-in department; the registrar then signs in', async () => {
    const setup = lines(blocks[0] ?? '');
    const tokenLine = setup.find((l) => l.includes('openssl rand'));
    const startLine = setup.find((l) => l.includes('npm run serve'));
    expect(tokenLine, 'the guide makes the server token').toBeDefined();
    expect(startLine, 'the guide starts the server').toContain(EXAMPLE_DATABASE);
    bash(tokenLine ?? '');
    const token = readFileSync(join(home, 'termwise-token'), 'utf8').trim();
    expect(token).toMatch(/^[0-9a-f]{64}$/);

    // The start line, with this test's database and `npm run serve`'s program (see above).
    const start = (startLine ?? '').replace(EXAMPLE_DATABASE, database.url).replace('npm run serve', 'exec node --import tsx core/serve.ts');
    const child = spawn('bash', ['-c', start], {
      cwd: process.cwd(),
      env: { ...process.env, HOME: home, TERMWISE_DATA_DIR: join(home, 'data'), TERMWISE_PORT: '0' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    stop = () => child.kill('SIGTERM');
    const url = await runningUrl(child);
    const port = new URL(url).port;

    // The first registrar and the rename, as the guide writes them (its address on this server's port).
    const guideLines = blocks.flatMap(lines);
    const registrar = guideLines.filter((l) => l.startsWith('TOKEN=') || (l.includes('/people') && l.startsWith('curl')));
    expect(registrar).toHaveLength(2);
    const renameLine = [...GUIDE.matchAll(/`(curl -s -X PATCH [^`]*\/departments\/1)`/g)].map((m) => m[1] ?? '')[0];
    expect(renameLine, 'the guide says how to rename the built-in department').toBeDefined();
    const script = [...registrar, renameLine ?? ''].join('\n').replaceAll('http://127.0.0.1:4610/', url);
    const answers = bash(script);
    expect(answers).toContain('"role":"registrar"');
    expect(answers).toContain('"code":"MTH"');

    // The registrar the guide made signs in with the guide's password; the department is renamed.
    const signIn = await fetch(new URL('session/token', url), {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ login: 'rana', password: 'a long passphrase', label: 'check' }),
    });
    expect(signIn.status).toBe(200);
    const departments = (await (await fetch(new URL('departments', url), { headers: { authorization: `Bearer ${token}` } })).json()) as {
      id: number;
      code: string;
      name: string;
    }[];
    expect(departments.find((d) => d.id === 1)).toMatchObject({ code: 'MTH', name: 'Mathematics' });
    expect(port).not.toBe('');
  }, 60_000);
});
