import { createHash, randomBytes, scrypt, timingSafeEqual, type ScryptOptions } from 'node:crypto';

/**
 * Passwords: scrypt (N=2^14, r=8, p=1, 64-byte key, 16-byte salt), stored with their parameters so
 * that they can be raised later without breaking old hashes. Tokens: 32 random bytes, handed out
 * once as base64url and stored only as their SHA-256.
 */
const SCRYPT = { N: 16384, r: 8, p: 1, keylen: 64 } as const;

/**
 * scrypt at these settings takes 16 MiB and tens of milliseconds a run. At most this many run at
 * once; the rest wait their turn, and past the queue's length a caller is told to come back
 * (ScryptBusy), so a burst of sign-ins cannot exhaust memory or starve other requests.
 */
const SCRYPT_PARALLEL = 4;
const SCRYPT_QUEUE = 256;
let running = 0;
const waiting: (() => void)[] = [];

export class ScryptBusy extends Error {
  constructor() {
    super('The server is busy. Please try again in a moment.');
    this.name = 'ScryptBusy';
  }
}

async function scryptAsync(password: string, salt: Buffer, keylen: number, options: ScryptOptions) {
  if (running >= SCRYPT_PARALLEL) {
    if (waiting.length >= SCRYPT_QUEUE) throw new ScryptBusy();
    await new Promise<void>((resolve) => waiting.push(resolve));
  } else {
    running += 1;
  }
  try {
    return await new Promise<Buffer>((resolve, reject) => {
      scrypt(password, salt, keylen, { ...options, maxmem: 64 * 1024 * 1024 }, (err, key) =>
        err ? reject(err) : resolve(key),
      );
    });
  } finally {
    // Hand the slot straight to the next waiter, or free it.
    const next = waiting.shift();
    if (next === undefined) running -= 1;
    else next();
  }
}

export function hashPassword(password: string): Promise<string> {
  return hashPasswordAtCost(password, SCRYPT.N);
}

/**
 * The same at another cost (scrypt's N, a power of two), for test fixtures only: the stored
 * parameters make such a hash verify as any other, at its own cost. The platform hashes with
 * `hashPassword`.
 */
export async function hashPasswordAtCost(password: string, N: number): Promise<string> {
  const salt = randomBytes(16);
  const { r, p, keylen } = SCRYPT;
  const key = await scryptAsync(password, salt, keylen, { N, r, p });
  return `scrypt$${N}$${r}$${p}$${salt.toString('base64')}$${key.toString('base64')}`;
}

export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const [scheme, n, r, p, salt, key] = stored.split('$');
  if (scheme !== 'scrypt' || !n || !r || !p || !salt || !key) return false;
  const expected = Buffer.from(key, 'base64');
  const actual = await scryptAsync(password, Buffer.from(salt, 'base64'), expected.length, {
    N: Number(n),
    r: Number(r),
    p: Number(p),
  });
  return timingSafeEqual(actual, expected);
}

/**
 * A hash to verify against when the user does not exist, so that an unknown e-mail costs the same
 * time as a wrong password and timing does not tell which addresses are registered.
 */
let decoy: Promise<string> | undefined;
export async function verifyDecoy(password: string): Promise<false> {
  decoy ??= hashPassword(randomBytes(12).toString('base64'));
  await verifyPassword(password, await decoy);
  return false;
}

/** A fresh secret token: 32 random bytes as base64url. */
export function newToken(): string {
  return randomBytes(32).toString('base64url');
}

export function sha256(value: string): string {
  return createHash('sha256').update(value).digest('hex');
}
