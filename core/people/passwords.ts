import { randomBytes, scrypt, timingSafeEqual, type ScryptOptions } from 'node:crypto';

/**
 * Passwords kept as scrypt hashes (memory-hard: 2^15 × 8 × 128 bytes = 32 MB a try), each with
 * its own salt, in the form `scrypt$N$r$p$salt$hash`. Hashing runs on libuv's thread pool, not
 * the request thread.
 */
const COST = 2 ** 15;
const BLOCK_SIZE = 8;
const PARALLEL = 1;
const KEY_BYTES = 64;
const MAX_MEMORY = 64 * 1024 * 1024;

/** The shortest password Termwise takes, and the longest (a password is not a file). */
export const PASSWORD_LENGTH = { min: 12, max: 200 } as const;

function derive(password: string, salt: Buffer, options: ScryptOptions): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    scrypt(password.normalize('NFKC'), salt, KEY_BYTES, options, (error, key) => (error ? reject(error) : resolve(key)));
  });
}

export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(16);
  const key = await derive(password, salt, { N: COST, r: BLOCK_SIZE, p: PARALLEL, maxmem: MAX_MEMORY });
  return ['scrypt', COST, BLOCK_SIZE, PARALLEL, salt.toString('base64'), key.toString('base64')].join('$');
}

/** Whether the password is the one hashed; false for anything that is not a hash of this form. */
export async function passwordMatches(password: string, stored: string): Promise<boolean> {
  const [kind, n, r, p, salt, hash] = stored.split('$');
  if (kind !== 'scrypt' || !salt || !hash) return false;
  const options = { N: Number(n), r: Number(r), p: Number(p), maxmem: MAX_MEMORY };
  if (![options.N, options.r, options.p].every((v) => Number.isSafeInteger(v) && v > 0) || options.N > 2 ** 20) return false;
  const expected = Buffer.from(hash, 'base64');
  const key = await derive(password, Buffer.from(salt, 'base64'), options);
  return key.length === expected.length && timingSafeEqual(key, expected);
}

/** A hash to compare against when the login names nobody: a wrong login costs what a wrong password does. */
let decoy: Promise<string> | null = null;
export function decoyHash(): Promise<string> {
  decoy ??= hashPassword(randomBytes(24).toString('hex'));
  return decoy;
}
