import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { createCore, type Core } from '../../core/index';
import { buildServer, type ServerOptions } from '../../core/http/server';
import { SAMPLE_DIR } from '../../core/sample/paths';
import { testDatabase } from './test-store';

export const TEST_TOKEN = 'test-token-0123456789abcdef0123456789abcdef';

export interface TestServer {
  url: string;
  core: Core;
  app: FastifyInstance;
  dataDir: string;
  /** fetch with the bearer token and JSON handling. */
  api(path: string, init?: RequestInit & { json?: unknown }): Promise<Response>;
  upload(path: string, filename: string, content: Uint8Array | string, fields?: Record<string, string>): Promise<Response>;
  close(): Promise<void>;
}

/** A real Termwise HTTP server on a free port with its own fresh data folder. */
export async function startTestServer(options: Pick<ServerOptions, 'signInRate' | 'trustedProxies'> = {}): Promise<TestServer> {
  const dataDir = mkdtempSync(join(tmpdir(), 'termwise-test-'));
  const database = await testDatabase(dataDir);
  const core = await createCore({ dataDir, databaseUrl: database.databaseUrl });
  const app = await buildServer({ core, token: TEST_TOKEN, ...options });
  await app.listen({ host: '127.0.0.1', port: 0 });
  const address = app.server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  const url = `http://127.0.0.1:${port}`;
  const api: TestServer['api'] = (path, init = {}) => {
    const headers = new Headers(init.headers);
    if (!headers.has('authorization')) headers.set('authorization', `Bearer ${TEST_TOKEN}`);
    let body = init.body;
    if (init.json !== undefined) {
      headers.set('content-type', 'application/json');
      body = JSON.stringify(init.json);
    }
    return fetch(`${url}${path}`, { ...init, headers, body });
  };
  return {
    url,
    core,
    app,
    dataDir,
    api,
    upload: (path, filename, content, fields = {}) => {
      const form = new FormData();
      for (const [k, v] of Object.entries(fields)) form.append(k, v);
      form.append('file', new Blob([typeof content === 'string' ? content : Buffer.from(content)]), filename);
      return api(path, { method: 'POST', body: form });
    },
    close: async () => {
      await app.close();
      await core.close();
      await database.drop();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

export function sampleFile(name: string): Uint8Array {
  return readFileSync(join(SAMPLE_DIR, name));
}

/** Uploads the sample catalog, offerings (CSV) and doctors. */
export async function loadSample(server: TestServer): Promise<void> {
  for (const [path, file] of [
    ['/data/upload/courses', 'courses.json'],
    ['/data/upload/offerings', 'offerings.csv'],
    ['/data/upload/doctors', 'doctors.csv'],
  ] as const) {
    const response = await server.upload(path, file, sampleFile(file));
    if (response.status !== 200) throw new Error(`Loading ${file} failed: ${response.status} ${await response.text()}`);
  }
}

export async function json<T = unknown>(response: Response): Promise<T> {
  return (await response.json()) as T;
}
