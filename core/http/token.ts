import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { join } from 'node:path';
import { makePrivate, readSmallFile, writePrivateFile } from '../files/private';

export const TOKEN_FILE = 'api-token';

export interface ApiToken {
  token: string;
  /** Where the token comes from, for the start-up message. */
  source: string;
}

/** TERMWISE_API_TOKEN when set; else the token kept in the data folder, made on first start. */
export const ENV_TOKEN_SOURCE = 'the TERMWISE_API_TOKEN environment variable';

/** A token shorter than this can be guessed; Termwise refuses it. */
export const MIN_TOKEN_LENGTH = 32;

const isUsableToken = (token: string): boolean => token.length >= MIN_TOKEN_LENGTH && !/\s/.test(token);

export function loadApiToken(dataDir: string, env: NodeJS.ProcessEnv = process.env): ApiToken {
  const fromEnv = env.TERMWISE_API_TOKEN?.trim();
  if (fromEnv !== undefined && fromEnv !== '') {
    if (!isUsableToken(fromEnv)) {
      throw new Error(
        `TERMWISE_API_TOKEN must be at least ${MIN_TOKEN_LENGTH} characters without spaces (it has ${fromEnv.length}); e.g. \`openssl rand -hex 32\`, or unset it to let Termwise make one`,
      );
    }
    return { token: fromEnv, source: ENV_TOKEN_SOURCE };
  }
  const file = join(dataDir, TOKEN_FILE);
  const stored = readSmallFile(file, 4096);
  if (stored !== null) {
    makePrivate(file);
    const token = stored.trim();
    if (isUsableToken(token)) return { token, source: file };
  }
  return { token: regenerateApiToken(dataDir), source: file };
}

/** Makes a new token (32 random bytes, hex) and keeps it in the data folder, readable by the owner only. */
export function regenerateApiToken(dataDir: string): string {
  const file = join(dataDir, TOKEN_FILE);
  const token = randomBytes(32).toString('hex');
  writePrivateFile(file, `${token}\n`);
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
