import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { chmodSync, existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

export const TOKEN_FILE = 'api-token';

export interface ApiToken {
  token: string;
  /** Where the token comes from, for the start-up message. */
  source: string;
}

/** TERMWISE_API_TOKEN when set; else the token kept in the data folder, made on first start. */
export const ENV_TOKEN_SOURCE = 'the TERMWISE_API_TOKEN environment variable';

export function loadApiToken(dataDir: string, env: NodeJS.ProcessEnv = process.env): ApiToken {
  if (env.TERMWISE_API_TOKEN) return { token: env.TERMWISE_API_TOKEN, source: ENV_TOKEN_SOURCE };
  const file = join(dataDir, TOKEN_FILE);
  if (existsSync(file)) {
    const token = readFileSync(file, 'utf8').trim();
    if (token.length >= 32) return { token, source: file };
  }
  return { token: regenerateApiToken(dataDir), source: file };
}

/** Makes a new token (32 random bytes, hex) and keeps it in the data folder, readable by the owner only. */
export function regenerateApiToken(dataDir: string): string {
  const file = join(dataDir, TOKEN_FILE);
  const token = randomBytes(32).toString('hex');
  writeFileSync(file, `${token}\n`, { mode: 0o600 });
  chmodSync(file, 0o600);
  return token;
}

/** Constant-time comparison (of digests, so lengths never leak either). */
export function tokensMatch(given: string, expected: string): boolean {
  const a = createHash('sha256').update(given).digest();
  const b = createHash('sha256').update(expected).digest();
  return timingSafeEqual(a, b);
}

export function bearerToken(header: string | undefined): string | null {
  if (!header) return null;
  const m = /^Bearer\s+(\S+)\s*$/i.exec(header);
  return m?.[1] ?? null;
}
